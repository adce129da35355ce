// SessionRegistry and TokenBuckets without a server: caps, idle-LRU eviction, never an active session, buckets.
import t from 'tap';
import { SessionRegistry, TokenBuckets, type SessionEntry } from '../../src/law/mcp-sessions.js';

t.test('per-address cap: own idle LRU session makes room, active ones never; global cap: 503', async (t) => {
  let now = 1_000_000;
  const closed: string[] = [];
  const reg = new SessionRegistry({ max: 4, perClient: 2, idleMs: 60_000 }, () => now);
  const open = (ip: string, id: string) => {
    const e = reg.admit('http', ip, () => { closed.push(id); });
    if ('status' in e) return e;
    reg.bind(e, id);
    return e;
  };
  const a1 = open('10.0.0.1', 'a1') as SessionEntry;
  now += 1000;
  const a2 = open('10.0.0.1', 'a2') as SessionEntry;
  const refused = open('10.0.0.1', 'a3');
  t.same({ status: (refused as any).status, retry: (refused as any).retryAfter }, { status: 429, retry: 59 });
  now += 60_500; // a1 and a2 idle; a2 used again
  reg.touch(a2);
  const a3 = open('10.0.0.1', 'a3');
  t.notOk('status' in a3);
  await new Promise((r) => setImmediate(r));
  t.same(closed, ['a1'], 'the idle one went, the active one stayed');
  t.equal(reg.get('http', 'a1'), undefined);
  t.equal(reg.get('http', 'a2'), a2);
  open('10.0.0.2', 'b1');
  open('10.0.0.3', 'c1');
  const full = open('10.0.0.4', 'd1');
  t.equal((full as any).status, 503, 'all four sessions active: the server refuses rather than evicting');
  t.equal(reg.size, 4);
  void a1;
});

t.test('token buckets: burst, refill, retry-after', async (t) => {
  let now = 0;
  const b = new TokenBuckets(2, 5, () => now);
  const got = Array.from({ length: 7 }, () => b.take('x'));
  t.same(got, [0, 0, 0, 0, 0, 1, 1]);
  t.equal(b.take('y'), 0, 'another address has its own bucket');
  now += 1000;
  t.equal(b.take('x', 2), 0);
  t.equal(b.take('x'), 1);
  t.equal(b.take('x', 5), 3);
});
