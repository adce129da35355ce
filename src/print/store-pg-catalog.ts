// The print catalog in PostgreSQL (shared mode): albums, advertisers with their exact points ledger, ad applications
// and creatives (bytea). Records are the jsonb of ./types.ts; the advertiser's balance is also a real column (never
// below zero: a check constraint) written with every ledger entry in the same transaction. A change takes the row
// lock (SELECT … FOR UPDATE). The rules are ./records.ts, shared with the LMDB store. Tables: migration 0040-print.
import type { Pg, PgClient } from '../shared/pg.js';
import { byCreation, decideVersion, ledgerEntry, newAdvertiser, newAlbum, newApplication, patchAdvertiser, patchAlbum, pushVersion, topUpKind } from './records.js';
import type { AlbumInput, AlbumPatch, CreativeInput, TopUpResult } from './repo.js';
import type { Advertiser, Album, Application, CreativeVersion, LedgerEntry, LedgerKind } from './types.js';

const json = (v: unknown): string => JSON.stringify(v);
export const advertiserOf = (row: { balance: number; rec: Advertiser }): Advertiser => ({ ...row.rec, balance: Number(row.balance) });

export class PgPrintCatalog {
  constructor(protected readonly pg: Pg) {}

  // ---------------------------------------------------------------- albums

  /** One read, inside the transaction c when given. */
  protected async read<R extends object>(c: PgClient | undefined, text: string, params: unknown[]): Promise<R | undefined> {
    return (c ? await c.query<R & object>(text, params) : await this.pg.query<R & object>(text, params)).rows[0];
  }

  async album(id: string, c?: PgClient): Promise<Album | undefined> {
    return (await this.read<{ rec: Album }>(c, 'select rec from print_albums where id = $1', [id]))?.rec;
  }

  async createAlbum(a: AlbumInput, now: number): Promise<Album | 'exists'> {
    const album = newAlbum(a, now);
    const r = await this.pg.query('insert into print_albums (id, rec, created_at) values ($1, $2, $3) on conflict (id) do nothing', [album.id, json(album), now]);
    return r.rowCount ? album : 'exists';
  }

  async updateAlbum(id: string, patch: AlbumPatch, now: number): Promise<Album | undefined> {
    return this.pg.tx(async (c) => {
      const a = (await c.query<{ rec: Album }>('select rec from print_albums where id = $1 for update', [id])).rows[0]?.rec;
      if (!a) return undefined;
      const out = patchAlbum(a, patch, now);
      await c.query('update print_albums set rec = $2 where id = $1', [id, json(out)]);
      return out;
    });
  }

  async listAlbums(): Promise<Album[]> {
    return (await this.pg.query<{ rec: Album }>('select rec from print_albums order by id')).rows.map((r) => r.rec);
  }

  // ---------------------------------------------------------------- advertisers and ledger

  async advertiser(id: string): Promise<Advertiser | undefined> {
    const row = (await this.pg.query<{ balance: number; rec: Advertiser }>('select balance, rec from print_advertisers where id = $1', [id])).rows[0];
    return row && advertiserOf(row);
  }

  /** Inside a transaction: the advertiser row, locked. */
  protected async lockAdvertiser(c: PgClient, id: string): Promise<Advertiser | undefined> {
    const row = (await c.query<{ balance: number; rec: Advertiser }>('select balance, rec from print_advertisers where id = $1 for update', [id])).rows[0];
    return row && advertiserOf(row);
  }

  async createAdvertiser(a: { name: string; unit_points: number; active?: boolean; initial_points?: number; reason?: string }, now: number): Promise<Advertiser> {
    const adv = newAdvertiser(a, now);
    return this.pg.tx(async (c) => {
      await c.query('insert into print_advertisers (id, balance, rec, created_at) values ($1, 0, $2, $3)', [adv.id, json(adv), now]);
      if (a.initial_points) await this.writeEntry(c, adv, 'top_up', a.initial_points, a.reason ?? 'initial points', now, {});
      return adv;
    });
  }

  async updateAdvertiser(id: string, patch: { name?: string; unit_points?: number; active?: boolean }, now: number): Promise<Advertiser | undefined> {
    return this.pg.tx(async (c) => {
      const a = await this.lockAdvertiser(c, id);
      if (!a) return undefined;
      const out = patchAdvertiser(a, patch, now);
      await c.query('update print_advertisers set rec = $2 where id = $1', [id, json(out)]);
      return out;
    });
  }

  async listAdvertisers(): Promise<Advertiser[]> {
    const rows = (await this.pg.query<{ balance: number; rec: Advertiser }>('select balance, rec from print_advertisers')).rows;
    return rows.map(advertiserOf).sort(byCreation);
  }

