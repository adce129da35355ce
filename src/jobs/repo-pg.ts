// Job records in PostgreSQL (shared mode, every node of a fleet on one database). A change takes the row lock
// (SELECT … FOR UPDATE) so that a completion and a failure racing on two nodes cannot both win; the sweeper claims
// due rows with FOR UPDATE SKIP LOCKED, so two nodes sweeping at once never process the same row.
import { pack, unpack } from 'msgpackr';
import type { Pg, PgClient } from '../shared/pg.js';
import type { JobRecord } from './record.js';
import type { JobRepo, SweepAction } from './repo.js';

const encode = (j: JobRecord): Buffer => pack(j);
const decode = (b: Buffer): JobRecord => unpack(b) as JobRecord;
/** the sweeper's next look at a record: when it expires (finished), never while processing */
const sweepAtOf = (j: JobRecord): number | null => (j.status !== 'processing' && j.expiresAt !== undefined ? j.expiresAt : null);

export class PgJobRepo implements JobRepo {
  constructor(private readonly pg: Pg) {}

  async insert(j: JobRecord): Promise<void> {
    await this.pg.query(
      'insert into jobs (id, family, owner, access_key_hash, status, created_at, updated_at, sweep_at, record) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [j.id, j.family, j.owner ?? null, j.accessKeyHash, j.status, j.createdAt, j.updatedAt, sweepAtOf(j), encode(j)],
    );
  }

  async get(id: string): Promise<JobRecord | undefined> {
    const r = await this.pg.query<{ record: Buffer }>('select record from jobs where id = $1', [id]);
    return r.rows[0] && decode(r.rows[0].record);
  }

  async getByAccessKeyHash(hash: string): Promise<JobRecord | undefined> {
    const r = await this.pg.query<{ record: Buffer }>('select record from jobs where access_key_hash = $1', [hash]);
    return r.rows[0] && decode(r.rows[0].record);
  }

  async mutate(id: string, fn: (job: JobRecord) => JobRecord | undefined): Promise<{ job?: JobRecord; changed: boolean }> {
    return this.pg.tx(async (c) => {
      const r = await c.query<{ record: Buffer }>('select record from jobs where id = $1 for update', [id]);
      if (!r.rows[0]) return { changed: false };
      const cur = decode(r.rows[0].record);
      const next = fn(decode(r.rows[0].record));
      if (!next) return { job: cur, changed: false };
      await write(c, next, sweepAtOf(next));
      return { job: next, changed: true };
    });
  }

  async pageByOwner(owner: string, after: { createdAt: number; id: string } | undefined, limit: number): Promise<JobRecord[]> {
    const r = after
      ? await this.pg.query<{ record: Buffer }>(
          'select record from jobs where owner = $1 and (created_at, id) < ($2, $3) order by created_at desc, id desc limit $4',
          [owner, after.createdAt, after.id, limit],
        )
      : await this.pg.query<{ record: Buffer }>('select record from jobs where owner = $1 order by created_at desc, id desc limit $2', [owner, limit]);
    return r.rows.map((row) => decode(row.record));
  }

  async processingByFamily(): Promise<Record<string, number>> {
    const r = await this.pg.query<{ family: string; n: number }>("select family, count(*)::int as n from jobs where status = 'processing' group by family");
    return Object.fromEntries(r.rows.map((row) => [row.family, row.n]));
  }

  async processingIds(updatedBefore?: number): Promise<string[]> {
    const r = await this.pg.query<{ id: string }>(
      "select id from jobs where status = 'processing' and updated_at < $1 order by updated_at",
      [updatedBefore ?? Number.MAX_SAFE_INTEGER],
    );
    return r.rows.map((row) => row.id);
  }

  async sweepDue(now: number, limit: number, step: (job: JobRecord) => Promise<SweepAction>): Promise<number> {
    return this.pg.tx(async (c) => {
      const r = await c.query<{ record: Buffer }>(
        'select record from jobs where sweep_at <= $1 order by sweep_at limit $2 for update skip locked',
        [now, limit],
      );
      for (const row of r.rows) {
        const j = decode(row.record);
        const a = await step(j);
        if (a === 'forget') await c.query('delete from jobs where id = $1', [j.id]);
        else await write(c, a.tombstone, a.sweepAt);
      }
      return r.rows.length;
    });
  }
}

async function write(c: PgClient, j: JobRecord, sweepAt: number | null): Promise<void> {
  await c.query('update jobs set status = $2, updated_at = $3, sweep_at = $4, record = $5 where id = $1', [j.id, j.status, j.updatedAt, sweepAt, encode(j)]);
}
