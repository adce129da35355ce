// Recent requests per key (time, method, path, status, ms) for GET /api/v1/logs; kept N days.
// Entries are buffered in memory and written every 250 ms (or every 2,000 entries) as one LMDB record per key (a
// batch), so a busy server pays one B-tree insert per key and flush instead of one per request. Listing flushes first.
import type { Database } from 'lmdb';
import { Packr } from 'msgpackr';
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

/** entries buffered before a flush regardless of the timer: about 1 ms of encoding on the request thread (5,000 in
 * one array, encoded by LMDB, paused it ~15 ms), and few enough commits for the write thread */
const FLUSH_ENTRIES = 2000;

/**
 * A batch is stored as msgpack bytes packed here, with its record shape inline: a third of the main-thread time of
 * handing LMDB the array to encode with its shared-structure machinery. Batches stored as arrays by earlier
 * versions are read as they are.
 */
const batchCodec = new Packr({ useRecords: true });

/** [keyId, time of the batch's last entry, flush sequence] */
type BatchKey = [string, number, number];

export class RequestLog implements RequestLogStore {
  private readonly db: Database<Uint8Array | RequestLogEntry[], BatchKey>;
  private pending = new Map<string, RequestLogEntry[]>();
  private pendingCount = 0;
  private seq = 0;
  private timer?: NodeJS.Timeout;
  constructor(private readonly store: Store, private readonly retentionMs: number) {
    this.db = store.db<Uint8Array | RequestLogEntry[], BatchKey>('request-log-batches');
  }

  add(keyId: string, e: RequestLogEntry): void {
    let list = this.pending.get(keyId);
    if (!list) this.pending.set(keyId, (list = []));
    list.push(e);
    // a batch is encoded (msgpack) on this thread when it is put: small batches keep that pause short under load
    if (++this.pendingCount >= FLUSH_ENTRIES) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), 250);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingCount === 0) return;
    const batches = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    const seq = ++this.seq;
    await this.store.transaction(() => {
      for (const [keyId, entries] of batches) this.db.put([keyId, entries[entries.length - 1]!.time, seq], batchCodec.pack(entries));
    });
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
      const entries = Array.isArray(value) ? value : (batchCodec.unpack(value) as RequestLogEntry[]);
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
