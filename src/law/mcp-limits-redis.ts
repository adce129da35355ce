// Shared mode: the MCP per-address limits in Redis, one budget per client address for the whole fleet. Each call is
// one Lua script (one round trip, atomic: two nodes admitting the same address at once cannot overshoot its cap).
// Message and use times are the calling node's clock (keep NTP); leases run on Redis's own clock (TIME), so a lease
// measures whether a node is alive, whatever the nodes' clocks say. Keys carry the address in a hash tag so one address's keys stay
// together on a Redis Cluster shard.
//   sejong:mcp:{ip}:rate   hash  t (tokens), at (ms): the token bucket
//   sejong:mcp:{ip}:lease  zset  slot → lease deadline: a node renews its slots every SLOT_REFRESH_MS, so the slots
//                                of a node that died lapse after SLOT_LEASE_MS
//   sejong:mcp:{ip}:used   zset  slot → last use: the least recently used idle slot makes room for a new session
//   sejong:mcp:{ip}:gone   zset  slot → until when: slots taken over for a newer session; their node ends the
//                                session at its next use or refresh. A slot missing for any other reason (a Redis
//                                restart lost the keys, a node cut off longer than the lease) is taken again by its
//                                node, so a Redis restart does not end the sessions.
import type { Redis } from 'ioredis';
import { redisCall } from '../shared/redis.js';
import { bucketWait, idleWait, type McpLimits, type McpLimitSettings, type SlotClaim } from './mcp-limits.js';

export const SLOT_LEASE_MS = 60_000;

// ARGV: rate, burst, now, n → 0 when taken, else the tokens there are (as a string: Lua numbers become integers)
const TAKE = `
local rate, burst, now, n = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local b = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) / 1000 * rate)
  at = now
end
if tokens < n then return tostring(tokens) end
tokens = tokens - n
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(at))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return 0
`;

const DROP = `local tm = redis.call('TIME')
local rnow = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000)
local function drop(m) redis.call('ZREM', KEYS[1], m) redis.call('ZREM', KEYS[2], m) end
local function keep(ms) for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ms) end end
`;

// KEYS: lease, used, gone; ARGV: now, slot, perClient, idleMs, leaseMs → {1, evicted or ''} | {0, held, lru's last use}
const CLAIM = `${DROP}
local now, per, idle, lease = tonumber(ARGV[1]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', rnow)) do drop(m) end
local n = redis.call('ZCARD', KEYS[1])
local evicted = ''
if n >= per then
  local lru = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  if lru[1] and tonumber(lru[2]) > now - idle then return {0, n, lru[2]} end
  if lru[1] then
    drop(lru[1])
    evicted = lru[1]
    redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', rnow)
    redis.call('ZADD', KEYS[3], rnow + lease, evicted)
  end
end
redis.call('ZADD', KEYS[1], rnow + lease, ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[2])
keep(lease)
return {1, evicted}
`;

// KEYS: lease, used, gone; ARGV: now, slot, leaseMs, touch (1: a use, 0: only the lease)
//   → 1 held, 2 held again (it was missing), 0 taken over for a newer session
const RENEW = `${DROP}
if redis.call('ZSCORE', KEYS[3], ARGV[2]) then return 0 end
local now, lease = tonumber(ARGV[1]), tonumber(ARGV[3])
local held = redis.call('ZADD', KEYS[1], rnow + lease, ARGV[2]) == 0
if ARGV[4] == '1' or not held then redis.call('ZADD', KEYS[2], now, ARGV[2]) end
keep(lease)
if held then return 1 end
return 2
`;

type Scripted = Redis & {
  sejongMcpTake(rate: string, ...args: Array<string | number>): Promise<string | number>;
  sejongMcpClaim(lease: string, used: string, gone: string, ...args: Array<string | number>): Promise<[number, number | string, string?]>;
  sejongMcpRenew(lease: string, used: string, gone: string, ...args: Array<string | number>): Promise<number>;
};

export class RedisMcpLimits implements McpLimits {
  private readonly r: Scripted;

  constructor(redis: Redis, readonly settings: McpLimitSettings, private readonly leaseMs = SLOT_LEASE_MS, private readonly prefix = 'sejong:mcp:') {
    redis.defineCommand('sejongMcpTake', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('sejongMcpClaim', { numberOfKeys: 3, lua: CLAIM });
    redis.defineCommand('sejongMcpRenew', { numberOfKeys: 3, lua: RENEW });
    this.r = redis as Scripted;
  }

  private key(ip: string, what: 'rate' | 'lease' | 'used' | 'gone'): string {
    return `${this.prefix}{${ip}}:${what}`;
  }

  private slotKeys(ip: string): [string, string, string] {
    return [this.key(ip, 'lease'), this.key(ip, 'used'), this.key(ip, 'gone')];
  }

  async take(ip: string, n: number, now: number): Promise<number> {
    const { ratePerSecond: rate, burst } = this.settings;
    const got = await redisCall(() => this.r.sejongMcpTake(this.key(ip, 'rate'), rate, burst, now, n));
    return got === 0 ? 0 : bucketWait(Number(got), n, rate);
  }

  async claim(ip: string, slot: string, now: number): Promise<SlotClaim> {
    const { perClient, idleMs } = this.settings;
    const res = await redisCall(() => this.r.sejongMcpClaim(...this.slotKeys(ip), now, slot, perClient, idleMs, this.leaseMs));
    if (res[0] === 1) return res[1] ? { ok: true, evicted: String(res[1]) } : { ok: true };
    return { ok: false, held: Number(res[1]), retryAfter: idleWait(Number(res[2]), idleMs, now) };
  }

  async touch(ip: string, slot: string, now: number): Promise<boolean> {
    return (await redisCall(() => this.r.sejongMcpRenew(...this.slotKeys(ip), now, slot, this.leaseMs, '1'))) !== 0;
  }

  async release(ip: string, slot: string): Promise<void> {
    await redisCall(() => this.r.multi().zrem(this.key(ip, 'lease'), slot).zrem(this.key(ip, 'used'), slot).exec());
  }

  async refresh(held: ReadonlyArray<{ ip: string; slot: string }>, now: number): Promise<string[]> {
    if (!held.length) return [];
    const p = this.r.pipeline();
    for (const h of held) (p as unknown as Scripted).sejongMcpRenew(...this.slotKeys(h.ip), now, h.slot, this.leaseMs, '0');
    const res = (await redisCall(() => p.exec())) ?? [];
    return held.filter((_, i) => res[i]?.[0] == null && res[i]?.[1] === 0).map((h) => h.slot);
  }

  sweep(): void {
    // keys expire in Redis (PEXPIRE at every write)
  }
}
