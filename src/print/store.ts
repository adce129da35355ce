// The print/advertising store in LMDB: albums, advertisers with an exact points ledger, ad applications with
// versioned creatives, impressions and the round-robin cursor per album.
//
// Money rule: every balance change is a ledger entry written in the same LMDB write transaction as the new
// balance, so balance == sum(ledger deltas) at every commit. A print's selection, its deduction, its impression
// record and the album's round-robin cursor commit together in one transaction (selectAndCharge). lmdb-js runs
// transaction callbacks synchronously: nothing inside awaits, and reads inside see the writes made before them.
import crypto from 'node:crypto';
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { Advertiser, Album, AdMode, Application, CreativeVersion, Impression, LedgerEntry, LedgerKind } from './types.js';

const ALPHA = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Time-ordered id: prefix + base36 ms timestamp (9 chars) + 6 random chars. */
export function newId(prefix: string, now: number): string {
  const r = crypto.randomBytes(6);
  let s = '';
  for (let i = 0; i < 6; i++) s += ALPHA[r[i]! % 36];
  return `${prefix}${now.toString(36).padStart(9, '0')}${s}`;
}

export type SelectOutcome =
  | { kind: 'album_not_found' }
  | { kind: 'conflict'; existing: Impression }
  | { kind: 'replay'; impression: Impression }
  | { kind: 'new'; impression: Impression };

export interface SelectRequest {
  job_id: string;
  album_id: string;
  at: number;
  key_id?: string;
  /** false when the request turned the ad off (settings.ad.show false) */
  want_ad: boolean;
}

export interface ImpressionQuery {
  album_id?: string;
  advertiser_id?: string;
  /** ms epoch, inclusive */
  from?: number;
  /** ms epoch, exclusive */
  to?: number;
  limit: number;
  cursor?: string;
}

type IdxKey = Array<string | number>;

export class PrintStore {
  readonly albums: Database<Album, string>;
  readonly advertisers: Database<Advertiser, string>;
  readonly ledger: Database<LedgerEntry, [string, number]>;
  readonly applications: Database<Application, string>;
  readonly appsByAdvertiser: Database<null, [string, string]>;
  readonly creatives: Database<Buffer, string>;
  readonly impressions: Database<Impression, string>;
  readonly impByTime: Database<null, IdxKey>;
  readonly impByAlbum: Database<null, IdxKey>;
  readonly impByAdvertiser: Database<null, IdxKey>;
  readonly cursors: Database<string, string>;
  /** job_ids selected (and maybe charged) whose sheet is not stored yet */
  readonly composing: Database<null, string>;
  readonly meta: Database<unknown, string>;

  constructor(private readonly store: Store) {
    this.albums = store.db('print-albums');
    this.advertisers = store.db('print-advertisers');
    this.ledger = store.db('print-ledger');
    this.applications = store.db('print-applications');
    this.appsByAdvertiser = store.db('print-apps-by-advertiser');
    this.creatives = store.db('print-creatives', { encoding: 'binary' });
    this.impressions = store.db('print-impressions');
    this.impByTime = store.db('print-imp-by-time');
    this.impByAlbum = store.db('print-imp-by-album');
    this.impByAdvertiser = store.db('print-imp-by-advertiser');
    this.cursors = store.db('print-rr-cursor');
    this.composing = store.db('print-composing');
    this.meta = store.db('print-meta');
  }

  /** A per-installation secret (random, created once) used to derive result-image keys. */
  async secret(): Promise<Buffer> {
    const have = this.meta.get('image-key-secret') as Buffer | Uint8Array | undefined;
    if (have) return Buffer.from(have);
    let out: Buffer | undefined;
    await this.store.transaction(() => {
      const again = this.meta.get('image-key-secret') as Buffer | Uint8Array | undefined;
      if (again) out = Buffer.from(again);
      else {
        out = crypto.randomBytes(32);
        this.meta.put('image-key-secret', out);
      }
    });
    return out!;
  }

  // ---------------------------------------------------------------- albums

