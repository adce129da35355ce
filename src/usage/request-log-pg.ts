// Shared mode: the request log in PostgreSQL, so GET /api/v1/logs on any node shows the requests every node served.
// add() only buffers (no round trip on the request path; entries written as bytes, entry-slab.ts, so the GC never
// copies them); the buffer is written every 250 ms (or at 1,000 entries: the rows are serialised as JSON on the
// request thread at flush, so a batch stays small enough not to pause it)
// as one multi-row INSERT, and at stop/drain. A node killed outright loses at most its last 250 ms of log lines —
// the log is a diagnostic record, not a ledger (spend and the print ledger are written at once). Pages are keyset
// (time, id) descending; the cursor is `time.id.0` (three integers, the form the route checks).
import type { Pg } from '../shared/pg.js';
import type { RequestLogEntry, RequestLogStore } from './request-log.js';
import { EntrySlab } from './entry-slab.js';

const MAX_PENDING = 1000;
/** entries serialised per event-loop turn at a flush */
const CHUNK = 100;
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

export class PgRequestLog implements RequestLogStore {
  private pending = new Map<string, EntrySlab>();
  private pendingCount = 0;
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  constructor(private readonly pg: Pg, private readonly retentionMs: number, private readonly onError?: (e: Error) => void) {}

  add(keyId: string, e: RequestLogEntry): void {
    let slab = this.pending.get(keyId);
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
    const slabs = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    // writes stay in order (a list after a flush sees everything added before it)
    const w = this.writing.then(() => (slabs.size ? this.insert(slabs) : undefined));
    this.writing = w.catch(() => undefined);
    await w;
  }

  /**
   * One INSERT of the batch. The rows go as one JSON text (`[[key, time, entry], …]`, unpacked by PostgreSQL), not as
   * three parameter arrays: pg writes an array parameter as an array literal, quoting and escaping every element
   * again (about as much CPU as the JSON itself). The JSON is made CHUNK entries per event-loop turn: a batch of
   * 1,000 cost 2.5–4.7 ms of the request thread in one piece (bench/request-log-flush.mjs), a pause every ~40 ms at
   * 26k keyed requests/s that every request in flight waited for (the shared-mode poll's tail).
   * Each row's text goes into a byte buffer as it is made, sent as bytea (pg sends a Buffer as it is) and read as
   * UTF-8 JSON by PostgreSQL: the batch as decoded entries and row strings lived through the flush's turns and its
   * round trip, so every scavenge in between copied them (front22: in shared mode the request log was 1.5 KB of a
   * poll's 3.8 KB allocated and ~210 of the ~240 KB each scavenge copied).
   */
  private async insert(slabs: Map<string, EntrySlab>): Promise<void> {
    const json = new Utf8Text();
    let n = 0;
    for (const [keyId, slab] of slabs) {
      const key = JSON.stringify(keyId);
      for (const e of EntrySlab.entries(slab.bytes())) {
        if (n > 0 && n % CHUNK === 0) await nextTurn();
        json.add(`${n === 0 ? '[' : ','}[${key},${JSON.stringify(e.time)},${JSON.stringify(e)}]`);
        n++;
      }
    }
    if (n === 0) return;
    json.add(']');
    await this.pg.query("insert into request_log (key_id, time, entry) select r->>0, (r->>1)::bigint, r->2 from jsonb_array_elements(convert_from($1::bytea, 'UTF8')::jsonb) with ordinality as x(r, n) order by n", [json.bytes()]);
  }

  async list(keyId: string, limit: number, cursor?: string, since = -1): Promise<{ entries: RequestLogEntry[]; next?: string }> {
    await this.flush();
    const [t, id] = cursor ? cursor.split('.').map(Number) : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    const r = await this.pg.query<{ id: string; time: string; entry: RequestLogEntry }>(
      'select id, time, entry from request_log where key_id = $1 and time >= $2 and (time, id) < ($3, $4) order by time desc, id desc limit $5',
      [keyId, since, t, id, limit + 1],
    );
    const page = r.rows.slice(0, limit);
    const last = page[page.length - 1];
    return { entries: page.map((x) => x.entry), next: r.rows.length > limit && last ? `${last.time}.${last.id}.0` : undefined };
  }

  async prune(now: number): Promise<number> {
    const r = await this.pg.query('delete from request_log where time < $1', [now - this.retentionMs]);
    return r.rowCount ?? 0;
  }
}

/** Text written as UTF-8 into one growing buffer (outside the JavaScript heap: the GC never copies it). */
class Utf8Text {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private len = 0;

  add(s: string): void {
    if (this.len + 3 * s.length > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.len + 3 * s.length));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.len += this.buf.write(s, this.len, 'utf8');
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}
