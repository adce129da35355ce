// Shared mode: per-key fixed-window counters in Redis, exact across every node of a fleet. One round trip per
// request: a Lua script reads both windows, refuses when either is full, else increments both and sets their
// expiry (atomic in Redis, so two nodes can never both take the last request of a window).
import type { Redis } from 'ioredis';
import { redisCall } from '../shared/redis.js';
import { limitResult, type LimitResult, type Limiter } from './rate-limit.js';

const SCRIPT = `
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if m >= tonumber(ARGV[1]) or d >= tonumber(ARGV[2]) then return {0, m, d} end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {1, m, d}
`;

type WithLimit = Redis & { sejongLimit(mk: string, dk: string, perMinute: number, perDay: number, mTtl: number, dTtl: number): Promise<[number, number, number]> };

export class RedisRateLimiter implements Limiter {
  private readonly r: WithLimit;
  constructor(redis: Redis, private readonly prefix = 'sejong:rl:') {
    redis.defineCommand('sejongLimit', { numberOfKeys: 2, lua: SCRIPT });
    this.r = redis as WithLimit;
  }

  async hit(keyId: string, perMinute: number, perDay: number, now: number): Promise<LimitResult> {
    const minute = Math.floor(now / 60_000);
    const day = Math.floor(now / 86_400_000);
    // a window's key lives a little past its end (clock skew between nodes), then Redis drops it
    const [, m, d] = await redisCall(() => this.r.sejongLimit(`${this.prefix}${keyId}:m:${minute}`, `${this.prefix}${keyId}:d:${day}`, perMinute, perDay, 120_000, 2 * 86_400_000));
    return limitResult(m, d, perMinute, perDay, now);
  }

  async close(): Promise<void> {
    // the Redis connection belongs to the engines (closed with them)
  }
}
