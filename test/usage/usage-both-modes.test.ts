// Request log and spend in both modes. Shared mode: two nodes on one database; GET /api/v1/logs on node B shows the
// requests node A served, pages do not repeat or skip, spend recorded on both nodes adds up on either, and the
// tenant usage report is the fleet's.
import t, { type Test } from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';

const logs = async (s: TestServer, key: string, q = '') => {
  const r = await s.req(`/api/v1/logs${q}`, { key });
  return { status: r.status, body: (await r.json()) as { logs: Array<{ path: string; status: number }>; next_cursor?: string } };
};

async function check(t: Test, a: TestServer, b: TestServer) {
  const key = a.apiKey;
  for (let i = 0; i < 3; i++) t.equal((await a.req("/api/v1/jobs?limit=1", { key })).status, 200, `request ${i + 1} on node A`);
  await a.services.requestLog.flush();
  const first = await logs(b, key, '?limit=2');
  t.equal(first.status, 200);
  t.equal(first.body.logs.length, 2, 'a page of 2');
  t.ok(first.body.next_cursor, 'with a cursor');
  const second = await logs(b, key, `?limit=10&cursor=${first.body.next_cursor}`);
  const paths = [...first.body.logs, ...second.body.logs].map((l) => l.path);
  t.equal(paths.filter((p) => p === '/api/v1/jobs').length, 3, 'every request node A served, read on node B, once');
  t.equal((await logs(b, key, '?cursor=bm90LWEtY3Vyc29y')).status, 400, 'a made-up cursor is refused');
  await Promise.all([
    a.services.spend.record({ keyId: a.apiKeyId, tenant: 'acme', family: 'txt2img', cost: 0.01, at: Date.UTC(2026, 10, 22) }),
    b.services.spend.record({ keyId: a.apiKeyId, tenant: 'acme', family: 'txt2img', cost: 0.02, at: Date.UTC(2026, 10, 22) }),
    b.services.spend.record({ keyId: a.apiKeyId, tenant: 'acme', family: 'ocr', cost: 0.005, at: Date.UTC(2026, 10, 22) }),
  ]);
  const rows = await b.services.spend.forKey(a.apiKeyId, '2026-11-22', '2026-11-22');
  t.same(rows, [{ day: '2026-11-22', jobs: 3, cost: 0.035, byFamily: { txt2img: { jobs: 2, cost: 0.03 }, ocr: { jobs: 1, cost: 0.005 } } }], 'three jobs recorded at once on two nodes, none lost');
  const r = await a.req('/api/v1/admin/usage/tenants?from=2026-11-22&to=2026-11-22&tenant=acme', { key: a.adminKey });
  const body = (await r.json()) as { rows: Array<{ tenant: string; jobs: number; costUsd: number }>; totalUsd: number };
  t.equal(r.status, 200);
  t.match(body, { rows: [{ tenant: 'acme', day: '2026-11-22', jobs: 3, costUsd: 0.035 }], totalUsd: 0.035 }, 'the tenant report');
}

t.test('embedded: one node', async (t) => {
  const a = await startTestServer({ storage: 'embedded' });
  t.teardown(() => a.close());
  await check(t, a, a);
});

t.test('shared: node B reads node A\'s log and spend', { skip: enginesMissing() }, async (t) => {
  const { env: sharedEnv, redis } = await sharedModeEnv();
  const a = await startTestServer({ storage: 'shared', sharedEnv });
  const b = await startTestServer({ storage: 'shared', sharedEnv });
  t.teardown(async () => {
    await a.close();
    await b.close();
    await redis.remove();
  });
  await check(t, a, b);
});
