// The print store in PostgreSQL (shared mode): every node of a fleet selects, charges and records prints on one
// database. A print's charge, ledger entry, impression and round-robin cursor commit in ONE transaction:
//   1. pg_advisory_xact_lock on the job_id: the same job_id sent to two nodes at once is decided once; the second
//      waits, then sees the first's impression and replays it. The database enforces it too: job_id is the
//      impression's primary key (a first print is a plain insert), a reprint of a refunded print updates only the
//      attempt it read, and the ledger's unique (job_id, kind, attempt) admits one charge and one refund per
//      attempt (migration 0090); a transaction refused by them rolls back whole and runs again as a replay;
//   2. the album's candidate advertisers are loaded with SELECT … FOR UPDATE in id order (no deadlock between
//      prints), so a balance read for the decision is the balance charged: never below zero, never charged twice;
//   3. the decision is ./select.ts selectAd, the same rule as the LMDB store.
// With isolation 'serializable' (bench/print-pg.ts only) the locks are left out and SERIALIZABLE + retry decides.
// A charged print is 'composing' under a lease (claimed_by, lease_until) until its sheet is stored; a node that
// dies mid-print leaves its lease to run out, and recoverInterrupted on any node refunds it exactly once (FOR UPDATE
// SKIP LOCKED, then the status changes in the same transaction). A repeat of the job_id takes the lease over, with a
// claim of its own: the first request failing afterwards does not refund a print the repeat is finishing.
import type { Pg, PgClient } from '../shared/pg.js';
import { PgPrintCatalog, advertiserOf } from './store-pg-catalog.js';
import { impressionOf, selectAd, type SelectView } from './select.js';
import { bestCreative, chargeReason, decodeCursor, encodeCursor, newClaim, refundReason, repeatOf, settlement } from './records.js';
import type { ImpressionQuery, PrintRepo, SelectOutcome, SelectRequest } from './repo.js';
import type { Advertiser, Album, Application, Impression } from './types.js';

export interface PgPrintOptions {
  /** this node's name (the claim on its composing prints) */
  node: string;
  /** how long a charged print may stay composing before another node refunds it */
  leaseMs: number;
  /** 'row-locks' (default): advisory + row locks; 'serializable': SERIALIZABLE with retry, no explicit locks */
  isolation?: 'row-locks' | 'serializable';
}

const RECOVER_BATCH = 50;
const jobLock = 'select pg_advisory_xact_lock(hashtextextended($1, 0))';
const tryJobLock = 'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok';
const lockKey = (jobId: string): string => `sejong-print:${jobId}`;
const UNIQUE_VIOLATION = '23505';
/** Another transaction changed this job_id's impression first (only without the advisory lock): run again. */
class LostRace extends Error {}

export class PgPrintStore extends PgPrintCatalog implements PrintRepo {
  private readonly serializable: boolean;

  constructor(pg: Pg, private readonly opts: PgPrintOptions) {
    super(pg);
    this.serializable = opts.isolation === 'serializable';
  }

  private tx<T>(fn: (c: PgClient) => Promise<T>): Promise<T> {
    return this.serializable ? this.pg.tx(fn, { isolation: 'serializable', retries: 50 }) : this.pg.tx(fn);
  }

  private get forUpdate(): string {
    return this.serializable ? '' : ' for update';
  }

  // ---------------------------------------------------------------- selection and charge (one transaction)

  async selectAndCharge(req: SelectRequest): Promise<SelectOutcome> {
    for (let i = 0; ; i++) {
      try {
        return await this.tx((c) => this.selectIn(c, req));
      } catch (e) {
        // the database refused a second charge of this print (unique index, or the impression changed under us):
        // the loser's transaction rolled back whole; run again, it now answers the winner's print (replay/conflict)
        if (i < 3 && (e instanceof LostRace || (e as { code?: string }).code === UNIQUE_VIOLATION)) continue;
        throw e;
      }
    }
  }

