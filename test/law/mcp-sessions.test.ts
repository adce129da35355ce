// SessionRegistry over McpLimits without a server, in both modes (limits in memory, limits in a private Redis): caps,
// idle-LRU eviction, never an active session, token buckets. Shared mode only: two nodes (two registries on one
// Redis) share one address's session cap and message budget, an idle session on one node makes room for a session on
// the other, a dead node's slots lapse with their lease, and a lost Redis is 503 SERVICE_BUSY.
import t, { type Test } from 'tap';
import { SessionRegistry, type SessionEntry } from '../../src/law/mcp-sessions.js';
import { MemoryMcpLimits, TokenBuckets, type McpLimits, type McpLimitSettings } from '../../src/law/mcp-limits.js';
import { RedisMcpLimits, SLOT_LEASE_MS } from '../../src/law/mcp-limits-redis.js';
import { connectRedis } from '../../src/shared/redis.js';
import { ApiError } from '../../src/domain/errors.js';
import { enginesMissing, startRedis, type RedisServer } from '../helpers/engines.js';

const MODES = ['memory', 'redis'] as const;
type Mode = (typeof MODES)[number];

let redisServer: RedisServer | undefined;
t.teardown(async () => redisServer?.remove());

/** limits of one node; in redis mode each call is another node (its own connection) on the one test Redis */
async function limitsFor(t: Test, mode: Mode, settings: McpLimitSettings, prefix: string, leaseMs = SLOT_LEASE_MS): Promise<McpLimits> {
  if (mode === 'memory') return new MemoryMcpLimits(settings);
  redisServer ??= await startRedis();
  const r = await connectRedis(redisServer.url, 2000);
  t.teardown(() => r.disconnect());
  return new RedisMcpLimits(r, settings, leaseMs, prefix);
}

const settings = (o: Partial<McpLimitSettings> = {}): McpLimitSettings => ({ ratePerSecond: 2, burst: 5, perClient: 2, idleMs: 60_000, ...o });
const skip = (mode: Mode) => (mode === 'redis' ? enginesMissing() : undefined);
let n = 0;
const prefix = () => `test${++n}:`;