  async createAlbum(a: { id?: string; name: string; ad_mode: AdMode; fixed_application_id?: string; advertiser_ids?: string[]; settings?: Record<string, unknown> }, now: number): Promise<Album | 'exists'> {
    const album: Album = {
      id: a.id ?? newId('alb_', now),
      name: a.name,
      ad_mode: a.ad_mode,
      fixed_application_id: a.fixed_application_id,
      advertiser_ids: [...new Set(a.advertiser_ids ?? [])],
      ...(a.settings ? { settings: a.settings } : {}),
      created_at: now,
      updated_at: now,
    };
    let exists = false;
    await this.store.transaction(() => {
      if (this.albums.get(album.id)) {
        exists = true;
        return;
      }
      this.albums.put(album.id, album);
    });
    return exists ? 'exists' : album;
  }

  async updateAlbum(id: string, patch: Partial<Pick<Album, 'name' | 'ad_mode' | 'fixed_application_id' | 'advertiser_ids' | 'settings'>>, now: number): Promise<Album | undefined> {
    let out: Album | undefined;
    await this.store.transaction(() => {
      const a = this.albums.get(id);
      if (!a) return;
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (a as unknown as Record<string, unknown>)[k] = v;
      if (patch.fixed_application_id === null) delete a.fixed_application_id;
      if (patch.settings === null) delete a.settings;
      a.advertiser_ids = [...new Set(a.advertiser_ids)];
      a.updated_at = now;
      this.albums.put(id, a);
      out = a;
    });
    return out;
  }

  listAlbums(): Album[] {
    return [...this.albums.getRange()].map((e) => e.value);
  }

  // ---------------------------------------------------------------- advertisers and ledger

  async createAdvertiser(a: { name: string; unit_points: number; active?: boolean; initial_points?: number; reason?: string }, now: number): Promise<Advertiser> {
    const adv: Advertiser = { id: newId('adv_', now), name: a.name, unit_points: a.unit_points, balance: 0, active: a.active ?? true, ledger_seq: 0, created_at: now, updated_at: now };
    await this.store.transaction(() => {
      this.advertisers.put(adv.id, adv);
      if (a.initial_points) this.writeEntry(adv, 'top_up', a.initial_points, a.reason ?? 'initial points', now, {});
    });
    return this.advertisers.get(adv.id)!;
  }

  async updateAdvertiser(id: string, patch: { name?: string; unit_points?: number; active?: boolean }, now: number): Promise<Advertiser | undefined> {
    let out: Advertiser | undefined;
    await this.store.transaction(() => {
      const a = this.advertisers.get(id);
      if (!a) return;
      if (patch.name !== undefined) a.name = patch.name;
      if (patch.unit_points !== undefined) a.unit_points = patch.unit_points;
      if (patch.active !== undefined) a.active = patch.active;
      a.updated_at = now;
      this.advertisers.put(id, a);
      out = a;
    });
    return out;
  }

  /** Advertisers in creation order (the default round-robin order). */
  listAdvertisers(): Advertiser[] {
    return [...this.advertisers.getRange()].map((e) => e.value).sort((x, y) => x.created_at - y.created_at || (x.id < y.id ? -1 : 1));
  }

  /** Inside a transaction: write one ledger entry and the new balance. */
  private writeEntry(adv: Advertiser, kind: LedgerKind, delta: number, reason: string, at: number, ref: { job_id?: string; album_id?: string }): LedgerEntry {
    adv.balance += delta;
    adv.ledger_seq += 1;
    adv.updated_at = at;
    const e: LedgerEntry = { advertiser_id: adv.id, seq: adv.ledger_seq, at, kind, delta, balance_after: adv.balance, reason, ...ref };
    this.ledger.put([adv.id, adv.ledger_seq], e);
    this.advertisers.put(adv.id, adv);
    return e;
  }

  /** Add (or, with a negative amount, remove) points with a reason. A balance never goes below zero. */
  async topUp(id: string, points: number, reason: string, now: number): Promise<{ advertiser: Advertiser; entry: LedgerEntry } | 'not_found' | 'negative'> {
    let out: { advertiser: Advertiser; entry: LedgerEntry } | 'not_found' | 'negative' = 'not_found';
    await this.store.transaction(() => {
      const a = this.advertisers.get(id);
      if (!a) return;
      if (a.balance + points < 0) {
        out = 'negative';
        return;
      }
      const entry = this.writeEntry(a, points > 0 ? 'top_up' : 'adjustment', points, reason, now, {});
      out = { advertiser: a, entry };
    });
    return out;
  }

