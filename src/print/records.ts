// The print store's record rules, used by both stores (LMDB ./store*.ts, PostgreSQL ./store-pg*.ts) so the two
// cannot drift: new records, album patches, creative versions and decisions, ledger entries, top-up limits, what a
// repeat of a job_id is, and how a failed print is settled. Pure functions over the records of ./types.ts.
import crypto from 'node:crypto';
import { approvedVersion } from './select.js';
import type { AlbumInput, AlbumPatch, CreativeInput, SelectRequest } from './repo.js';
import type { Advertiser, Album, Application, CreativeVersion, Impression, LedgerEntry, LedgerKind } from './types.js';

const ALPHA = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Time-ordered id: prefix + base36 ms timestamp (9 chars) + 6 random chars. */
export function newId(prefix: string, now: number): string {
  const r = crypto.randomBytes(6);
  let s = '';
  for (let i = 0; i < 6; i++) s += ALPHA[r[i]! % 36];
  return `${prefix}${now.toString(36).padStart(9, '0')}${s}`;
}

export function newAlbum(a: AlbumInput, now: number): Album {
  return {
    id: a.id ?? newId('alb_', now),
    name: a.name,
    ad_mode: a.ad_mode,
    fixed_application_id: a.fixed_application_id,
    advertiser_ids: [...new Set(a.advertiser_ids ?? [])],
    ...(a.settings ? { settings: a.settings } : {}),
    created_at: now,
    updated_at: now,
  };
}

/** Apply a patch (undefined = keep; null fixed_application_id/settings = remove). */
export function patchAlbum(a: Album, patch: AlbumPatch, now: number): Album {
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (a as unknown as Record<string, unknown>)[k] = v;
  if (patch.fixed_application_id === null) delete a.fixed_application_id;
  if (patch.settings === null) delete a.settings;
  a.advertiser_ids = [...new Set(a.advertiser_ids)];
  a.updated_at = now;
  return a;
}

export function newAdvertiser(a: { name: string; unit_points: number; active?: boolean }, now: number): Advertiser {
  return { id: newId('adv_', now), name: a.name, unit_points: a.unit_points, balance: 0, active: a.active ?? true, ledger_seq: 0, created_at: now, updated_at: now };
}

export function patchAdvertiser(a: Advertiser, patch: { name?: string; unit_points?: number; active?: boolean }, now: number): Advertiser {
  if (patch.name !== undefined) a.name = patch.name;
  if (patch.unit_points !== undefined) a.unit_points = patch.unit_points;
  if (patch.active !== undefined) a.active = patch.active;
  a.updated_at = now;
  return a;
}

/** Creation order: the default round-robin order. */
export const byCreation = (x: Advertiser, y: Advertiser): number => x.created_at - y.created_at || (x.id < y.id ? -1 : 1);

/** One ledger entry: the advertiser's new balance and seq (the caller writes both in the same transaction). */
export function ledgerEntry(adv: Advertiser, kind: LedgerKind, delta: number, reason: string, at: number, ref: { job_id?: string; album_id?: string }): LedgerEntry {
  adv.balance += delta;
  adv.ledger_seq += 1;
  adv.updated_at = at;
  return { advertiser_id: adv.id, seq: adv.ledger_seq, at, kind, delta, balance_after: adv.balance, reason, ...ref };
}

/** The kind of a manual change of points, or 'negative' when it would take the balance below zero. */
export function topUpKind(adv: Advertiser, points: number): LedgerKind | 'negative' {
  if (adv.balance + points < 0) return 'negative';
  return points > 0 ? 'top_up' : 'adjustment';
}

export function newApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, now: number): Application {
  return { id: newId('app_', now), advertiser_id: a.advertiser_id, title: a.title, album_ids: a.album_ids, versions: [], created_at: now, updated_at: now };
}

/** Append a pending version (the caller stores the creative's bytes under (app.id, version)). */
export function pushVersion(app: Application, c: CreativeInput, now: number): CreativeVersion {
  const v: CreativeVersion = { version: app.versions.length + 1, status: 'pending', format: c.format, width: c.width, height: c.height, bytes: c.bytes.length, uploaded_at: now };
  app.versions.push(v);
  app.updated_at = now;
  return v;
}

export function decideVersion(app: Application, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Application | 'no_version' {
  const v = app.versions.find((x) => x.version === version);
  if (!v) return 'no_version';
  v.status = status;
  v.decided_at = now;
  if (reason !== undefined) v.decision_reason = reason;
  else delete v.decision_reason;
  app.updated_at = now;
  return app;
}

/** The creative an advertiser runs in an album: among its applications for that album with an approved version,
 * the one approved most recently. */
export function bestCreative(apps: Iterable<Application>, albumId: string): { app: Application; version: CreativeVersion } | undefined {
  let best: { app: Application; version: CreativeVersion } | undefined;
  for (const app of apps) {
    if (app.album_ids.length > 0 && !app.album_ids.includes(albumId)) continue;
    const v = approvedVersion(app);
    if (v && (!best || (v.decided_at ?? 0) > (best.version.decided_at ?? 0))) best = { app, version: v };
  }
  return best;
}

/** An earlier print of this job_id still composing or printed: a replay of it, or a conflict (the same job_id from
 * another album or another API key is not a repeat). A refunded or failed one is printed anew. */
export function repeatOf(prev: Impression | undefined, req: SelectRequest): { kind: 'conflict'; existing: Impression } | { kind: 'replay'; impression: Impression } | undefined {
  if (!prev || (prev.status !== 'composing' && prev.status !== 'printed')) return undefined;
  if (prev.album_id !== req.album_id || prev.key_id !== req.key_id) return { kind: 'conflict', existing: prev };
  return { kind: 'replay', impression: prev };
}

/** How a composing print that failed is settled: its points back (refunded) when it carried a charged ad. */
export function settlement(imp: Impression): { status: 'refunded' | 'failed'; points: number } {
  return imp.advertiser_id && imp.unit_points > 0 ? { status: 'refunded', points: imp.unit_points } : { status: 'failed', points: 0 };
}

/** A request's claim on the print it composes (random; the store keeps the latest request's). */
export const newClaim = (): string => crypto.randomBytes(9).toString('base64url');

export const refundReason = (jobId: string, reason: string): string => `refund print ${jobId}: ${reason}`.slice(0, 300);
export const chargeReason = (jobId: string): string => `print ${jobId}`;

/** The impression pages' opaque cursor: (at, job_id) of the last item. */
export const encodeCursor = (imp: Impression): string => Buffer.from(`${imp.at}|${imp.job_id}`).toString('base64url');
export function decodeCursor(cursor: string | undefined): { at: number; job_id: string } | undefined {
  if (!cursor) return undefined;
  const [t, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  return t && id && /^\d+$/.test(t) ? { at: Number(t), job_id: id } : undefined;
}
