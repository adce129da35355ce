// The PostgreSQL side of shared mode: one pool per node, transactions with retry of serialization failures,
// and run-time connection loss turned into 503 SERVICE_BUSY (see errors.ts).
import pg from 'pg';
import { engineBusy, engineDown, EngineUnavailable } from './errors.js';

// int8 (counts, epoch ms) as numbers: every value we store fits in 2^53
pg.types.setTypeParser(20, (v) => Number(v));

export type Isolation = 'read committed' | 'repeatable read' | 'serializable';
export type PgClient = pg.PoolClient;

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

export class Pg {
  readonly pool: pg.Pool;

  constructor(readonly url: string, opts: { max?: number; connectMs?: number } = {}) {
    this.pool = new pg.Pool({ connectionString: url, max: opts.max ?? 16, connectionTimeoutMillis: opts.connectMs ?? 5000, idleTimeoutMillis: 30_000 });
    // an idle client losing its connection must not crash the process; the pool replaces it
    this.pool.on('error', () => undefined);
    // nor a checked-out one (a transaction, an advisory-lock holder): pg emits 'error' on the client itself when its
    // connection ends between two queries, and an 'error' event without a listener kills the process. The loss still
    // rejects the client's next query (then mapped to 503), and the client is released as broken.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** Open the pool and prove the server answers within connectMs, else EngineUnavailable (never a hang). */
  static async connect(url: string, connectMs: number, max?: number): Promise<Pg> {
    const db = new Pg(url, { max, connectMs });
    try {
      await withTimeout(db.pool.query('select 1'), connectMs, `no answer within ${connectMs} ms`);
    } catch (e) {
      await db.pool.end().catch(() => undefined);
      throw new EngineUnavailable('PostgreSQL', `${(e as Error).message} (SEJONG_DATABASE_URL ${redact(url)})`);
    }
    return db;
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, params);
    } catch (e) {
      throw mapped(e);
    }
  }

  /** fn in one transaction; serialization failures and deadlocks are retried (up to `retries` times). */
  async tx<T>(fn: (c: PgClient) => Promise<T>, opts: { isolation?: Isolation; retries?: number } = {}): Promise<T> {
    const retries = opts.retries ?? 8;
    for (let attempt = 0; ; attempt++) {
      let c: PgClient;
      try {
        c = await this.pool.connect();
      } catch (e) {
        throw mapped(e);
      }
      try {
        await c.query(opts.isolation ? `begin isolation level ${opts.isolation}` : 'begin');
        const out = await fn(c);
        await c.query('commit');
        c.release();
        return out;
      } catch (e) {
        await c.query('rollback').catch(() => undefined);
        c.release(engineDown(e) ? (e as Error) : undefined);
        const code = (e as { code?: string }).code;
        if (code && RETRYABLE.has(code) && attempt < retries) {
          await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
          continue;
        }
        throw mapped(e);
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

function mapped(e: unknown): unknown {
  return engineDown(e) ? engineBusy('PostgreSQL') : e;
}

/** The URL with its password hidden, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(what)), ms)))]).finally(() => clearTimeout(t));
}
