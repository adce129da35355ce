// The native-call gate (src/pool/native-gate.ts) in one thread: counting, the pool's stop, the idle wait.
import t from 'tap';
import { bindGate, closeGate, closeGateSync, markPoolThread, native, nativeIdle, nativeInFlight, newGate, STOPPING } from '../../src/pool/native-gate.js';

t.test('calls are counted on the bound gate; closeGate waits for them, then no call may start', async (t) => {
  const g = newGate();
  bindGate(g);
  t.teardown(() => bindGate(undefined));
  let release!: () => void;
  const call = native(() => new Promise<string>((r) => (release = () => r('done'))));
  const second = native(async () => 'quick');
  t.equal(Atomics.load(g, 0), 2, 'two calls in flight on the gate');
  t.equal(await second, 'quick');
  t.equal(Atomics.load(g, 0), 1, 'one left');
  t.equal(nativeInFlight(), 1);

  let closed = false;
  const closing = closeGate(g).then(() => (closed = true));
  await new Promise((r) => setTimeout(r, 20));
  t.equal(closed, false, 'the pool may not stop the worker while a call is in flight');
  let idle = false;
  const idling = nativeIdle().then(() => (idle = true));
  t.equal(idle, false);

  release();
  t.equal(await call, 'done');
  await closing;
  await idling;
  t.equal(closed, true, 'stop allowed once the call returned');
  t.equal(idle, true);
  t.equal(Atomics.load(g, 0), STOPPING);
  await t.rejects(native(async () => 'late'), { message: 'the pool is stopping this task' }, 'no call starts after the stop');
  t.equal(nativeInFlight(), 0, 'a refused call is not counted');
});

t.test('an idle gate closes at once; a failing call still leaves the gate', async (t) => {
  const g = newGate();
  bindGate(g);
  t.teardown(() => bindGate(undefined));
  await t.rejects(native(async () => { throw new Error('model failed'); }), { message: 'model failed' });
  t.equal(Atomics.load(g, 0), 0, 'count back to 0 after a throw');
  await closeGate(g);
  t.equal(Atomics.load(g, 0), STOPPING);
  await closeGate(g);
  t.equal(Atomics.load(g, 0), STOPPING, 'closing twice is harmless');
});

t.test('outside a pool (no gate) calls run and are only counted in the thread', async (t) => {
  bindGate(undefined);
  t.equal(await native(async () => 7), 7);
  t.equal(nativeInFlight(), 0);
  await nativeIdle();
});

t.test('in a pool worker a native call outside a task is refused (a call left behind by a finished task)', async (t) => {
  markPoolThread();
  bindGate(undefined);
  let called = false;
  await t.rejects(native(async () => (called = true)), { message: /outside a pool task/ });
  t.equal(called, false, 'the call did not start');
  t.equal(nativeInFlight(), 0);
  const g = newGate();
  bindGate(g);
  t.teardown(() => bindGate(undefined));
  t.equal(await native(async () => 'in a task'), 'in a task', 'inside a task it runs');
  t.equal(Atomics.load(g, 0), 0);
});

t.test('closeGateSync: closes an idle gate; waits at most its timeout for a call in flight', async (t) => {
  const idle = newGate();
  t.equal(closeGateSync(idle, 1000), true);
  t.equal(Atomics.load(idle, 0), STOPPING);
  const busy = newGate();
  Atomics.store(busy, 0, 1); // a call in flight in another thread
  t.equal(closeGateSync(busy, 30), false, 'not closed: the call is still in flight at the deadline');
  t.equal(Atomics.load(busy, 0), 1, 'the count is left alone');
  Atomics.store(busy, 0, 0);
  t.equal(closeGateSync(busy, 30), true);
  t.equal(Atomics.load(busy, 0), STOPPING);
});
