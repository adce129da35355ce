// The console's login throttle in both modes: five free failures, then the address is locked (429 with Retry-After)
// and a right password is refused too until the lock ends. In shared mode the count is the fleet's: guesses spread
// over two nodes are counted together, so a balancer does not multiply them.
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';
import { ManualClock } from '../../src/clock.js';

const env = { SEJONG_CONSOLE_PASSWORD: 'right-password' };
const login = (s: TestServer, password: string) => s.req('/console/login', { method: 'POST', key: null, json: { password } });

t.test('embedded: five free failures, then 429 with Retry-After; a success clears the address', async (t) => {
  const s = await startTestServer({ manualClock: true, env });
  t.teardown(() => s.close());
  t.equal((await login(s, 'right-password')).status, 204, 'the right password signs in');
  for (let i = 0; i < 5; i++) t.equal((await login(s, 'wrong')).status, 401, `failure ${i + 1} is free`);
  const locked = await login(s, 'right-password');
  t.equal(locked.status, 429, 'locked after the fifth failure: even the right password waits');
  t.equal(locked.headers.get('retry-after'), '1', 'locked for 2^0 s');
});

t.test('shared: failures on two nodes count together', { skip: enginesMissing() }, async (t) => {
  const { env: sharedEnv, redis } = await sharedModeEnv();
  // one stopped clock for both nodes: the 1 s lock cannot run out between two requests on a loaded machine
  const manualClock = new ManualClock(Date.now());
  const a = await startTestServer({ storage: 'shared', sharedEnv, env, manualClock });
  const b = await startTestServer({ storage: 'shared', sharedEnv, env, manualClock });
  t.teardown(async () => {
    await a.close();
    await b.close();
    await redis.remove();
  });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await login(i % 2 ? b : a, 'wrong')).status);
  t.same(statuses, [401, 401, 401, 401, 401, 429], 'three failures on each node: the sixth guess is refused (five free in all, not per node)');
  const onA = await login(a, 'right-password');
  t.equal(onA.status, 429, 'the other node sees the lock');
  t.match(onA.headers.get('retry-after'), /^\d+$/, 'with Retry-After');
  const body = (await onA.json()) as { error: { code: string } };
  t.equal(body.error.code, 'RATE_LIMITED');
  manualClock.advance(1001);
  t.equal((await login(b, 'right-password')).status, 204, 'after the lock the right password signs in (on the other node)');
  t.equal((await login(a, 'wrong')).status, 401, 'and the success cleared the count fleet-wide: the next failure is free again');
});
