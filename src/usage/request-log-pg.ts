// Shared mode: the request log in PostgreSQL, so GET /api/v1/logs on any node shows the requests every node served.
// add() only buffers (no round trip on the request path; entries written as bytes, entry-slab.ts, so the GC never
// copies them); the buffer is written every 250 ms (or at 1,000 entries) and at stop/drain as one row per key and
// flush (migration 0100, `request_log_batch`): the key's entries as the slab they were written into, sent as they
// are. One jsonb row per request (migration 0060) cost PostgreSQL 12–15 µs of CPU per request and the node a JSON
// text per entry; a row per key and flush costs PostgreSQL ~1 µs per entry and the node one copy of the bytes
// (front24, bench/RESULTS.md). A flush that fails keeps its batches for the next (up to MAX_KEPT entries); a node
// killed outright loses at most its last 250 ms of log lines — the log is a diagnostic record, not a ledger (spend
// and the print ledger are written at once). Pages: request-log-pg-pages.ts.
import type { Pg } from '../shared/pg.js';
import type { RequestLogEntry, RequestLogStore } from './request-log.js';
import { EntrySlab } from './entry-slab.js';
import { pageOf, SPAN_MS } from './request-log-pg-pages.js';

const MAX_PENDING = 1000;
/** entries kept across failed flushes (PostgreSQL down); past it the oldest batches are dropped, with a warning */
const MAX_KEPT = 100_000;

type Batch = [keyId: string, slab: EntrySlab];

export class PgRequestLog implements RequestLogStore {
  private pending = new Map<string, EntrySlab>();
  /** batches closed before their flush (a key's span reached SPAN_MS) and batches of failed flushes, oldest first */
  private waiting: Batch[] = [];
  private pendingCount = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  constructor(private readonly pg: Pg, private readonly retentionMs: number, private readonly onError?: (e: Error) => void) {}

  add(keyId: string, e: RequestLogEntry): void {
    let slab = this.pending.get(keyId);
    if (slab && (e.time > slab.minTime + SPAN_MS || e.time < slab.maxTime - SPAN_MS)) {
      this.waiting.push([keyId, slab]); // a batch spans at most SPAN_MS (the reader's bound)
      slab = undefined;
    }
    if (!slab) this.pending.set(keyId, (slab = new EntrySlab()));
    slab.push(e);
    if (++this.pendingCount >= MAX_PENDING) void this.flush().catch((err: Error) => this.onError?.(err));
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err: Error) => this.onError?.(err)), 250);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // writes stay in order (a list after a flush sees everything added before it); batches a failed write kept
    // are in `waiting`, taken by the next flush (its own, a second later, or one that comes sooner)
    const batches = this.take();
    const w = this.writing.then(() => this.insert(batches));
    this.writing = w.catch(() => undefined);
    await w;
  }

  private take(): Batch[] {
    const batches = this.waiting;
    for (const b of this.pending) batches.push(b);
    this.waiting = [];
    this.pending = new Map();
    this.pendingCount = 0;
    return batches;
  }

  /**
   * One INSERT of the batches: their slabs back to back in one bytea parameter (pg sends a Buffer as it is; a bytea[]
   * parameter would go as hex text) cut by PostgreSQL at the offsets given.
   */
  private async insert(batches: Batch[]): Promise<void> {
    if (batches.length === 0) return;
    const bytes = batches.map(([, slab]) => slab.bytes());
    const offsets: number[] = [];
    let at = 1; // substring() counts from 1
    for (const b of bytes) {
      offsets.push(at);
      at += b.length;
    }
    try {
      await this.pg.query(
        'insert into request_log_batch (key_id, first_time, last_time, entries) select k, f, l, substring($4::bytea from o for n) from unnest($1::text[], $2::bigint[], $3::bigint[], $5::int[], $6::int[]) as x(k, f, l, o, n)',
        [batches.map((b) => b[0]), batches.map((b) => b[1].minTime), batches.map((b) => b[1].maxTime), Buffer.concat(bytes), offsets, bytes.map((b) => b.length)],
      );
    } catch (e) {
      this.keep(batches);
      throw e;
    }
  }

  /** Batches of a failed write go before those waiting; past MAX_KEPT entries the oldest are dropped. */
  private keep(batches: Batch[]): void {
    this.waiting = batches.concat(this.waiting);
    let kept = this.waiting.reduce((n, [, s]) => n + s.count, 0);
    let dropped = 0;
    while (kept > MAX_KEPT && this.waiting.length > 1) {
      const n = this.waiting.shift()![1].count;
      kept -= n;
      dropped += n;
    }
    if (dropped > 0) this.onError?.(new Error(`${dropped} request-log entries dropped: PostgreSQL refused the writes and ${MAX_KEPT} are kept at most`));
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch((err: Error) => this.onError?.(err)), 1000);
      this.timer.unref();
    }
  }

  async list(keyId: string, limit: number, cursor?: string, since = -1): Promise<{ entries: RequestLogEntry[]; next?: string }> {
    await this.flush();
    return pageOf(this.pg, keyId, limit, cursor, since);
  }

  /** Batches whose newest entry is past retention (a page leaves out older entries of a newer batch), and rows of the table before 0100. */
  async prune(now: number): Promise<number> {
    const cutoff = now - this.retentionMs;
    const batches = await this.pg.query('delete from request_log_batch where last_time < $1', [cutoff]);
    const rows = await this.pg.query('delete from request_log where time < $1', [cutoff]);
    return (batches.rowCount ?? 0) + (rows.rowCount ?? 0);
  }
}