  ledgerOf(id: string, opts: { limit?: number; after?: number } = {}): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const { value } of this.ledger.getRange({ start: [id, (opts.after ?? 0) + 1], end: [id, Number.MAX_SAFE_INTEGER] })) {
      out.push(value);
      if (opts.limit && out.length >= opts.limit) break;
    }
    return out;
  }

  /** Sum of all ledger deltas of an advertiser (must equal its balance). */
  ledgerSum(id: string): { sum: number; entries: number } {
    let sum = 0;
    let entries = 0;
    for (const { value } of this.ledger.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) {
      sum += value.delta;
      entries++;
    }
    return { sum, entries };
  }

  // ---------------------------------------------------------------- applications and creatives

  async createApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, creative: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): Promise<Application | 'advertiser_not_found'> {
    const app: Application = { id: newId('app_', now), advertiser_id: a.advertiser_id, title: a.title, album_ids: a.album_ids, versions: [], created_at: now, updated_at: now };
    let missing = false;
    await this.store.transaction(() => {
      if (!this.advertisers.get(a.advertiser_id)) {
        missing = true;
        return;
      }
      this.pushVersion(app, creative, now);
      this.appsByAdvertiser.put([a.advertiser_id, app.id], null);
    });
    return missing ? 'advertiser_not_found' : app;
  }

  private pushVersion(app: Application, c: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): CreativeVersion {
    const v: CreativeVersion = { version: app.versions.length + 1, status: 'pending', format: c.format, width: c.width, height: c.height, bytes: c.bytes.length, uploaded_at: now };
    app.versions.push(v);
    app.updated_at = now;
    this.creatives.put(`${app.id}/${v.version}`, c.bytes);
    this.applications.put(app.id, app);
    return v;
  }

  async addVersion(appId: string, c: { bytes: Buffer; format: CreativeVersion['format']; width: number; height: number }, now: number): Promise<{ app: Application; version: CreativeVersion } | undefined> {
    let out: { app: Application; version: CreativeVersion } | undefined;
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      const version = this.pushVersion(app, c, now);
      out = { app, version };
    });
    return out;
  }

  async decide(appId: string, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Promise<Application | 'not_found' | 'no_version'> {
    let out: Application | 'not_found' | 'no_version' = 'not_found';
    await this.store.transaction(() => {
      const app = this.applications.get(appId);
      if (!app) return;
      const v = app.versions.find((x) => x.version === version);
      if (!v) {
        out = 'no_version';
        return;
      }
      v.status = status;
      v.decided_at = now;
      if (reason !== undefined) v.decision_reason = reason;
      else delete v.decision_reason;
      app.updated_at = now;
      this.applications.put(appId, app);
      out = app;
    });
    return out;
  }

  listApplications(advertiserId?: string): Application[] {
    if (advertiserId) {
      const out: Application[] = [];
      for (const key of this.appsByAdvertiser.getKeys({ start: [advertiserId, ''], end: [advertiserId, '\uffff'] })) {
        const a = this.applications.get((key as [string, string])[1]);
        if (a) out.push(a);
      }
      return out;
    }
    return [...this.applications.getRange()].map((e) => e.value);
  }

  creative(appId: string, version: number): Buffer | undefined {
    return this.creatives.get(`${appId}/${version}`);
  }

  /** The latest approved version of an application, if any. */
  static approved(app: Application): CreativeVersion | undefined {
    let best: CreativeVersion | undefined;
    for (const v of app.versions) if (v.status === 'approved' && (!best || v.version > best.version)) best = v;
    return best;
  }

  /** The creative an advertiser runs in an album: among its applications for that album with an approved
   * version, the one approved most recently. */
  private creativeFor(advertiserId: string, albumId: string): { app: Application; version: CreativeVersion } | undefined {
    let best: { app: Application; version: CreativeVersion } | undefined;
    for (const key of this.appsByAdvertiser.getKeys({ start: [advertiserId, ''], end: [advertiserId, '\uffff'] })) {
      const app = this.applications.get((key as [string, string])[1]);
      if (!app || (app.album_ids.length > 0 && !app.album_ids.includes(albumId))) continue;
      const v = PrintStore.approved(app);
      if (v && (!best || (v.decided_at ?? 0) > (best.version.decided_at ?? 0))) best = { app, version: v };
    }
    return best;
  }

  // ---------------------------------------------------------------- selection and charge (one transaction)

  /**
   * Decide the ad of a print and charge it, atomically: idempotency check on job_id, eligibility, round-robin,
   * deduction + ledger entry, impression record and cursor all commit in this one write transaction.
   */
  async selectAndCharge(req: SelectRequest): Promise<SelectOutcome> {
    let out: SelectOutcome = { kind: 'album_not_found' };
    await this.store.transaction(() => {
      out = this.selectAndChargeSync(req);
    });
    return out;
  }

  private selectAndChargeSync(req: SelectRequest): SelectOutcome {
    const prev = this.impressions.get(req.job_id);
    if (prev && (prev.status === 'composing' || prev.status === 'printed')) {
      // the same job_id from another album, or from another API key, is not a repeat of this print
      if (prev.album_id !== req.album_id || prev.key_id !== req.key_id) return { kind: 'conflict', existing: prev };
      return { kind: 'replay', impression: prev };
    }
    const album = this.albums.get(req.album_id);
    if (!album) return { kind: 'album_not_found' };
    const imp: Impression = { job_id: req.job_id, album_id: req.album_id, at: req.at, status: 'composing', unit_points: 0, selected_reason: '', key_id: req.key_id };
    const skipped: Array<{ advertiser_id: string; reason: string }> = [];
    let chosen: { adv: Advertiser; app: Application; version: CreativeVersion } | undefined;

    const check = (adv: Advertiser | undefined, id: string, creative?: { app: Application; version: CreativeVersion }): boolean => {
      if (!adv) {
        skipped.push({ advertiser_id: id, reason: 'unknown advertiser' });
        return false;
      }
      if (!adv.active) {
        skipped.push({ advertiser_id: id, reason: 'inactive' });
        return false;
      }
      const c = creative ?? this.creativeFor(adv.id, album.id);
      if (!c) {
        skipped.push({ advertiser_id: id, reason: 'no approved ad application for this album' });
        return false;
      }
      if (adv.balance < adv.unit_points) {
        skipped.push({ advertiser_id: id, reason: `insufficient balance (${adv.balance} < ${adv.unit_points})` });
        return false;
      }
      chosen = { adv, app: c.app, version: c.version };
      return true;
    };

    if (!req.want_ad) imp.selected_reason = 'ad_disabled_by_request';
    else if (album.ad_mode === 'none') imp.selected_reason = 'album_ad_mode_none';
    else if (album.ad_mode === 'fixed') {
      const app = album.fixed_application_id ? this.applications.get(album.fixed_application_id) : undefined;
      const v = app ? PrintStore.approved(app) : undefined;
      if (!app) imp.selected_reason = 'fixed_application_missing';
      else if (!v) imp.selected_reason = 'fixed_application_not_approved';
      else if (check(this.advertisers.get(app.advertiser_id), app.advertiser_id, { app, version: v })) imp.selected_reason = 'fixed';
      else imp.selected_reason = 'fixed_advertiser_not_eligible';
    } else {
      const ids = album.advertiser_ids.length ? album.advertiser_ids : this.listAdvertisers().map((a) => a.id);
      if (ids.length === 0) imp.selected_reason = 'no_advertisers';
      else {
        const last = this.cursors.get(album.id);
        const at = last === undefined ? -1 : ids.indexOf(last);
        for (let k = 1; k <= ids.length; k++) {
          const id = ids[(at + k + ids.length) % ids.length]!;
          if (check(this.advertisers.get(id), id)) break;
        }
        imp.selected_reason = chosen ? 'round_robin' : 'no_eligible_advertiser';
      }
    }
    if (skipped.length) imp.skipped = skipped;

    if (chosen) {
      const { adv, app, version } = chosen;
      const before = adv.balance;
      this.writeEntry(adv, 'charge', -adv.unit_points, `print ${req.job_id}`, req.at, { job_id: req.job_id, album_id: album.id });
      imp.advertiser_id = adv.id;
      imp.application_id = app.id;
      imp.version = version.version;
      imp.unit_points = adv.unit_points;
      imp.balance_before = before;
      imp.balance_after = adv.balance;
      if (album.ad_mode === 'selected') this.cursors.put(album.id, adv.id);
    }
    if (prev) this.unindex(prev);
    this.impressions.put(imp.job_id, imp);
    this.index(imp);
    this.composing.put(imp.job_id, null);
    return { kind: 'new', impression: imp };
  }

  private index(imp: Impression): void {
    this.impByTime.put([imp.at, imp.job_id], null);
    this.impByAlbum.put([imp.album_id, imp.at, imp.job_id], null);
    if (imp.advertiser_id) this.impByAdvertiser.put([imp.advertiser_id, imp.at, imp.job_id], null);
  }

  private unindex(imp: Impression): void {
    this.impByTime.remove([imp.at, imp.job_id]);
    this.impByAlbum.remove([imp.album_id, imp.at, imp.job_id]);
    if (imp.advertiser_id) this.impByAdvertiser.remove([imp.advertiser_id, imp.at, imp.job_id]);
  }

  /** Composition failed: give the points back (ledger entry) and mark the impression; a retry selects anew. */
  async refund(jobId: string, reason: string, now: number): Promise<Impression | undefined> {
    let out: Impression | undefined;
    await this.store.transaction(() => {
      const imp = this.impressions.get(jobId);
      if (!imp || imp.status !== 'composing') return;
      if (imp.advertiser_id && imp.unit_points > 0) {
        const adv = this.advertisers.get(imp.advertiser_id);
        if (adv) this.writeEntry(adv, 'refund', imp.unit_points, `refund print ${jobId}: ${reason}`.slice(0, 300), now, { job_id: jobId, album_id: imp.album_id });
        imp.status = 'refunded';
      } else imp.status = 'failed';
      this.impressions.put(jobId, imp);
      this.composing.remove(jobId);
      out = imp;
    });
    return out;
  }

  async markPrinted(jobId: string, image: NonNullable<Impression['image']>): Promise<Impression | undefined> {
    let out: Impression | undefined;
    await this.store.transaction(() => {
      const imp = this.impressions.get(jobId);
      if (!imp || (imp.status !== 'composing' && imp.status !== 'printed')) return;
      imp.status = 'printed';
      imp.image = image;
      this.impressions.put(jobId, imp);
      this.composing.remove(jobId);
      out = imp;
    });
    return out;
  }

  /** On start-up: prints left composing by a stopped server are refunded (their sheet was never delivered). */
  async recoverInterrupted(now: number): Promise<number> {
    const ids = [...this.composing.getKeys()] as string[];
    for (const id of ids) {
      const imp = await this.refund(id, 'the server stopped while this sheet was being composed', now);
      if (!imp) await this.composing.remove(id);
    }
    return ids.length;
  }

  impression(jobId: string): Impression | undefined {
    return this.impressions.get(jobId);
  }

  /** Impressions in time order, filtered by album, advertiser and time range; opaque cursor for the next page. */
  queryImpressions(q: ImpressionQuery): { items: Impression[]; next_cursor?: string } {
    const from = q.from ?? 0;
    const to = q.to ?? Number.MAX_SAFE_INTEGER;
    let db: Database<null, IdxKey>;
    let prefix: Array<string | number>;
    if (q.advertiser_id) {
      db = this.impByAdvertiser;
      prefix = [q.advertiser_id];
    } else if (q.album_id) {
      db = this.impByAlbum;
      prefix = [q.album_id];
    } else {
      db = this.impByTime;
      prefix = [];
    }
    let start: IdxKey = [...prefix, from];
    let exclusive = false;
    if (q.cursor) {
      const [t, id] = Buffer.from(q.cursor, 'base64url').toString().split('|');
      if (t && id && /^\d+$/.test(t)) {
        start = [...prefix, Number(t), id];
        exclusive = true;
      }
    }
    const items: Impression[] = [];
    let next: string | undefined;
    for (const key of db.getKeys({ start, end: [...prefix, to], exclusiveStart: exclusive } as never)) {
      const k = key as IdxKey;
      const jobId = k[k.length - 1] as string;
      const imp = this.impressions.get(jobId);
      if (!imp) continue;
      if (q.album_id && imp.album_id !== q.album_id) continue;
      if (q.advertiser_id && imp.advertiser_id !== q.advertiser_id) continue;
      if (items.length === q.limit) {
        const last = items[items.length - 1]!;
        next = Buffer.from(`${last.at}|${last.job_id}`).toString('base64url');
        break;
      }
      items.push(imp);
    }
    return { items, next_cursor: next };
  }
}