  private async selectIn(c: PgClient, req: SelectRequest): Promise<SelectOutcome> {
    if (!this.serializable) await c.query(jobLock, [lockKey(req.job_id)]);
    const prev = await this.rowIn(c, req.job_id);
    const repeat = repeatOf(prev?.imp, req);
    const claim = `${this.opts.node}/${newClaim()}`;
    if (repeat?.kind === 'replay') {
      // this request now finishes the print: the claim is its (a dead first node's recovery, or the first request
      // failing, must not refund it)
      if (prev!.imp.status === 'composing') await this.claim(c, req.job_id, claim, req.at);
      return { ...repeat, claim };
    }
    if (repeat) return repeat;
    const album = await this.album(req.album_id, c);
    if (!album) return { kind: 'album_not_found' } as const;
    const sel = selectAd(await this.viewFor(c, album, req.want_ad), album, req.want_ad);
    // a refunded (or failed) print sent again is its next attempt; the ledger's unique (job_id, kind, attempt)
    // admits one charge per attempt
    const attempt = (prev?.attempt ?? 0) + 1;
    let balanceAfter: number | undefined;
    if (sel.chosen) {
      const { adv } = sel.chosen;
      await this.writeEntry(c, adv, 'charge', -adv.unit_points, chargeReason(req.job_id), req.at, { job_id: req.job_id, album_id: album.id }, attempt);
      balanceAfter = adv.balance;
      if (album.ad_mode === 'selected') {
        await c.query('insert into print_cursors (album_id, advertiser_id) values ($1, $2) on conflict (album_id) do update set advertiser_id = excluded.advertiser_id', [album.id, adv.id]);
      }
    }
    const imp = impressionOf(req, sel, balanceAfter);
    const row = [imp.job_id, imp.album_id, imp.advertiser_id ?? null, imp.at, JSON.stringify(imp), claim, req.at + this.opts.leaseMs, attempt];
    if (!prev) {
      // a plain insert: a concurrent first print of this job_id that committed first makes it fail (23505)
      await c.query("insert into print_impressions (job_id, album_id, advertiser_id, at, status, rec, claimed_by, lease_until, attempt) values ($1, $2, $3, $4, 'composing', $5, $6, $7, $8)", row);
    } else {
      const r = await c.query(
        `update print_impressions set album_id = $2, advertiser_id = $3, at = $4, status = 'composing', rec = $5, claimed_by = $6, lease_until = $7, attempt = $8
         where job_id = $1 and attempt = $9 and status in ('refunded', 'failed')`,
        [...row, prev.attempt],
      );
      if (r.rowCount !== 1) throw new LostRace();
    }
    return { kind: 'new', impression: imp, claim } as const;
  }

  /** The catalog rows a selection may touch, loaded inside the transaction; advertisers locked in id order. */
  private async viewFor(c: PgClient, album: Album, wantAd: boolean): Promise<SelectView> {
    const apps = new Map<string, Application>();
    const advs = new Map<string, Advertiser>();
    let all: string[] = [];
    let ids: string[] = [];
    if (wantAd && album.ad_mode === 'fixed' && album.fixed_application_id) {
      const app = await this.application(album.fixed_application_id, c);
      if (app) ids = [app.advertiser_id];
    } else if (wantAd && album.ad_mode === 'selected') {
      if (album.advertiser_ids.length) ids = album.advertiser_ids;
      else ids = all = (await c.query<{ id: string }>('select id from print_advertisers order by created_at, id')).rows.map((r) => r.id);
    }
    if (ids.length) {
      const rows = (await c.query<{ balance: number; rec: Advertiser }>(`select balance, rec from print_advertisers where id = any($1) order by id${this.forUpdate}`, [ids])).rows;
      for (const row of rows) advs.set(row.rec.id, advertiserOf(row));
      const appRows = (await c.query<{ rec: Application }>('select rec from print_applications where advertiser_id = any($1) order by id', [ids])).rows;
      for (const row of appRows) apps.set(row.rec.id, row.rec);
    }
    const cursor = album.ad_mode === 'selected' && ids.length ? (await c.query<{ advertiser_id: string }>('select advertiser_id from print_cursors where album_id = $1', [album.id])).rows[0]?.advertiser_id : undefined;
    return {
      advertiser: (id) => advs.get(id),
      application: (id) => apps.get(id),
      allAdvertiserIds: () => all,
      creativeFor: (advertiserId, albumId) => bestCreative([...apps.values()].filter((a) => a.advertiser_id === advertiserId), albumId),
      cursor: () => cursor,
    };
  }

  /** The impression of a job_id (locked), its attempt and who holds it while composing. */
  private async rowIn(c: PgClient, jobId: string): Promise<{ imp: Impression; attempt: number; claimedBy: string | null } | undefined> {
    const row = (await c.query<{ rec: Impression; status: Impression['status']; attempt: number; claimed_by: string | null }>(
      `select rec, status, attempt, claimed_by from print_impressions where job_id = $1${this.forUpdate}`, [jobId],
    )).rows[0];
    return row && { imp: { ...row.rec, status: row.status }, attempt: row.attempt, claimedBy: row.claimed_by };
  }

  private async impressionIn(c: PgClient, jobId: string): Promise<Impression | undefined> {
    return (await this.rowIn(c, jobId))?.imp;
  }

