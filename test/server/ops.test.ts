// Operability: GET /metrics (route templates, pool, jobs, fetcher refusals, process), its settings, and GET /ready.
import t from 'tap';
import net from 'node:net';
import { startTestServer } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';
import { Readiness } from '../../src/server/readiness.js';
import { MODELS } from '../../src/vision/models.js';

/** value of one sample line in Prometheus text, or undefined */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').pop()) : undefined;
}

t.test('/metrics: requests by route template and status, pool, jobs, fetcher refusals, process', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const id = 'receipt_20261122_doesnotexist';
  t.equal((await s.req(`/api/v1/receipt/status/${id}`)).status, 404);
  t.equal((await s.req(`/api/v1/receipt/status/${id}`)).status, 404);
  t.equal((await s.req('/health', { key: null })).status, 200);
  t.equal((await s.req('/api/v1/no-such-route/secret-id-123', { key: null })).status, 404);
  const refused = await s.req('/api/v1/studio/mosaic', { method: 'POST', json: { imageUrl: 'http://127.0.0.1:1/x.png', regions: [{ x: 0, y: 0, width: 4, height: 4 }] } });
  t.equal(refused.status, 400);
  const { job } = await s.services.jobs.create({ family: 'receipt', owner: s.apiKeyId, estimatedCost: 0, meta: {} });
  await s.services.jobs.run(job.id, async () => ({ result: {} }));

  const m = await s.req('/metrics', { key: null });
  t.equal(m.status, 200);
  t.match(m.headers.get('content-type'), /^text\/plain/);
  const text = await m.text();
  t.equal(sample(text, 'sejong_http_requests_total', 'route="/api/v1/receipt/status/:job_id",method="GET",status="404"'), 2);
  t.equal(sample(text, 'sejong_http_requests_total', 'route="/health",method="GET",status="200"'), 1);
  t.notOk(text.includes(id), 'no raw ids or paths in labels');
  t.notOk(text.includes('secret-id-123'), 'an unrouted path leaves no label');
  t.equal(sample(text, 'sejong_http_request_duration_seconds_count', 'route="/api/v1/receipt/status/:job_id",method="GET"'), 2);
  t.equal(sample(text, 'sejong_pool_workers'), 1);
  t.equal(sample(text, 'sejong_pool_queue'), 0);
  t.equal(sample(text, 'sejong_jobs_finished_total', 'family="receipt",state="completed"'), 1);
  t.equal(sample(text, 'sejong_job_duration_seconds_count', 'family="receipt",state="completed"'), 1);
  t.equal(sample(text, 'sejong_fetch_refusals_total'), 1);
  t.ok((sample(text, 'sejong_process_cpu_user_seconds_total') ?? -1) > 0, 'process metrics');
  t.ok(text.includes('sejong_law_documents'), 'law gauge present');
});

t.test('/metrics: pool refusals by reason, beside the answers refused with SERVICE_BUSY', async (t) => {
  const s = await startTestServer({ env: { SEJONG_QUEUE_SIZE: '1' } });
  t.teardown(() => s.close());
  const before = await (await s.req('/metrics', { key: null })).text();
  // the labelled series exist before their first event (dashboards and alerts see a 0, not nothing)
  t.equal(sample(before, 'sejong_http_refusals_total', 'code="RATE_LIMITED"'), 0);
  t.equal(sample(before, 'sejong_jobs_finished_total', 'family="receipt",state="failed"'), 0);
  t.equal(sample(before, 'sejong_job_duration_seconds_count', 'family="txt2img",state="completed"'), 0);
  t.equal(sample(before, 'sejong_jobs_processing', 'family="ekyc_enhance"'), 0);
  t.equal(sample(before, 'sejong_pool_refusals_total', 'reason="queue_full"'), 0, 'each reason is there from the start');
  t.equal(sample(before, 'sejong_pool_task_timeouts_total'), 0);
  // a secured place fills the one-task queue: the next synchronous task is refused
  const ticket = s.services.pool.admit('pool-selftest');
  const r = await s.req('/api/v1/qrcode/generate?data=x&size=128x128', { key: null });
  ticket.release();
  t.equal(r.status, 503);
  t.equal(((await r.json()) as { error: { code: string } }).error.code, 'SERVICE_BUSY');
  const text = await (await s.req('/metrics', { key: null })).text();
  t.equal(sample(text, 'sejong_pool_refusals_total', 'reason="queue_full"'), 1);
  t.equal(sample(text, 'sejong_pool_refusals_total', 'reason="wait_budget"'), 0);
  t.equal(sample(text, 'sejong_http_refusals_total', 'code="SERVICE_BUSY"'), 1);
  t.equal(sample(text, 'sejong_http_requests_total', 'route="/api/v1/qrcode/generate",method="GET",status="503"'), 1);
});

