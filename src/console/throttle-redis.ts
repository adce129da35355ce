// Shared mode: the console's login throttle in Redis, one count per client address for the whole fleet. A failure
// is one Lua round trip (count, lock deadline and expiry set atomically, so two nodes failing the same address at
// once both count); a check is one HGET; a success deletes the address. The rules are throttle.ts's.
import type { Redis } from 'ioredis';
import { redisCall } from '../shared/redis.js';
import { FREE_FAILURES, MAX_LOCK_MS, refuseIfLocked, type LoginThrottle } from './throttle.js';

// failures++, then lockedUntil = now + min(max, 1000 * 2^(failures - free)) once past the free ones; the record
// lives a day past its last failure (a success deletes it at once)
const FAILED = `
local n = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local free = tonumber(ARGV[2])
if n >= free then
  local lock = math.min(tonumber(ARGV[3]), 1000 * 2 ^ (n - free))
  redis.call('HSET', KEYS[1], 'lockedUntil', tonumber(ARGV[1]) + lock)
end
redis.call('PEXPIRE', KEYS[1], 86400000)
return n
`;

type WithFailed = Redis & { sejongLoginFailed(key: string, now: number, free: number, maxLock: number): Promise<number> };

export class RedisLoginThrottle implements LoginThrottle {
  private readonly r: WithFailed;
  constructor(redis: Redis, private readonly prefix = 'sejong:login:') {
    redis.defineCommand('sejongLoginFailed', { numberOfKeys: 1, lua: FAILED });
    this.r = redis as WithFailed;
  }

  async check(ip: string, now: number): Promise<void> {
    const until = await redisCall(() => this.r.hget(this.prefix + ip, 'lockedUntil'));
    refuseIfLocked(Number(until ?? 0), now);
  }

  async failed(ip: string, now: number): Promise<void> {
    await redisCall(() => this.r.sejongLoginFailed(this.prefix + ip, now, FREE_FAILURES, MAX_LOCK_MS));
  }

  async succeeded(ip: string): Promise<void> {
    await redisCall(() => this.r.del(this.prefix + ip));
  }
}