/** open a session of ip on reg: the entry, or the refusal */
async function open(reg: SessionRegistry, ip: string, id: string, closed: string[]) {
  const e = await reg.admit('http', ip, () => { closed.push(id); });
  if ('status' in e) return e;
  reg.bind(e, id);
  return e;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const settle = () => sleep(20);

/** A clock the registries share; advancing it renews every node's slots each 15 s as their timers would. */
function fleetClock(start: number) {
  const c = { now: start, nodes: [] as SessionRegistry[], async advance(ms: number) {
    for (let left = ms; left > 0; left -= 15_000) {
      c.now += Math.min(15_000, left);
      for (const r of c.nodes) await r.refresh();
    }
  } };
  return c;
}

for (const mode of MODES) {
  t.test(`${mode}: per-address cap: own idle LRU session makes room, active ones never; node cap: 503`, { skip: skip(mode) }, async (t) => {
    const clock = fleetClock(1_000_000);
    const closed: string[] = [];
    const reg = new SessionRegistry({ max: 4, idleMs: 60_000 }, await limitsFor(t, mode, settings(), prefix()), () => clock.now);
    clock.nodes.push(reg);
    const a1 = (await open(reg, '10.0.0.1', 'a1', closed)) as SessionEntry;
    await clock.advance(1000);
    const a2 = (await open(reg, '10.0.0.1', 'a2', closed)) as SessionEntry;
    const refused = await open(reg, '10.0.0.1', 'a3', closed);
    t.same({ status: (refused as any).status, retry: (refused as any).retryAfter }, { status: 429, retry: 59 });
    t.match((refused as any).message, /already holds 2 MCP sessions \(at most 2\)/);
    await clock.advance(60_500); // a1 and a2 idle; a2 used again
    t.equal(await reg.touch(a2), true);
    const a3 = await open(reg, '10.0.0.1', 'a3', closed);
    t.notOk('status' in a3);
    await settle();
    t.same(closed, ['a1'], 'the idle one went, the active one stayed');
    t.equal(reg.get('http', 'a1'), undefined);
    t.equal(reg.get('http', 'a2'), a2);
    await open(reg, '10.0.0.2', 'b1', closed);
    await open(reg, '10.0.0.3', 'c1', closed);
    const full = await open(reg, '10.0.0.4', 'd1', closed);
    t.equal((full as any).status, 503, 'all four sessions active: the server refuses rather than evicting');
    t.equal(reg.size, 4);
    // a session that ends gives its slot back at once
    reg.remove(a2);
    await settle();
    t.notOk('status' in (await open(reg, '10.0.0.1', 'a4', closed)), 'the freed slot takes a new session');
    void a1;
  });

  t.test(`${mode}: token buckets: burst, refill, retry-after`, { skip: skip(mode) }, async (t) => {
    const lim = await limitsFor(t, mode, settings(), prefix());
    const now = 5_000_000;
    const got = [];
    for (let i = 0; i < 7; i++) got.push(await lim.take('x', 1, now));
    t.same(got, [0, 0, 0, 0, 0, 1, 1]);
    t.equal(await lim.take('y', 1, now), 0, 'another address has its own bucket');
    t.equal(await lim.take('x', 2, now + 1000), 0);
    t.equal(await lim.take('x', 1, now + 1000), 1);
    t.equal(await lim.take('x', 5, now + 1000), 3);
    t.equal(await lim.take('x', 6, now + 100_000), 1, 'more than the burst at once is refused');
  });
}

t.test('in-memory token buckets keep their own clock', async (t) => {
  let now = 0;
  const b = new TokenBuckets(2, 5, () => now);
  t.same(Array.from({ length: 6 }, () => b.take('x')), [0, 0, 0, 0, 0, 1]);
  now += 1000;
  t.equal(b.take('x', 2), 0);
});

t.test('redis: two nodes share one address\'s sessions and message budget', { skip: enginesMissing() }, async (t) => {
  const clock = fleetClock(2_000_000);
  const p = prefix();
  const closedA: string[] = [];
  const closedB: string[] = [];
  const limA = await limitsFor(t, 'redis', settings({ perClient: 3 }), p);
  const limB = await limitsFor(t, 'redis', settings({ perClient: 3 }), p);
  const A = new SessionRegistry({ max: 100, idleMs: 60_000 }, limA, () => clock.now);
  const B = new SessionRegistry({ max: 100, idleMs: 60_000 }, limB, () => clock.now);
  clock.nodes.push(A, B);

  // messages: 5 of burst, spread over the two nodes
  const takes = [];
  for (let i = 0; i < 6; i++) takes.push(await (i % 2 ? limB : limA).take('10.1.1.1', 1, clock.now));
  t.same(takes, [0, 0, 0, 0, 0, 1], 'the sixth message is refused although each node saw only three');

  // sessions: 3 per address across both nodes
  const a1 = (await open(A, '10.1.1.1', 'a1', closedA)) as SessionEntry;
  await clock.advance(1000);
  const b1 = (await open(B, '10.1.1.1', 'b1', closedB)) as SessionEntry;
  await clock.advance(1000);
  const a2 = (await open(A, '10.1.1.1', 'a2', closedA)) as SessionEntry;
  const refused = await open(B, '10.1.1.1', 'b2', closedB);
  t.same([(refused as any).status, (refused as any).retryAfter], [429, 58], 'the fourth session is refused on B: the address holds three on the two nodes');
  t.match((refused as any).message, /already holds 3 MCP sessions \(at most 3\)/);
  t.equal(B.size, 1, 'the refused session is not counted on B');

  // a1 on node A turns idle; a new session on node B takes its slot; A ends a1 at its next use
  await clock.advance(61_000);
  t.equal(await B.touch(b1), true);
  t.equal(await A.touch(a2), true);
  const b2 = (await open(B, '10.1.1.1', 'b2', closedB)) as SessionEntry;
  t.notOk('status' in b2, 'an idle session on the other node made room');
  t.equal(await A.touch(a1), false, 'node A learns at the next use that a1 lost its slot');
  await settle();
  t.same(closedA, ['a1'], 'and closes it');
  t.equal(A.get('http', 'a1'), undefined);

  // a2 on A turns idle and goes to a new session on B: A's periodic refresh finds it without a use
  await clock.advance(61_000);
  t.equal(await B.touch(b1), true);
  t.equal(await B.touch(b2), true);
  t.notOk('status' in (await open(B, '10.1.1.1', 'b3', closedB)));
  t.equal(await A.refresh(), 1, 'A\'s refresh finds one lost slot');
  await settle();
  t.same(closedA, ['a1', 'a2']);
  t.same([A.size, B.size], [0, 3]);
});

t.test('redis: a dead node\'s slots lapse with their lease (on Redis\'s clock)', { skip: enginesMissing() }, async (t) => {
  const clock = fleetClock(3_000_000);
  const p = prefix();
  const hour = settings({ perClient: 3, idleMs: 3600_000 });
  const LEASE = 600; // real ms (the production lease is SLOT_LEASE_MS, renewed every 15 s)
  const C = new SessionRegistry({ max: 100, idleMs: 3600_000 }, await limitsFor(t, 'redis', hour, p, LEASE), () => clock.now);
  const D = new SessionRegistry({ max: 100, idleMs: 3600_000 }, await limitsFor(t, 'redis', hour, p, LEASE), () => clock.now);
  const d = [];
  for (const id of ['d1', 'd2', 'd3']) d.push((await open(D, '10.1.1.2', id, [])) as SessionEntry);
  t.equal(((await open(C, '10.1.1.2', 'c1', [])) as any).status, 429, 'three held on D, none idle for an hour');
  for (let i = 0; i < 4; i++) {
    await sleep(LEASE / 3);
    t.equal(await D.refresh(), 0, 'D renews its slots while it runs');
  }
  t.equal(((await open(C, '10.1.1.2', 'c1', [])) as any).status, 429, 'renewed past their first lease: still held');
  await sleep(LEASE + 200); // D stops renewing (killed)
  t.notOk('status' in (await open(C, '10.1.1.2', 'c1', [])), 'D\'s lapsed slots are free, though its sessions were not idle');
  clock.now += 2000;
  t.equal(await D.touch(d[0]!), true, 'D, back (cut off, not dead), takes its live session\'s slot again: a lapse is not an eviction');
  t.equal(D.get('http', 'd1'), d[0]);
});

t.test('redis: a lost Redis is 503 SERVICE_BUSY with Retry-After; after its restart the limits work again and live sessions keep their slots', { skip: enginesMissing() }, async (t) => {
  const own = await startRedis();
  t.teardown(() => own.remove());
  const r = await connectRedis(own.url, 1000);
  t.teardown(() => r.disconnect());
  let now = 1_000_000;
  const lim = new RedisMcpLimits(r, settings(), SLOT_LEASE_MS);
  const reg = new SessionRegistry({ max: 10, idleMs: 60_000 }, lim, () => now);
  t.equal(await lim.take('10.2.2.2', 1, now), 0);
  const s1 = (await open(reg, '10.2.2.2', 's1', [])) as SessionEntry;
  await own.stop();
  const err = await lim.take('10.2.2.2', 1, now).catch((e) => e);
  t.ok(err instanceof ApiError);
  t.same([err.code, err.status, err.headers?.['retry-after']], ['SERVICE_BUSY', 503, '2']);
  const admit = await reg.admit('sse', '10.2.2.2', () => undefined).catch((e) => e);
  t.equal(admit.code, 'SERVICE_BUSY');
  t.equal(reg.size, 1, 'a session refused for the outage is not counted');
  await own.start(); // a fresh Redis: every key is gone
  let back: unknown;
  for (let i = 0; i < 50 && back === undefined; i++) {
    back = await lim.take('10.2.2.2', 1, now).catch(() => undefined);
    if (back === undefined) await new Promise((res) => setTimeout(res, 100));
  }
  t.equal(back, 0, 'the same connection works again once Redis is back');
  now += 2000;
  t.equal(await reg.touch(s1), true, 'the session from before the restart goes on: its node takes its slot again');
  t.notOk('status' in (await open(reg, '10.2.2.2', 's2', [])));
  const third = await open(reg, '10.2.2.2', 's3', []);
  t.equal((third as any).status, 429, 'and it counts: two held');
});