t.test('/metrics off, or on its own address', async (t) => {
  const off = await startTestServer({ env: { SEJONG_METRICS: 'off' } });
  t.teardown(() => off.close());
  t.equal((await off.req('/metrics', { key: null })).status, 404);

  const port = await new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
  const sep = await startTestServer({ env: { SEJONG_METRICS_ADDR: `127.0.0.1:${port}` } });
  t.teardown(() => sep.close());
  t.equal((await sep.req('/metrics', { key: null })).status, 404, 'not on the service port');
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  t.equal(r.status, 200);
  t.match(await r.text(), /sejong_pool_workers 1/);
  t.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
});

t.test('/ready: 200 once the store, the pool and the models on every worker answer, with its checks', async (t) => {
  const s = await startTestServer({ workers: 2 });
  t.teardown(() => s.close());
  // the test server starts with SEJONG_WARMUP=off: the first probe starts the warm-up (503 + Retry-After until done)
  let r = await s.req('/ready', { key: null });
  let body = (await r.json()) as { status: string; checks: Record<string, { ok: boolean; detail?: string }> };
  for (let i = 0; i < 300 && r.status !== 200; i++) {
    t.equal(r.headers.get('retry-after'), '1');
    await new Promise((res) => setTimeout(res, 100));
    r = await s.req('/ready', { key: null });
    body = (await r.json()) as typeof body;
  }
  t.equal(r.status, 200);
  t.equal(body.status, 'ready');
  const engines = s.services.engines.mode === 'shared' ? ['database', 'redis'] : [];
  t.same(Object.keys(body.checks).sort(), [...engines, 'draining', 'models', 'pool', 'store'].sort());
  t.match(body.checks.models?.detail, new RegExp(`^${Object.keys(MODELS).length} models on \\d of 2 workers`));
  t.ok(r.headers.get('x-request-id'));
});

t.test('readiness says not ready while draining', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  let draining = false;
  const r = new Readiness(s.services, () => draining);
  r.warmUp();
  let c = await r.check();
  for (let i = 0; i < 300 && !c.ready; i++) {
    await new Promise((res) => setTimeout(res, 100));
    c = await r.check();
  }
  t.equal(c.ready, true);
  draining = true;
  c = await r.check();
  t.equal(c.ready, false);
  t.same(c.checks.draining, { ok: false, detail: 'shutting down' });
});

t.test('shared mode: /ready is 503 while Redis is away, 200 again when it is back', { skip: enginesMissing() }, async (t) => {
  const shared = await sharedModeEnv();
  const s = await startTestServer({ storage: 'shared', sharedEnv: shared.env });
  t.teardown(async () => {
    await s.close();
    await shared.redis.remove();
  });
  const ready = async () => {
    const r = await s.req('/ready', { key: null });
    return { status: r.status, body: (await r.json()) as { checks: Record<string, { ok: boolean; detail?: string }> } };
  };
  const until = async (status: number) => {
    let r = await ready();
    for (let i = 0; i < 300 && r.status !== status; i++) {
      await new Promise((res) => setTimeout(res, 100));
      r = await ready();
    }
    return r;
  };
  let r = await until(200);
  t.equal(r.status, 200);
  t.same([r.body.checks.database?.ok, r.body.checks.redis?.ok], [true, true]);
  await shared.redis.stop();
  r = await until(503);
  t.equal(r.status, 503, 'not ready without Redis');
  t.equal(r.body.checks.redis?.ok, false);
  t.equal(r.body.checks.database?.ok, true);
  t.equal((await s.req('/health', { key: null })).status, 200, 'still alive');
  await shared.redis.start();
  r = await until(200);
  t.equal(r.status, 200, 'ready again once Redis answers');
});
