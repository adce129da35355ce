import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('health, 404 and 405 share one error shape', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const h = await s.req('/health', { key: null });
  t.equal(h.status, 200);
  t.same(await h.json(), { status: 'ok' });
  const nf = await s.req('/nope', { key: null });
  t.equal(nf.status, 404);
  t.same(await nf.json(), { success: false, error: { code: 'NOT_FOUND', message: 'No route GET /nope' } });
  const na = await s.req('/health', { method: 'POST', key: null });
  t.equal(na.status, 405);
  t.equal(na.headers.get('allow'), 'GET');
  t.equal((await na.json()).error.code, 'METHOD_NOT_ALLOWED');
});
