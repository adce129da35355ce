// MCP session bookkeeping of one server (held on services.ext, never module-level). The transports live in this
// node's memory (a stream is on one node: the balancer keeps a session there). Sessions of all clients together are
// capped per node (`max`: this node's capacity); the sessions and the message rate of one client address are counted
// by McpLimits (mcp-limits.ts: in memory, or in Redis for the whole fleet). Idle sessions (least recently used
// first) make room for new ones; an active session is never evicted for a new one.
import { randomUUID } from 'node:crypto';
import type { McpBackend } from './mcp-backend.js';
import type { McpLimits } from './mcp-limits.js';

export { TokenBuckets } from './mcp-limits.js';

/** The MCP state of one server (services.ext.mcp): sessions, the per-address limits, where the sessions are hosted. */
export interface McpState {
  sessions: SessionRegistry;
  limits: McpLimits;
  /** the protocol side of the sessions: the main thread or the law worker threads (mcp-backend.ts) */
  backend: McpBackend;
  /** the open HTTP+SSE streams of this node by session id: end(reason) ends one */
  sse: Map<string, (reason?: string) => void>;
}

export type SessionKind = 'sse' | 'http';

export interface SessionEntry {
  kind: SessionKind;
  /** the session id once known (Streamable HTTP learns it during initialize) */
  id: string;
  ip: string;
  /** its slot in McpLimits (unique across the fleet) */
  slot: string;
  lastUsed: number;
  /** when the last use was told to McpLimits (at most once a second per session) */
  toldAt: number;
  close: () => Promise<void> | void;
}

export interface SessionLimits {
  /** sessions of all clients together on this node */
  max: number;
  /** a session unused this long is idle (may be evicted for a new one) */
  idleMs: number;
}

/** Why a new session was refused: status 429 (this address has too many) or 503 (the server is full). */
export interface Refusal { status: 429 | 503; message: string; retryAfter: number }

const TELL_EVERY_MS = 1000;

export class SessionRegistry {
  private readonly all = new Set<SessionEntry>();
  private readonly byId = new Map<string, SessionEntry>();
  private readonly bySlot = new Map<string, SessionEntry>();
  private closed = false;

  constructor(readonly limits: SessionLimits, private readonly perClient: McpLimits, private readonly now: () => number) {}

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
   * Throws 503 SERVICE_BUSY when the limits' engine (Redis) is unreachable.
   */
  async admit(kind: SessionKind, ip: string, close: () => Promise<void> | void): Promise<SessionEntry | Refusal> {
    if (this.full()) return this.busy();
    const now = this.now();
    const e: SessionEntry = { kind, id: '', ip, slot: randomUUID(), lastUsed: now, toldAt: now, close };
    const claim = await this.perClient.claim(ip, e.slot, now);
    if (!claim.ok) {
      const per = this.perClient.settings.perClient;
      return { status: 429, message: `this client address already holds ${claim.held} MCP sessions (at most ${per}), all in use; close one or retry later`, retryAfter: claim.retryAfter };
    }
    if (claim.evicted) {
      const old = this.bySlot.get(claim.evicted); // on another node, that node ends it at its next use or refresh
      if (old) this.evict(old);
    }
    // checked again after the claim's round trip (no await from here on: concurrent admits cannot overshoot max)
    if (this.closed || this.full()) {
      this.release(e);
      return this.busy();
    }
    this.all.add(e);
    this.bySlot.set(e.slot, e);
    return e;
  }

  /** this node holds max sessions and none is idle (else the least recently used idle one is evicted) */
  private full(): boolean {
    return this.all.size >= this.limits.max && !this.evictIdle();
  }

  private busy(): Refusal {
    const { max } = this.limits;
    return { status: 503, message: this.closed ? 'the server is stopping; retry on another node' : `the server holds ${this.all.size} active MCP sessions (at most ${max}); retry later`, retryAfter: this.closed ? 1 : this.retryAfter() };
  }

  bind(e: SessionEntry, id: string): void {
    e.id = id;
    if (this.all.has(e)) this.byId.set(id, e);
  }

  /** A use of the session; false when it has ended because its slot went to a newer session (on any node). */
  async touch(e: SessionEntry): Promise<boolean> {
    const now = this.now();
    e.lastUsed = now;
    if (now - e.toldAt < TELL_EVERY_MS) return this.all.has(e);
    e.toldAt = now;
    if (await this.perClient.touch(e.ip, e.slot, now)) return this.all.has(e);
    this.evict(e);
    return false;
  }

  remove(e: SessionEntry): void {
    if (this.forget(e)) this.release(e);
  }

  /** Close and drop sessions idle longer than maxIdleMs (periodic housekeeping). */
  prune(maxIdleMs: number, kind?: SessionKind): number {
    const cutoff = this.now() - maxIdleMs;
    const old = [...this.all].filter((e) => e.lastUsed < cutoff && (!kind || e.kind === kind));
    for (const e of old) this.evict(e);
    return old.length;
  }

  /** Renew this node's slots (a dead node's lapse); close the sessions whose slot went to a newer session. */
  async refresh(): Promise<number> {
    const lost = await this.perClient.refresh([...this.all].map((e) => ({ ip: e.ip, slot: e.slot })), this.now());
    for (const slot of lost) {
      const e = this.bySlot.get(slot);
      if (e) this.evict(e);
    }
    return lost.length;
  }

  async closeAll(): Promise<void> {
    this.closed = true;
    for (const e of [...this.all]) {
      this.forget(e);
      await this.perClient.release(e.ip, e.slot).catch(() => undefined);
      await Promise.resolve(e.close()).catch(() => undefined);
    }
  }

  /** drop e from this node's tables; false when it was not there */
  private forget(e: SessionEntry): boolean {
    if (!this.all.delete(e)) return false;
    if (e.id && this.byId.get(e.id) === e) this.byId.delete(e.id);
    if (this.bySlot.get(e.slot) === e) this.bySlot.delete(e.slot);
    return true;
  }

  /** give the slot back (an unreachable Redis: the slot lapses with its lease, it is no longer renewed) */
  private release(e: SessionEntry): void {
    void this.perClient.release(e.ip, e.slot).catch(() => undefined);
  }

  /** Evict the least recently used idle session of this node; false when every one is active. */
  private evictIdle(): boolean {
    const cutoff = this.now() - this.limits.idleMs;
    let lru: SessionEntry | null = null;
    for (const e of this.all) if (e.id && e.lastUsed <= cutoff && (!lru || e.lastUsed < lru.lastUsed)) lru = e;
    if (!lru) return false;
    this.evict(lru);
    return true;
  }

  private evict(e: SessionEntry): void {
    this.remove(e);
    void Promise.resolve().then(() => e.close()).catch(() => undefined);
  }

  /** seconds until the least recently used session of this node turns idle */
  private retryAfter(): number {
    let oldest = Infinity;
    for (const e of this.all) oldest = Math.min(oldest, e.lastUsed);
    const ms = Number.isFinite(oldest) ? oldest + this.limits.idleMs - this.now() : 1000;
    return Math.max(1, Math.ceil(ms / 1000));
  }
}
