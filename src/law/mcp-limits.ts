// Per-client-address limits of the MCP endpoint: the message rate (a token bucket) and the number of sessions one
// address may hold (with idle-LRU eviction of its own sessions). Two implementations behind McpLimits, chosen once at
// start-up (src/server/start.ts) by the engines' mode: in memory per node (embedded, below) and in Redis (shared
// mode, mcp-limits-redis.ts: one budget per address for the whole fleet, so a balancer spreading a client over N
// nodes does not give it N times its limits). The transports themselves stay on the node that opened them.

export interface McpLimitSettings {
  /** token bucket refill, messages a second per address */
  ratePerSecond: number;
  /** token bucket size */
  burst: number;
  /** sessions one address may hold */
  perClient: number;
  /** a session unused this long is idle and may be evicted for a new session of its address */
  idleMs: number;
}

/** A claimed session slot, or why not (429: every slot of the address is held by an active session). */
export type SlotClaim =
  | { ok: true; /** an idle slot of the same address that was taken for this one: its session must end */ evicted?: string }
  | { ok: false; held: number; retryAfter: number };

export interface McpLimits {
  readonly settings: McpLimitSettings;
  /** Take n tokens of ip's bucket: 0 when allowed, else the seconds to wait (nothing is taken). */
  take(ip: string, n: number, now: number): Promise<number>;
  /**
   * Claim a session slot `slot` (an id unique across the fleet) for ip; when the address holds perClient slots, its
   * least recently used idle slot is taken over (named in `evicted`), else the claim is refused.
   */
  claim(ip: string, slot: string, now: number): Promise<SlotClaim>;
  /** The session used its slot at now; false when the slot is no longer held (evicted for another session). */
  touch(ip: string, slot: string, now: number): Promise<boolean>;
  release(ip: string, slot: string): Promise<void>;
  /** Keep this node's slots alive (shared mode: a dead node's slots lapse); answers the slots no longer held. */
  refresh(held: ReadonlyArray<{ ip: string; slot: string }>, now: number): Promise<string[]>;
  /** Drop state that holds no information (full buckets); periodic housekeeping. */
  sweep(now: number): void;
}

/** seconds to wait until `tokens` has n again at `rate` a second (at least 1) */
export const bucketWait = (tokens: number, n: number, rate: number): number => Math.max(1, Math.ceil((n - tokens) / rate));

/** seconds until a slot last used at lastUsed turns idle (at least 1) */
export const idleWait = (lastUsed: number, idleMs: number, now: number): number => Math.max(1, Math.ceil((lastUsed + idleMs - now) / 1000));

/** Token buckets per client address: `rate` tokens a second, at most `burst` saved up. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(readonly rate: number, readonly burst: number, private readonly now: () => number) {}

  /** Take n tokens for key: 0 when allowed, else the seconds to wait (nothing is taken). */
  take(key: string, n = 1, t = this.now()): number {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= 100_000) this.sweep(t);
      b = { tokens: this.burst, at: t };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, t - b.at) / 1000) * this.rate);
    b.at = Math.max(b.at, t);
    if (b.tokens >= n) {
      b.tokens -= n;
      return 0;
    }
    return bucketWait(b.tokens, n, this.rate);
  }

  /** drop buckets that are full again (they hold no information) */
  sweep(t = this.now()): void {
    for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(k);
  }
}

/** Embedded mode: this node's buckets and slots, in memory. */
export class MemoryMcpLimits implements McpLimits {
  private readonly buckets: TokenBuckets;
  /** ip → slot → last use */
  private readonly slots = new Map<string, Map<string, number>>();

  constructor(readonly settings: McpLimitSettings) {
    this.buckets = new TokenBuckets(settings.ratePerSecond, settings.burst, () => 0);
  }

  async take(ip: string, n: number, now: number): Promise<number> {
    return this.buckets.take(ip, n, now);
  }

  async claim(ip: string, slot: string, now: number): Promise<SlotClaim> {
    let mine = this.slots.get(ip);
    if (!mine) this.slots.set(ip, (mine = new Map()));
    let evicted: string | undefined;
    if (mine.size >= this.settings.perClient) {
      let lru: [string, number] | undefined;
      for (const e of mine) if (!lru || e[1] < lru[1]) lru = e;
      if (!lru || lru[1] > now - this.settings.idleMs) return { ok: false, held: mine.size, retryAfter: idleWait(lru?.[1] ?? now, this.settings.idleMs, now) };
      mine.delete(lru[0]);
      evicted = lru[0];
    }
    mine.set(slot, now);
    return evicted ? { ok: true, evicted } : { ok: true };
  }

  async touch(ip: string, slot: string, now: number): Promise<boolean> {
    const mine = this.slots.get(ip);
    if (!mine?.has(slot)) return false;
    mine.set(slot, now);
    return true;
  }

  async release(ip: string, slot: string): Promise<void> {
    const mine = this.slots.get(ip);
    mine?.delete(slot);
    if (mine && !mine.size) this.slots.delete(ip);
  }

  async refresh(held: ReadonlyArray<{ ip: string; slot: string }>): Promise<string[]> {
    return held.filter((h) => !this.slots.get(h.ip)?.has(h.slot)).map((h) => h.slot);
  }

  sweep(now: number): void {
    this.buckets.sweep(now);
  }
}