  /**
   * Inside a transaction holding the advertiser's row lock: one ledger entry and the new balance. A print's entry
   * (ref.job_id) carries its attempt: the unique index (job_id, kind, attempt) of migration 0090 refuses a second
   * charge (or refund) of the same print attempt with 23505, and the transaction rolls back whole.
   */
  protected async writeEntry(c: PgClient, adv: Advertiser, kind: LedgerKind, delta: number, reason: string, at: number, ref: { job_id?: string; album_id?: string }, attempt?: number): Promise<LedgerEntry> {
    const e = ledgerEntry(adv, kind, delta, reason, at, ref);
    await c.query('update print_advertisers set balance = $2, rec = $3 where id = $1', [adv.id, adv.balance, json(adv)]);
    await c.query(
      'insert into print_ledger (advertiser_id, seq, delta, rec, job_id, kind, attempt) values ($1, $2, $3, $4, $5, $6, $7)',
      [adv.id, e.seq, e.delta, json(e), ref.job_id ?? null, kind, ref.job_id ? (attempt ?? 1) : null],
    );
    return e;
  }

  async topUp(id: string, points: number, reason: string, now: number): Promise<TopUpResult> {
    return this.pg.tx(async (c): Promise<TopUpResult> => {
      const a = await this.lockAdvertiser(c, id);
      if (!a) return 'not_found';
      const kind = topUpKind(a, points);
      if (kind === 'negative') return kind;
      const entry = await this.writeEntry(c, a, kind, points, reason, now, {});
      return { advertiser: a, entry };
    });
  }

  async ledgerOf(id: string, opts: { limit?: number; after?: number } = {}): Promise<LedgerEntry[]> {
    const r = await this.pg.query<{ rec: LedgerEntry }>('select rec from print_ledger where advertiser_id = $1 and seq > $2 order by seq limit $3', [id, opts.after ?? 0, opts.limit || null]);
    return r.rows.map((row) => row.rec);
  }

  async ledgerSum(id: string): Promise<{ sum: number; entries: number }> {
    const r = await this.pg.query<{ sum: number; entries: number }>('select coalesce(sum(delta), 0)::bigint as sum, count(*)::int as entries from print_ledger where advertiser_id = $1', [id]);
    return { sum: Number(r.rows[0]!.sum), entries: r.rows[0]!.entries };
  }

  // ---------------------------------------------------------------- applications and creatives

  async application(id: string, c?: PgClient): Promise<Application | undefined> {
    return (await this.read<{ rec: Application }>(c, 'select rec from print_applications where id = $1', [id]))?.rec;
  }

  async createApplication(a: { advertiser_id: string; title: string; album_ids: string[] }, creative: CreativeInput, now: number): Promise<Application | 'advertiser_not_found'> {
    const app = newApplication(a, now);
    return this.pg.tx(async (c): Promise<Application | 'advertiser_not_found'> => {
      if (!(await c.query('select 1 from print_advertisers where id = $1 for share', [a.advertiser_id])).rowCount) return 'advertiser_not_found';
      const v = pushVersion(app, creative, now);
      await c.query('insert into print_applications (id, advertiser_id, rec) values ($1, $2, $3)', [app.id, app.advertiser_id, json(app)]);
      await c.query('insert into print_creatives (application_id, version, bytes) values ($1, $2, $3)', [app.id, v.version, creative.bytes]);
      return app;
    });
  }

  async addVersion(appId: string, cr: CreativeInput, now: number): Promise<{ app: Application; version: CreativeVersion } | undefined> {
    return this.pg.tx(async (c) => {
      const app = (await c.query<{ rec: Application }>('select rec from print_applications where id = $1 for update', [appId])).rows[0]?.rec;
      if (!app) return undefined;
      const version = pushVersion(app, cr, now);
      await c.query('insert into print_creatives (application_id, version, bytes) values ($1, $2, $3)', [app.id, version.version, cr.bytes]);
      await c.query('update print_applications set rec = $2 where id = $1', [app.id, json(app)]);
      return { app, version };
    });
  }

  async decide(appId: string, version: number, status: 'approved' | 'rejected', reason: string | undefined, now: number): Promise<Application | 'not_found' | 'no_version'> {
    return this.pg.tx(async (c): Promise<Application | 'not_found' | 'no_version'> => {
      const app = (await c.query<{ rec: Application }>('select rec from print_applications where id = $1 for update', [appId])).rows[0]?.rec;
      if (!app) return 'not_found';
      const out = decideVersion(app, version, status, reason, now);
      if (out !== 'no_version') await c.query('update print_applications set rec = $2 where id = $1', [appId, json(out)]);
      return out;
    });
  }

  async listApplications(advertiserId?: string): Promise<Application[]> {
    const r = advertiserId
      ? await this.pg.query<{ rec: Application }>('select rec from print_applications where advertiser_id = $1 order by id', [advertiserId])
      : await this.pg.query<{ rec: Application }>('select rec from print_applications order by id');
    return r.rows.map((row) => row.rec);
  }

  async creative(appId: string, version: number): Promise<Buffer | undefined> {
    const b = (await this.pg.query<{ bytes: Buffer }>('select bytes from print_creatives where application_id = $1 and version = $2', [appId, version])).rows[0]?.bytes;
    return b && Buffer.from(b);
  }
}
