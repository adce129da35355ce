// Shared mode: per-key fixed-window counters in Redis, never exceeded across the nodes of a fleet. A Lua script
// reads both windows, refuses when either is full, else reserves a grant of g requests on both counters at once
// (atomic in Redis, so two nodes can never both take the last request of a window). The node then admits g
// requests of that key from its grant without a round trip.
//
// Grants are sized so that the limit stays exact where it matters: a key starts each window with g = 1 (one round
// trip per request, as an exact counter), and g doubles (up to 64) only while the node uses its grants up within
// 100 ms — a busy key — and never exceeds 1/32 of what the windows have left, so near a limit g is 1 again. What a
// node reserved and did not use by the end of a window counts as used (at most g − 1 per node and key): the
// fleet may refuse slightly early, never admit more than the limit. Written by hand: rate-limiter libraries for
// Redis (rate-limiter-flexible …) count one round trip per request or cache refusals only, not reservations.
//
// A busy key far from its limit (its last grant was 2 or more: Redis saw at least 64 left in both windows) never
// waits for Redis while it stays busy: once its grant is being used, the next grant is reserved ahead (one lease in
// flight per key), and requests that find the grant empty while a lease is on its way wait for that lease instead of
// each asking Redis again. (Without this, at 100 connections every request arriving in the round trip's gap leased
// its own grant, and the grants then shrank again: one round trip per ~7 polls, and the requests that waited for one
// were the poll's p99.) The limit stays exact: Redis still caps every grant at 1/32 of what is left, near a limit
// grants are 1 and nothing is reserved ahead; a node holds at most two grants of a busy key (what it uses and the one
// reserved ahead), so what a node may leave unused at a window's end is at most 2g − 1, g ≤ 1/32 of what was left.
import type { Redis } from 'ioredis';
import { redisCall } from '../shared/redis.js';
import { limitResult, type LimitResult, type Limiter } from './rate-limit.js';

const SCRIPT = `
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local pm = tonumber(ARGV[1])
local pd = tonumber(ARGV[2])
if m >= pm or d >= pd then return {0, m, d} end
local g = math.max(1, math.min(tonumber(ARGV[5]), math.floor((pm - m) / 32), math.floor((pd - d) / 32)))
if redis.call('INCRBY', KEYS[1], g) == g then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if redis.call('INCRBY', KEYS[2], g) == g then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {g, m, d}
`;

/** the largest grant, and how soon a grant must be used up for the next one to double */
const MAX_GRANT = 256;
const BUSY_MS = 100;

type WithLease = Redis & {
  sejongLease(mk: string, dk: string, perMinute: number, perDay: number, mTtl: number, dTtl: number, want: number): Promise<[number, number, number]>;
};

/** A block of requests Redis reserved for this node: how many are left, the windows' counts before the first. */
interface Block {
  left: number;
  m: number;
  d: number;
}

/** What this node may still admit of one key's current windows without asking Redis. */
interface Grant extends Block {
  minute: number;
  day: number;
  /** the size to ask for next, and when the last grant came */
  want: number;
  at: number;
  /** the last grant was 2 or more: far from the limit, so the next one may be reserved ahead */
  busy: boolean;
  /** the grant reserved ahead, used when this one is used up */
  next?: Block;
  /** the lease on its way for this key (busy keys only: one at a time) */
  pending?: Promise<unknown>;
}

const ignore = (): void => undefined;

export class RedisRateLimiter implements Limiter {
  private readonly r: WithLease;
  private readonly grants = new Map<string, Grant>();
  /** round trips to Redis, and requests that waited for one (for tests and the bench) */
  roundTrips = 0;
  waited = 0;
  constructor(redis: Redis, private readonly prefix = 'sejong:rl:') {
    redis.defineCommand('sejongLease', { numberOfKeys: 2, lua: SCRIPT });
    this.r = redis as WithLease;
  }

  hit(keyId: string, perMinute: number, perDay: number, now: number): LimitResult | Promise<LimitResult> {
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const g = this.grants.get(keyId);
    if (g && g.minute === minute && g.day === day) {
      if (g.left === 0 && g.next) {
        Object.assign(g, g.next);
        g.next = undefined;
      }
      if (g.left > 0) {
        g.left--;
        if (g.busy && g.pending === undefined && g.next === undefined && g.left < g.want) this.reserveAhead(keyId, perMinute, perDay, now, g);
        return limitResult(g.m++, g.d++, perMinute, perDay, now);
      }
      // a busy key's lease is on its way: wait for it rather than ask Redis once more
      if (g.pending) {
        this.waited++;
        return g.pending.then(() => this.hit(keyId, perMinute, perDay, now));
      }
    }
    this.waited++;
    return this.lease(keyId, perMinute, perDay, now, minute, day, g);
  }

  /** the grant size to ask for after prev (of the same windows, else 1): doubles while grants are used up fast */
  private wantAfter(prev: Grant | undefined, minute: number, day: number, now: number): number {
    if (prev === undefined || prev.minute !== minute || prev.day !== day) return 1;
    return now - prev.at < BUSY_MS ? Math.min(MAX_GRANT, prev.want * 2) : Math.max(1, prev.want >> 1);
  }

  private reserve(keyId: string, perMinute: number, perDay: number, minute: number, day: number, want: number): Promise<[number, number, number]> {
    this.roundTrips++;
    // a window's key lives a little past its end (clock skew between nodes), then Redis drops it
    return redisCall(() => this.r.sejongLease(`${this.prefix}${keyId}:m:${minute}`, `${this.prefix}${keyId}:d:${day}`, perMinute, perDay, 120_000, 2 * 86_400_000, want));
  }

  /** A request found no grant: lease one, take the first of it for the request, keep the rest. */
  private async lease(keyId: string, perMinute: number, perDay: number, now: number, minute: number, day: number, prev: Grant | undefined): Promise<LimitResult> {
    const want = this.wantAfter(prev, minute, day, now);
    const p = this.reserve(keyId, perMinute, perDay, minute, day, want);
    const g = prev?.minute === minute && prev.day === day && prev.busy ? prev : undefined;
    if (g) g.pending = p;
    try {
      const [granted, m, d] = await p;
      if (granted > 0) {
        if (this.grants.size > 10_000) this.grants.clear();
        const cur = this.grants.get(keyId);
        const same = cur !== undefined && cur.minute === minute && cur.day === day;
        // requests that asked at the same moment each add their grant to what this node holds
        const left = same ? cur.left : 0;
        this.grants.set(keyId, { minute, day, left: left + granted - 1, m: m + 1, d: d + 1, want, at: now, busy: granted > 1, next: same ? cur.next : undefined });
      }
      return limitResult(m, d, perMinute, perDay, now);
    } finally {
      if (g && g.pending === p) g.pending = undefined;
    }
  }

  /** A busy key took from its grant: reserve the next one now, so that no request waits for it. */
  private reserveAhead(keyId: string, perMinute: number, perDay: number, now: number, g: Grant): void {
    const want = this.wantAfter(g, g.minute, g.day, now);
    const p = this.reserve(keyId, perMinute, perDay, g.minute, g.day, want).then(([granted, m, d]) => {
      // kept only while the grant it follows is still this node's for the same windows
      if (granted > 0 && this.grants.get(keyId) === g) {
        g.next = { left: granted, m, d };
        g.want = want;
        g.at = now;
        g.busy = granted > 1;
      }
    });
    g.pending = p;
    p.then(ignore, ignore).finally(() => {
      if (g.pending === p) g.pending = undefined;
    });
  }

  async close(): Promise<void> {
    // the Redis connection belongs to the engines (closed with them)
  }
}
