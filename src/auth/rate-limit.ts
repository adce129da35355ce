// Per-key fixed-window counters (minute and day). Counted in memory; increments are written to LMDB within 50 ms with
// async batched puts (not awaited), so counts survive a restart (and a kill -9, but for its last 50 ms) without
// blocking the request.
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';

export interface LimitResult {
  allowed: boolean;
  window: 'minute' | 'day';
  /** the window that decides: the one with fewer requests left */
  limit: number;
  remaining: number;
  resetSeconds: number;
  policy: string;
  retryAfter?: number;
}

/** The per-key limiter the front end calls on every keyed request: LMDB counters (embedded) or Redis (shared). */
export interface Limiter {
  /** counts one request unless a window is full; synchronous when the counters are local */
  hit(keyId: string, perMinute: number, perDay: number, now: number): LimitResult | Promise<LimitResult>;
  close(): Promise<void>;
}

/** how soon a changed counter is written */
const PERSIST_MS = 50;

const policies = new Map<number, Map<number, string>>();
/** RateLimit-Policy header value of (perMinute, perDay), cached by the two numbers (no key text per request) */
export function policyOf(perMinute: number, perDay: number): string {
  let byDay = policies.get(perMinute);
  if (byDay === undefined) {
    byDay = new Map();
    if (policies.size < 1000) policies.set(perMinute, byDay);
  }
  let policy = byDay.get(perDay);
  if (policy === undefined) {
    policy = `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`;
    if (byDay.size < 1000) byDay.set(perDay, policy);
  }
  return policy;
}

/** The answer for counts m (minute) and d (day) seen before this request; `allowed` when both had room. */
export function limitResult(m: number, d: number, perMinute: number, perDay: number, now: number): LimitResult {
  const minute = Math.floor(now / 60_000);
  const day = Math.floor(now / 86_400_000);
  const mReset = Math.ceil(((minute + 1) * 60_000 - now) / 1000);
  const dReset = Math.ceil(((day + 1) * 86_400_000 - now) / 1000);
  const policy = policyOf(perMinute, perDay);
  if (m >= perMinute || d >= perDay) {
    const byDay = d >= perDay;
    return { allowed: false, window: byDay ? 'day' : 'minute', limit: byDay ? perDay : perMinute, remaining: 0, resetSeconds: byDay ? dReset : mReset, policy, retryAfter: byDay ? dReset : mReset };
  }
  const mLeft = perMinute - m - 1;
  const dLeft = perDay - d - 1;
  return mLeft <= dLeft
    ? { allowed: true, window: 'minute', limit: perMinute, remaining: mLeft, resetSeconds: mReset, policy }
    : { allowed: true, window: 'day', limit: perDay, remaining: dLeft, resetSeconds: dReset, policy };
}

/** Embedded mode: counters in memory, written through to LMDB. */
export class RateLimiter implements Limiter {
  private readonly counters: Database<number, string>;
  /** in-memory mirror of the counters, written through to LMDB */
  private readonly mem = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly store: Store, flushMs = 1000) {
    this.counters = store.db<number, string>('rate-counters');
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  /** counters changed since the last write, written together within PERSIST_MS */
  private readonly pending = new Set<string>();
  private scheduled?: NodeJS.Timeout;

  /**
   * Increments are written within PERSIST_MS, not awaited: one put per changed counter per interval (a burst of
   * requests on one key costs one put, not one each), and LMDB batches the puts into one asynchronous commit, so a
   * kill -9 loses at most the increments of the last PERSIST_MS. (Once per event-loop turn, as before, cost a commit
   * per turn: at 14,000 keyed requests/s that was more commits than requests answered per turn could pay for.)
   */
  private persist(key: string): void {
    this.dirty.add(key);
    this.pending.add(key);
    if (this.scheduled) return;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      for (const k of this.pending) {
        const v = this.mem.get(k) ?? 0;
        this.counters.put(k, v).then(
          () => {
            if (!this.pending.has(k) && this.mem.get(k) === v) this.dirty.delete(k);
          },
          () => undefined, // the timer below retries
        );
      }
      this.pending.clear();
    }, PERSIST_MS).unref();
  }

  /** Write counters whose put failed (or is still pending) again, in one transaction. */
  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const keys = [...this.dirty];
    this.dirty.clear();
    await this.store.transaction(() => {
      for (const k of keys) this.counters.put(k, this.mem.get(k) ?? 0);
    });
  }

  /** Stop the timers and write every changed counter (the pending ones are among the dirty ones) before the store closes. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.pending.clear();
    await this.flush();
  }

  private count(key: string): number {
    let n = this.mem.get(key);
    if (n === undefined) {
      n = this.counters.get(key) ?? 0;
      this.mem.set(key, n);
    }
    return n;
  }

  /** per key, the counter names of its current windows (made once per window, not per request) */
  private readonly names = new Map<string, { minute: number; day: number; mk: string; dk: string }>();

  hit(keyId: string, perMinute: number, perDay: number, now: number): LimitResult {
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    let n = this.names.get(keyId);
    if (!n || n.minute !== minute || n.day !== day) {
      if (this.names.size > 10_000) this.names.clear();
      this.names.set(keyId, (n = { minute, day, mk: `${keyId}:m:${minute}`, dk: `${keyId}:d:${day}` }));
    }
    const { mk, dk } = n;
    const m = this.count(mk);
    const d = this.count(dk);
    const r = limitResult(m, d, perMinute, perDay, now);
    if (!r.allowed) return r;
    this.mem.set(mk, m + 1);
    this.mem.set(dk, d + 1);
    this.persist(mk);
    this.persist(dk);
    if (this.mem.size > 50_000) this.prune(minute, day);
    return r;
  }

  /** drop counters of past windows */
  prune(minute: number, day: number): void {
    for (const k of this.mem.keys()) {
      const [kind, n] = k.split(':').slice(-2);
      if (((kind === 'm' && Number(n) < minute) || (kind === 'd' && Number(n) < day)) && !this.dirty.has(k)) this.mem.delete(k);
    }
    for (const k of this.counters.getKeys()) {
      const [kind, n] = String(k).split(':').slice(-2);
      if ((kind === 'm' && Number(n) < minute - 1) || (kind === 'd' && Number(n) < day - 1)) void this.counters.remove(k as string);
    }
  }
}