  private async claim(c: PgClient, jobId: string, claim: string, now: number): Promise<void> {
    await c.query("update print_impressions set claimed_by = $2, lease_until = $3 where job_id = $1 and status = 'composing'", [jobId, claim, now + this.opts.leaseMs]);
  }

  private async settle(c: PgClient, imp: Impression): Promise<void> {
    await c.query('update print_impressions set status = $2, rec = $3, claimed_by = null, lease_until = null where job_id = $1', [imp.job_id, imp.status, JSON.stringify(imp)]);
  }

  // ---------------------------------------------------------------- after the composition

  async refund(jobId: string, reason: string, now: number, claim?: string): Promise<Impression | undefined> {
    return this.tx(async (c) => {
      if (!this.serializable) await c.query(jobLock, [lockKey(jobId)]);
      return this.refundIn(c, jobId, reason, now, claim);
    });
  }

  /** Refund a composing print (with `claim`: only while that claim holds it); one refund per attempt (unique). */
  private async refundIn(c: PgClient, jobId: string, reason: string, now: number, claim?: string): Promise<Impression | undefined> {
    const row = await this.rowIn(c, jobId);
    if (!row || row.imp.status !== 'composing' || (claim !== undefined && row.claimedBy !== claim)) return undefined;
    const { imp } = row;
    const s = settlement(imp);
    const adv = s.points ? await this.lockAdvertiser(c, imp.advertiser_id!) : undefined;
    if (adv) await this.writeEntry(c, adv, 'refund', s.points, refundReason(jobId, reason), now, { job_id: jobId, album_id: imp.album_id }, row.attempt);
    imp.status = s.status;
    await this.settle(c, imp);
    return imp;
  }

  /**
   * Stores the sheet of a print still composing (or printed again by a resend). A print another node refunded after
   * its lease ran out is not printed: undefined, and the late node must not answer it as charged. A print a resend
   * took over (still charged, composing under the other node's claim) is stored by whichever node finishes first.
   */
  async markPrinted(jobId: string, image: NonNullable<Impression['image']>): Promise<Impression | undefined> {
    return this.tx(async (c) => {
      const imp = await this.impressionIn(c, jobId);
      if (!imp || (imp.status !== 'composing' && imp.status !== 'printed')) return undefined;
      imp.status = 'printed';
      imp.image = image;
      await this.settle(c, imp);
      return imp;
    });
  }

  /** Refund the composing prints whose lease ran out (their node died or stopped mid-print), each exactly once
   * across the fleet: rows another node is recovering, or whose job_id is being printed, are skipped. */
  async recoverInterrupted(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { seen, done } = await this.pg.tx(async (c) => {
        const ids = (await c.query<{ job_id: string }>(
          "select job_id from print_impressions where status = 'composing' and lease_until < $1 order by lease_until limit $2 for update skip locked",
          [now, RECOVER_BATCH],
        )).rows.map((r) => r.job_id);
        let n = 0;
        for (const id of ids) {
          if (!(await c.query<{ ok: boolean }>(tryJobLock, [lockKey(id)])).rows[0]!.ok) continue;
          if (await this.refundIn(c, id, 'the node composing this sheet stopped before it was stored', now)) n++;
        }
        return { seen: ids.length, done: n };
      });
      total += done;
      if (seen < RECOVER_BATCH || done === 0) return total;
    }
  }

  // ---------------------------------------------------------------- impressions

  async impression(jobId: string): Promise<Impression | undefined> {
    const row = (await this.pg.query<{ rec: Impression; status: Impression['status'] }>('select rec, status from print_impressions where job_id = $1', [jobId])).rows[0];
    return row && { ...row.rec, status: row.status };
  }

  async queryImpressions(q: ImpressionQuery): Promise<{ items: Impression[]; next_cursor?: string }> {
    const where = ['at >= $1', 'at < $2'];
    const params: unknown[] = [q.from ?? 0, q.to ?? Number.MAX_SAFE_INTEGER];
    if (q.album_id) where.push(`album_id = $${params.push(q.album_id)}`);
    if (q.advertiser_id) where.push(`advertiser_id = $${params.push(q.advertiser_id)}`);
    const after = decodeCursor(q.cursor);
    if (after) where.push(`(at, job_id) > ($${params.push(after.at)}::bigint, $${params.push(after.job_id)}::text)`);
    const sql = `select rec, status from print_impressions where ${where.join(' and ')} order by at, job_id limit $${params.push(q.limit + 1)}`;
    const rows = (await this.pg.query<{ rec: Impression; status: Impression['status'] }>(sql, params)).rows;
    const items = rows.slice(0, q.limit).map((r) => ({ ...r.rec, status: r.status }));
    return { items, next_cursor: rows.length > q.limit ? encodeCursor(items[items.length - 1]!) : undefined };
  }
}
