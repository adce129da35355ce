// The completion-callback outbox in PostgreSQL (shared mode; table from migrations/0050-callbacks.ts). Any node
// claims due rows with SELECT … FOR UPDATE SKIP LOCKED and a lease, so two nodes never attempt the same
// callback at once, and a row claimed by a node that died is taken again once its lease has run out.
import { installationRead, installationValue } from '../shared/installation.js';
import type { Pg } from '../shared/pg.js';
import { emptyCounts, type Armed, type CallbackRecord, type CallbackRepository, type CallbackState, type Outcome } from './callback-repo.js';

interface Row {
  id: string;
  job_id: string;
  url: string;
  type: string;
  state: CallbackState;
  sealed_meta: Buffer | null;
  body: string | null;
  created_at: number;
  armed_at: number | null;
  give_up_at: number | null;
  next_at: number | null;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  done_at: number | null;
  claimed_by: string | null;
  lease_until: number | null;
}

function fromRow(r: Row): CallbackRecord {
  const rec: CallbackRecord = { id: r.id, jobId: r.job_id, url: r.url, type: r.type, state: r.state, createdAt: r.created_at, attempts: r.attempts };
  if (r.sealed_meta !== null) rec.sealedMeta = r.sealed_meta;
  if (r.body !== null) rec.body = r.body;
  if (r.armed_at !== null) rec.armedAt = r.armed_at;
  if (r.give_up_at !== null) rec.giveUpAt = r.give_up_at;
  if (r.next_at !== null) rec.nextAt = r.next_at;
  if (r.last_status !== null) rec.lastStatus = r.last_status;
  if (r.last_error !== null) rec.lastError = r.last_error;
  if (r.done_at !== null) rec.doneAt = r.done_at;
  if (r.claimed_by !== null) rec.claimedBy = r.claimed_by;
  if (r.lease_until !== null) rec.leaseUntil = r.lease_until;
  return rec;
}

const SECRET = 'webhook-secret';

export class PgCallbackRepository implements CallbackRepository {
  constructor(private readonly pg: Pg) {}

  // The secret sits in the installation table in clear, as the fleet's other installation secrets do: every node
  // must read it, so sealing it with a node's key would not do; access to the database is what guards it.
  async loadSecret(): Promise<string | undefined> {
    return (await installationRead(this.pg, SECRET))?.toString('utf8');
  }

  async saveSecret(secret: string): Promise<string> {
    return (await installationValue(this.pg, SECRET, () => Buffer.from(secret, 'utf8'))).toString('utf8');
  }

  async insert(rec: CallbackRecord): Promise<void> {
    await this.pg.query(
      `insert into callbacks (id, job_id, url, type, state, sealed_meta, created_at, attempts) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [rec.id, rec.jobId, rec.url, rec.type, rec.state, rec.sealedMeta ? Buffer.from(rec.sealedMeta) : null, rec.createdAt, rec.attempts],
    );
  }

  async get(id: string): Promise<CallbackRecord | undefined> {
    const r = await this.pg.query<Row>('select * from callbacks where id = $1', [id]);
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async forJob(jobId: string): Promise<CallbackRecord | undefined> {
    const r = await this.pg.query<Row>('select * from callbacks where job_id = $1 order by created_at desc, id desc limit 1', [jobId]);
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async waiting(limit: number): Promise<CallbackRecord[]> {
    const r = await this.pg.query<Row>(`select * from callbacks where state = 'waiting' order by created_at limit $1`, [limit]);
    return r.rows.map(fromRow);
  }

  async arm(id: string, a: Armed): Promise<boolean> {
    const r = await this.pg.query(
      `update callbacks set state = 'pending', body = $2, armed_at = $3, give_up_at = $4, next_at = $5, sealed_meta = null
       where id = $1 and state = 'waiting'`,
      [id, a.body, a.armedAt, a.giveUpAt, a.nextAt],
    );
    return r.rowCount === 1;
  }

  async claimDue(now: number, node: string, leaseUntil: number, limit: number): Promise<CallbackRecord[]> {
    const r = await this.pg.query<Row>(
      `with due as (
         select id from callbacks
         where state = 'pending' and next_at <= $1 and (lease_until is null or lease_until <= $1)
         order by next_at limit $4
         for update skip locked)
       update callbacks c set claimed_by = $2, lease_until = $3 from due where c.id = due.id returning c.*`,
      [now, node, leaseUntil, limit],
    );
    return r.rows.map(fromRow).sort((a, b) => (a.nextAt ?? 0) - (b.nextAt ?? 0));
  }

  async settle(id: string, node: string, o: Outcome): Promise<CallbackRecord | undefined> {
    const r = await this.pg.query<Row>(
      `update callbacks set state = $3, attempts = $4, last_status = $5, last_error = $6, next_at = $7, done_at = $8,
         body = case when $9 then null else body end, claimed_by = null, lease_until = null
       where id = $1 and claimed_by = $2 and state = 'pending' returning *`,
      [id, node, o.state, o.attempts, o.lastStatus ?? null, o.lastError ?? null, o.nextAt ?? null, o.doneAt ?? null, o.dropBody],
    );
    return r.rows[0] && fromRow(r.rows[0]);
  }

  async releaseClaims(node: string): Promise<number> {
    const r = await this.pg.query(`update callbacks set claimed_by = null, lease_until = null where claimed_by = $1 and state = 'pending'`, [node]);
    return r.rowCount ?? 0;
  }

  async purge(before: number): Promise<number> {
    const r = await this.pg.query(`delete from callbacks where state in ('delivered', 'failed') and done_at <= $1`, [before]);
    return r.rowCount ?? 0;
  }

  async counts(): Promise<Record<CallbackState, number>> {
    const r = await this.pg.query<{ state: CallbackState; n: number }>('select state, count(*)::int as n from callbacks group by state');
    const out = emptyCounts();
    for (const row of r.rows) out[row.state] = row.n;
    return out;
  }
}
