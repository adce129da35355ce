// Recent requests per key (time, method, path, status, ms) for GET /api/v1/logs; kept N days.
// Entries are buffered (as bytes, entry-slab.ts) and written every 250 ms (or every 2,000 entries) as one LMDB record
// per key (a batch), so a busy server pays one B-tree insert per key and flush instead of one per request. Listing
// flushes first.
import type { Database } from 'lmdb';
import { Packr } from 'msgpackr';
import type { Store } from '../store/env.js';
import { EntrySlab } from './entry-slab.js';
import type { RequestLogEntry } from './request-log-entry.js';

export type { RequestLogEntry };

/**
 * Where requests are logged: LMDB batches (this file, embedded) or PostgreSQL (request-log-pg.ts, shared mode: a log
 * read on any node shows every node's requests once flushed). Both buffer add() in memory and write every 250 ms.
 */
export interface RequestLogStore {
  add(keyId: string, e: RequestLogEntry): void;
  /** write what is buffered (also at stop/drain) */
  flush(): Promise<void>;
  /** newest first; cursor is the opaque `next` of the previous page, three dot-separated integers */
  list(keyId: string, limit: number, cursor?: string, since?: number): Promise<{ entries: RequestLogEntry[]; next?: string }>;
  prune(now: number): Promise<number>;
}

/** entries buffered before a flush regardless of the timer: few enough commits for the write thread */
const FLUSH_ENTRIES = 2000;

/**
 * A batch is stored as the slab its entries were written into (entry-slab.ts). Batches stored by earlier versions
 * are read as they are: msgpack bytes packed with record shapes inline, and before that plain arrays.
 */
const olderBatches = new Packr({ useRecords: true });

/** A stored batch's entries, oldest first, whichever version wrote it. */
function entriesOf(value: Uint8Array | RequestLogEntry[]): RequestLogEntry[] {
  if (Array.isArray(value)) return value;
  return EntrySlab.isSlab(value) ? EntrySlab.decode(value) : (olderBatches.unpack(value) as RequestLogEntry[]);
}

/** [keyId, time of the batch's last entry, flush sequence] */
type BatchKey = [string, number, number];

export class RequestLog implements RequestLogStore {
  private readonly db: Database<Uint8Array | RequestLogEntry[], BatchKey>;
  private pending = new Map<string, EntrySlab>();
  private pendingCount = 0;
  private seq = 0;
  private timer?: NodeJS.Timeout;
  /** the last flush's write, in order: a list waits for it even when nothing is pending */
  private writing: Promise<void> = Promise.resolve();
  constructor(private readonly store: Store, private readonly retentionMs: number) {
    this.db = store.db<Uint8Array | RequestLogEntry[], BatchKey>('request-log-batches');
  }

  add(keyId: string, e: RequestLogEntry): void {
    let slab = this.pending.get(keyId);
    if (!slab) this.pending.set(keyId, (slab = new EntrySlab()));
    slab.push(e);
    if (++this.pendingCount >= FLUSH_ENTRIES) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 250);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingCount === 0) return this.writing; // a list right after a timer's flush sees what it wrote
    const batches = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    const seq = ++this.seq;
    const w = this.writing.then(() => this.store.transaction(() => {
      for (const [keyId, slab] of batches) this.db.put([keyId, slab.lastTime, seq], slab.bytes());
    }));
    this.writing = w.then(() => undefined, () => undefined);
    await w;
  }

  /**
   * Newest first, `limit` entries at most. `cursor` is the opaque `next` of the previous page
   * (batch time, batch sequence and position), or undefined for the first page. Entries older than `since` end the list.
   */
  async list(keyId: string, limit: number, cursor?: string, since = -1): Promise<{ entries: RequestLogEntry[]; next?: string }> {
    await this.flush();
    let start: BatchKey = [keyId, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    let skipTo: number | undefined;
    if (cursor !== undefined) {
      const [t, s, i] = cursor.split('.').map(Number);
      if (![t, s, i].every((n) => Number.isInteger(n) && n! >= 0)) throw new Error('bad cursor');
      start = [keyId, t!, s!];
      skipTo = i;
    }
    const out: RequestLogEntry[] = [];
    for (const { key, value } of this.db.getRange({ start, end: [keyId, since, -1], reverse: true } as never)) {
      const k = key as unknown as BatchKey;
      if (k[0] !== keyId) break;
      const entries = entriesOf(value);
      let i = skipTo !== undefined ? skipTo - 1 : entries.length - 1;
      skipTo = undefined;
      for (; i >= 0; i--) {
        if (entries[i]!.time < since) return { entries: out };
        if (out.length === limit) return { entries: out, next: `${k[1]}.${k[2]}.${i + 1}` };
        out.push(entries[i]!);
      }
    }
    return { entries: out };
  }

  async prune(now: number): Promise<number> {
    let n = 0;
    for (const key of this.db.getKeys()) {
      const k = key as unknown as BatchKey;
      if (k[1] < now - this.retentionMs) {
        await this.db.remove(k);
        n++;
      }
    }
    return n;
  }
}
