// Job access keys are rate limited per token and per address; the console sign-in is throttled per address.
import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('job access keys: per-token and per-address limits', async (t) => {
  const s = await startTestServer({ manualClock: true, env: { SEJONG_TOKEN_RATE_PER_MINUTE: '3' } });
  t.teardown(() => s.close());
  const poll = (token: string) => fetch(`${s.url}/api/v1/receipt/status/nojob`, { headers: { authorization: `Bearer ${token}` } });
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) codes.push((await poll('tok_a')).status);
  t.same(codes.slice(0, 3), [404, 404, 404], 'three polls reach the route');
  t.equal(codes[3], 429, 'the fourth poll of one token is refused');
  const limited = await poll('tok_a');
  t.match(await limited.json(), { success: false, error: { code: 'RATE_LIMITED', message: /job access keys/ } });
  t.ok(Number(limited.headers.get('retry-after')) >= 1);
  // guessing with fresh tokens: the address allows 10 × 3 per minute in all
  let refused = 0;
  let firstRefused = -1;
  for (let i = 0; i < 40; i++) {
    const r = await poll(`guess_${i}`);
    if (r.status === 429) {
      refused++;
      if (firstRefused < 0) firstRefused = i;
    }
  }
  t.equal(firstRefused, 27, 'the address budget (30) is spent after 27 guesses (3 polls counted before; refused ones are not)');
  t.equal(refused, 13);
  // the key holder is not affected
  const keyed = await s.req('/api/v1/receipt/status/nojob');
  t.equal(keyed.status, 404);
  // a new minute frees the token
  (s.clock as unknown as { advance(ms: number): void }).advance(61_000);
  t.equal((await poll('tok_a')).status, 404);
});

t.test('console sign-in: 5 free failures, then exponential lock-out with 429 and Retry-After', async (t) => {
  const s = await startTestServer({ manualClock: true, env: { SEJONG_CONSOLE_PASSWORD: 'right-password' } });
  t.teardown(() => s.close());
  const login = (password: string) => fetch(`${s.url}/console/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
  const clock = s.clock as unknown as { advance(ms: number): void };
  for (let i = 0; i < 4; i++) t.equal((await login('wrong')).status, 401, `failure ${i + 1}`);
  t.equal((await login('wrong')).status, 401, 'fifth failure still answered, now locks 1 s');
  const locked = await login('right-password');
  t.equal(locked.status, 429, 'even the right password waits while locked');
  t.equal(locked.headers.get('retry-after'), '1');
  t.match(await locked.json(), { success: false, error: { code: 'RATE_LIMITED', message: /wrong passwords/ } });
  clock.advance(1000);
  t.equal((await login('wrong')).status, 401, 'sixth failure: lock 2 s');
  const l2 = await login('wrong');
  t.equal(l2.status, 429);
  t.equal(l2.headers.get('retry-after'), '2');
  // a wrong cookie on GET /console counts too
  clock.advance(2000);
  const page = await fetch(`${s.url}/console`, { headers: { cookie: 'test_auth=guess' }, redirect: 'manual' });
  t.equal(page.status, 302);
  const l3 = await fetch(`${s.url}/console`, { headers: { cookie: 'test_auth=guess2' }, redirect: 'manual' });
  t.equal(l3.status, 429);
  t.equal(l3.headers.get('retry-after'), '4');
  clock.advance(4000);
  const ok = await login('right-password');
  t.equal(ok.status, 204, 'the right password after the lock');
  t.equal((await login('wrong')).status, 401, 'success cleared the count');
  t.equal((await login('wrong')).status, 401);
});
