// Shared-mode rate limiter (auth/rate-limit-redis.ts) on a real Redis: never more than the limit across nodes,
// exact near a limit, grants (fewer round trips) only for busy keys with room, header counts as the exact counter's.
import t from 'tap';
import { RedisRateLimiter } from '../../src/auth/rate-limit-redis.js';
import type { LimitResult } from '../../src/auth/rate-limit.js';
import { connectRedis } from '../../src/shared/redis.js';
import { enginesMissing, startRedis } from '../helpers/engines.js';

const missing = enginesMissing();
const NOW = Date.UTC(2026, 10, 23, 12, 0, 5); // 5 s into a minute: the windows do not turn during a test

async function twoNodes(t: { teardown(fn: () => unknown): void }): Promise<[RedisRateLimiter, RedisRateLimiter]> {
  const redis = await startRedis();
  const a = await connectRedis(redis.url, 2000);
  const b = await connectRedis(redis.url, 2000);
  t.teardown(async () => {
    a.disconnect();
    b.disconnect();
    await redis.remove();
  });
  return [new RedisRateLimiter(a), new RedisRateLimiter(b)];
}

const allowed = (rs: LimitResult[]) => rs.filter((r) => r.allowed).length;

t.test('two nodes at once never admit more than the limit, and admit all of it', { skip: missing ?? false }, async (t) => {
  const [a, b] = await twoNodes(t);
  for (const [limit, sent] of [[5, 40], [100, 300], [2000, 2600]] as const) {
    const key = `k${limit}`;
    const calls: Array<LimitResult | Promise<LimitResult>> = [];
    // bursts in turns, as two busy nodes see them: grants grow on both
    for (let i = 0; i < sent / 20; i++) {
      const burst: Array<LimitResult | Promise<LimitResult>> = [];
      for (let j = 0; j < 10; j++) burst.push(a.hit(key, limit, 1_000_000, NOW + i), b.hit(key, limit, 1_000_000, NOW + i));
      calls.push(...burst);
      await Promise.all(burst);
    }
    const rs = await Promise.all(calls);
    const ok = allowed(rs);
    t.ok(ok <= limit, `limit ${limit}: ${ok} admitted, never more`);
    // what a node reserved and did not use counts as used: at most one grant per node short of the limit
    t.ok(ok >= limit - 2 * 64, `limit ${limit}: ${ok} admitted of ${sent}`);
    if (limit === 5) t.equal(ok, 5, 'a small limit is exact');
    t.equal(rs.filter((r) => !r.allowed).every((r) => r.remaining === 0 && r.retryAfter! > 0), true, 'refusals say when to retry');
  }
});

t.test('a busy key with room needs far fewer round trips; its counts go down one by one', { skip: missing ?? false }, async (t) => {
  const [a] = await twoNodes(t);
  const remaining: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const r = await a.hit('busy', 1_000_000, 10_000_000, NOW);
    remaining.push(r.remaining);
  }
  t.ok(a.roundTrips < 60, `${a.roundTrips} round trips for 1000 requests`);
  t.same(remaining.slice(0, 5), [999_999, 999_998, 999_997, 999_996, 999_995]);
  t.equal(remaining[999], 1_000_000 - 1000, 'the 1000th request sees 999 before it, as an exact counter would say');
});

t.test('a busy key polled on 100 connections: its next grant is reserved ahead, requests seldom wait for Redis', { skip: missing ?? false }, async (t) => {
  const [a, b] = await twoNodes(t);
  const remaining = new Set<number>();
  for (let i = 0; i < 200; i++) remaining.add((await a.hit('flood', 1_000_000, 10_000_000, NOW)).remaining);
  const trips = a.roundTrips;
  const waited = a.waited;
  let admitted = 0;
  // 100 connections, each sending its next request a turn after the answer to its last (as a socket poller does)
  const turn = () => new Promise((r) => setImmediate(r));
  const connection = async () => {
    for (let i = 0; i < 20; i++) {
      const r = await a.hit('flood', 1_000_000, 10_000_000, NOW);
      remaining.add(r.remaining);
      if (r.allowed) admitted++;
      await turn();
    }
  };
  await Promise.all(Array.from({ length: 100 }, connection));
  t.equal(admitted, 2000);
  t.equal(remaining.size, 2200, 'every request has its own count: no count given twice');
  t.ok(a.roundTrips - trips <= 25, `${a.roundTrips - trips} round trips for 2000 requests`);
  t.ok(a.waited - waited <= 300, `${a.waited - waited} of 2000 requests waited for a round trip`);
  // what this node reserved ahead is the fleet's: another node's request sees it counted
  const other = await b.hit('flood', 1_000_000, 10_000_000, NOW);
  t.ok(other.remaining <= 1_000_000 - 2200 - 1, `B sees ${1_000_000 - other.remaining - 1} counted before it`);
});

t.test('a key near its limit is counted exactly: one round trip per request', { skip: missing ?? false }, async (t) => {
  const [a, b] = await twoNodes(t);
  const seen: Array<[boolean, number]> = [];
  for (let i = 0; i < 12; i++) {
    const r = await (i % 2 ? b : a).hit('near', 10, 1000, NOW);
    seen.push([r.allowed, r.remaining]);
  }
  t.same(seen, [[true, 9], [true, 8], [true, 7], [true, 6], [true, 5], [true, 4], [true, 3], [true, 2], [true, 1], [true, 0], [false, 0], [false, 0]]);
  t.equal(a.roundTrips + b.roundTrips, 12);
});

t.test('a grant belongs to its windows: the next minute starts from what Redis holds', { skip: missing ?? false }, async (t) => {
  const [a] = await twoNodes(t);
  for (let i = 0; i < 200; i++) await a.hit('turn', 1_000_000, 10_000_000, NOW);
  const next = await a.hit('turn', 1_000_000, 10_000_000, NOW + 60_000);
  t.equal(next.window, 'minute');
  t.equal(next.remaining, 1_000_000 - 1, 'a fresh minute window');
  const trips = a.roundTrips;
  await a.hit('turn', 1_000_000, 10_000_000, NOW + 60_000 + 500);
  t.equal(a.roundTrips, trips + 1, 'an idle key goes back to small grants (one request each)');
});
