import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('health, 404 and 405 share one error shape', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const h = await s.req('/health', { key: null });
  t.equal(h.status, 200);
  t.same(await h.json(), { status: 'ok' });
  t.match(h.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'a fresh id when none is sent');
  const nf = await s.req('/nope', { key: null, headers: { 'x-request-id': 'trace-404.a:1' } });
  t.equal(nf.status, 404);
  t.equal(nf.headers.get('x-request-id'), 'trace-404.a:1', 'a sane incoming id is kept on a 404');
  t.same(await nf.json(), { success: false, error: { code: 'NOT_FOUND', message: 'No route GET /nope' } });
  const na = await s.req('/health', { method: 'POST', key: null, headers: { 'x-request-id': 'x'.repeat(65) } });
  t.equal(na.status, 405);
  t.match(na.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'an insane incoming id (too long) is replaced on a 405');
  const bad = await s.req('/api/v1/jobs', { headers: { 'x-request-id': 'has space' }, key: 'sk_not_a_key' });
  t.equal(bad.status, 401);
  t.match(bad.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'and on an error answer of a route');
  t.equal(na.headers.get('allow'), 'GET');
  t.equal((await na.json()).error.code, 'METHOD_NOT_ALLOWED');
});
