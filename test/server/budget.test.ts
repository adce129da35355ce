// The body budget: reservations, refusals beyond the limit, and the drain signal (a collection after a flood).
import t from 'tap';
import { BodyBudget, BodyLease } from '../../src/server/budget.js';

t.test('reserves up to the limit, refuses beyond it, gives back on release', async (t) => {
  const b = new BodyBudget(100);
  const a = new BodyLease(b), c = new BodyLease(b);
  t.equal(a.ensure(60), true);
  t.equal(c.ensure(50), false, '60 + 50 > 100: refused, nothing reserved');
  t.equal(b.inUse, 60);
  t.equal(a.ensure(80), true, 'a lease grows by the difference');
  t.equal(b.inUse, 80);
  a.release();
  a.release();
  t.equal(b.inUse, 0, 'released once');
  t.equal(a.ensure(10), false, 'a released lease takes nothing more');
});

t.test('drained after a flood: called once when back to 0 after at least mark bytes, never below the mark', async (t) => {
  let calls = 0;
  const b = new BodyBudget(1000, { mark: 300, onDrained: () => calls++ });
  const leases = Array.from({ length: 4 }, () => new BodyLease(b));
  for (const l of leases) t.equal(l.ensure(100), true);
  leases[0]!.release();
  leases[1]!.release();
  leases[2]!.release();
  t.equal(calls, 0, 'still 100 in use: not drained');
  leases[3]!.release();
  t.equal(calls, 1, '400 taken since the last drain, back to 0: drained');
  const small = new BodyLease(b);
  small.ensure(200);
  small.release();
  t.equal(calls, 1, '200 taken since: below the mark, no call');
  const more = new BodyLease(b);
  more.ensure(150);
  more.release();
  t.equal(calls, 2, '350 taken since the last call: drained again');
});
