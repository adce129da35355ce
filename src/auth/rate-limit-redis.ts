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
const MAX_GRANT = 64;
const BUSY_MS = 100;

type WithLease = Redis & {
  sejongLease(mk: string, dk: string, perMinute: number, perDay: number, mTtl: number, dTtl: number, want: number): Promise<[number, number, number]>;
};

/** What this node may still admit of one key's current windows without asking Redis. */
interface Grant {
  minute: number;
  day: number;
  /** requests left in the grant */
  left: number;
  /** the windows' counts before the next request admitted from the grant (as of the grant, plus this node's own) */
  m: number;
  d: number;
  /** the size to ask for next, and when the last grant came */
  want: number;
  at: number;
}

export class RedisRateLimiter implements Limiter {
  private readonly r: WithLease;
  private readonly grants = new Map<string, Grant>();
  /** round trips to Redis (for tests and the bench) */
  roundTrips = 0;
  constructor(redis: Redis, private readonly prefix = 'sejong:rl:') {
    redis.defineCommand('sejongLease', { numberOfKeys: 2, lua: SCRIPT });
    this.r = redis as WithLease;
  }

  hit(keyId: string, perMinute: number, perDay: number, now: number): LimitResult | Promise<LimitResult> {
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    const g = this.grants.get(keyId);
    if (g && g.minute === minute && g.day === day && g.left > 0) {
      g.left--;
      return limitResult(g.m++, g.d++, perMinute, perDay, now);
    }
    return this.lease(keyId, perMinute, perDay, now, minute, day, g);
  }

  private async lease(keyId: string, perMinute: number, perDay: number, now: number, minute: number, day: number, prev: Grant | undefined): Promise<LimitResult> {
    const sameWindows = prev !== undefined && prev.minute === minute && prev.day === day;
    const want = !sameWindows ? 1 : now - prev.at < BUSY_MS ? Math.min(MAX_GRANT, prev.want * 2) : Math.max(1, prev.want >> 1);
    this.roundTrips++;
    // a window's key lives a little past its end (clock skew between nodes), then Redis drops it
    const [granted, m, d] = await redisCall(() => this.r.sejongLease(`${this.prefix}${keyId}:m:${minute}`, `${this.prefix}${keyId}:d:${day}`, perMinute, perDay, 120_000, 2 * 86_400_000, want));
    if (granted > 0) {
      if (this.grants.size > 10_000) this.grants.clear();
      const cur = this.grants.get(keyId);
      // requests that asked at the same moment each add their grant to what this node holds
      const left = cur && cur.minute === minute && cur.day === day ? cur.left : 0;
      this.grants.set(keyId, { minute, day, left: left + granted - 1, m: m + 1, d: d + 1, want, at: now });
    }
    return limitResult(m, d, perMinute, perDay, now);
  }

  async close(): Promise<void> {
    // the Redis connection belongs to the engines (closed with them)
  }
}
