// MCP session bookkeeping of one server (held on services.ext, never module-level): sessions per client address
// are capped, idle sessions (least recently used first) make room for new ones, an active session is never evicted
// for a new one; and a token bucket per client address rate-limits MCP messages.

import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** The server side of one HTTP+SSE session: a transport that also takes the messages POSTed for it. */
export interface SseSession extends Transport {
  receive(message: JSONRPCMessage): void;
}

/** The MCP state of one server (services.ext.mcp): sessions, rate buckets, open transports by session id. */
export interface McpState {
  sessions: SessionRegistry;
  rate: TokenBuckets;
  http: Map<string, WebStandardStreamableHTTPServerTransport>;
  sse: Map<string, SseSession>;
}

export type SessionKind = 'sse' | 'http';

export interface SessionEntry {
  kind: SessionKind;
  /** the session id once known (Streamable HTTP learns it during initialize) */
  id: string;
  ip: string;
  lastUsed: number;
  close: () => Promise<void> | void;
}

export interface SessionLimits {
  /** sessions of all clients together */
  max: number;
  /** sessions of one client address */
  perClient: number;
  /** a session unused this long is idle (may be evicted for a new one) */
  idleMs: number;
}

/** Why a new session was refused: status 429 (this address has too many) or 503 (the server is full). */
export interface Refusal { status: 429 | 503; message: string; retryAfter: number }

export class SessionRegistry {
  private readonly all = new Set<SessionEntry>();
  private readonly byId = new Map<string, SessionEntry>();
  private readonly perIp = new Map<string, Set<SessionEntry>>();

  constructor(readonly limits: SessionLimits, private readonly now: () => number) {}

  get size(): number { return this.all.size; }

  count(kind: SessionKind): number {
    let n = 0;
    for (const e of this.all) if (e.kind === kind) n++;
    return n;
  }

  get(kind: SessionKind, id: string): SessionEntry | undefined {
    const e = this.byId.get(id);
    return e && e.kind === kind ? e : undefined;
  }

  /**
   * Reserve a slot for a new session of ip (evicting idle sessions when needed) or say why not.
   * The caller fills in id (bind) and close, and calls remove when the session ends or never starts.
   */
  admit(kind: SessionKind, ip: string, close: () => Promise<void> | void): SessionEntry | Refusal {
    const { max, perClient } = this.limits;
    const mine = this.perIp.get(ip);
    if (mine && mine.size >= perClient && !this.evictIdle(mine)) {
      return { status: 429, message: `this client address already holds ${mine.size} MCP sessions (at most ${perClient}), all in use; close one or retry later`, retryAfter: this.retryAfter(mine) };
    }
    if (this.all.size >= max && !this.evictIdle(this.all)) {
      return { status: 503, message: `the server holds ${this.all.size} active MCP sessions (at most ${max}); retry later`, retryAfter: this.retryAfter(this.all) };
    }
    const e: SessionEntry = { kind, id: '', ip, lastUsed: this.now(), close };
    this.all.add(e);
    let set = this.perIp.get(ip);
    if (!set) this.perIp.set(ip, (set = new Set()));
    set.add(e);
    return e;
  }

  bind(e: SessionEntry, id: string): void {
    e.id = id;
    if (this.all.has(e)) this.byId.set(id, e);
  }

  touch(e: SessionEntry): void {
    e.lastUsed = this.now();
  }

  remove(e: SessionEntry): void {
    if (!this.all.delete(e)) return;
    if (e.id && this.byId.get(e.id) === e) this.byId.delete(e.id);
    const set = this.perIp.get(e.ip);
    set?.delete(e);
    if (set && !set.size) this.perIp.delete(e.ip);
  }

  /** Close and drop sessions idle longer than maxIdleMs (periodic housekeeping). */
  prune(maxIdleMs: number, kind?: SessionKind): number {
    const cutoff = this.now() - maxIdleMs;
    const old = [...this.all].filter((e) => e.lastUsed < cutoff && (!kind || e.kind === kind));
    for (const e of old) this.evict(e);
    return old.length;
  }

  async closeAll(): Promise<void> {
    for (const e of [...this.all]) {
      this.remove(e);
      await Promise.resolve(e.close()).catch(() => undefined);
    }
  }

  /** Evict the least recently used idle session of the set; false when every one is active. */
  private evictIdle(set: Set<SessionEntry>): boolean {
    const cutoff = this.now() - this.limits.idleMs;
    let lru: SessionEntry | null = null;
    for (const e of set) if (e.id && e.lastUsed <= cutoff && (!lru || e.lastUsed < lru.lastUsed)) lru = e;
    if (!lru) return false;
    this.evict(lru);
    return true;
  }

  private evict(e: SessionEntry): void {
    this.remove(e);
    void Promise.resolve().then(() => e.close()).catch(() => undefined);
  }

  /** seconds until the least recently used session of the set turns idle */
  private retryAfter(set: Set<SessionEntry>): number {
    let oldest = Infinity;
    for (const e of set) oldest = Math.min(oldest, e.lastUsed);
    const ms = Number.isFinite(oldest) ? oldest + this.limits.idleMs - this.now() : 1000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}

/** Token buckets per client address: `rate` tokens a second, at most `burst` saved up. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(readonly rate: number, readonly burst: number, private readonly now: () => number) {}

  /** Take n tokens for key: 0 when allowed, else the seconds to wait (nothing is taken). */
  take(key: string, n = 1): number {
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size >= 100_000) this.sweep(t);
      b = { tokens: this.burst, at: t };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.rate);
    b.at = t;
    if (b.tokens >= n) {
      b.tokens -= n;
      return 0;
    }
    return Math.max(1, Math.ceil((n - b.tokens) / this.rate));
  }

  /** drop buckets that are full again (they hold no information) */
  sweep(t = this.now()): void {
    for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) / 1000) * this.rate >= this.burst) this.buckets.delete(k);
  }
}
