// Recent requests per key (time, method, path, status, ms) for GET /api/v1/logs; kept N days.
// Entries are buffered and written in one transaction every 250 ms (and before any listing and on shutdown).
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';

export interface RequestLogEntry {
  time: number;
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string;
  code?: string;
}

export class RequestLog {
  private readonly db: Database<RequestLogEntry, [string, number, string]>;
  private pending: Array<[[string, number, string], RequestLogEntry]> = [];
  private timer?: NodeJS.Timeout;
  constructor(private readonly store: Store, private readonly retentionMs: number) {
    this.db = store.db<RequestLogEntry, [string, number, string]>('request-log');
  }

  add(keyId: string, e: RequestLogEntry): void {
    this.pending.push([[keyId, e.time, e.requestId], e]);
    if (this.pending.length >= 5000) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 250);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    await this.store.transaction(() => {
      for (const [k, v] of batch) this.db.put(k, v);
    });
  }

  /** newest first; cursor = time|requestId of the last entry returned. Waits for pending log writes first. */
  async list(keyId: string, limit: number, cursor?: { time: number; id: string }, since?: number): Promise<{ entries: RequestLogEntry[]; next?: { time: number; id: string } }> {
    await this.flush();
    const out: RequestLogEntry[] = [];
    const start: [string, number, string] = cursor ? [keyId, cursor.time, cursor.id] : [keyId, Number.MAX_SAFE_INTEGER, '\uffff'];
    let next: { time: number; id: string } | undefined;
    for (const { key, value } of this.db.getRange({ start, end: [keyId, since ?? -1, ''], reverse: true, exclusiveStart: Boolean(cursor) } as never)) {
      if ((key as unknown as [string])[0] !== keyId) break;
      if (out.length === limit) {
        const last = out[out.length - 1]!;
        next = { time: last.time, id: last.requestId };
        break;
      }
      out.push(value as RequestLogEntry);
    }
    return { entries: out, next };
  }

  async prune(now: number): Promise<number> {
    let n = 0;
    for (const { key, value } of this.db.getRange()) {
      if ((value as RequestLogEntry).time < now - this.retentionMs) {
        await this.db.remove(key as [string, number, string]);
        n++;
      }
    }
    return n;
  }
}
