// The native-call gate (src/pool/native-gate.ts) in one thread: counting, the pool's stop, the idle wait.
import t from 'tap';
import { bindGate, closeGate, native, nativeIdle, nativeInFlight, newGate, STOPPING } from '../../src/pool/native-gate.js';

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
