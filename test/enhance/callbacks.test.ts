// Completion callbacks: Standard Webhooks signature, delivery, retry after 500, not lost (nor repeated) across a restart.
import t from 'tap';
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';
import { sign, verify, backoffMs, type Callbacks } from '../../src/providers/callbacks.js';

const SECRET = 'whsec_' + Buffer.from('sejong-test-secret-0123456789abcdef').toString('base64');

/** The receiver-side check documented in docs/enhance.md, written out with node:crypto only. */
function receiverVerifies(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id']), ts = String(headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = crypto.createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');
  return String(headers['webhook-signature']).split(' ').some((s) => s === `v1,${expected}`);
}

interface Received { headers: http.IncomingHttpHeaders; body: string }

async function receiver(): Promise<{ url: string; got: Received[]; status: { code: number }; close(): Promise<void> }> {
  const got: Received[] = [];
  const status = { code: 200 };
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status.code, { 'content-type': 'text/plain' }).end(status.code === 200 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hook`, got, status, close: () => new Promise((r) => srv.close(() => r())) };
}

const cbOf = (s: TestServer): Callbacks => s.services.ext.callbacks!;

async function waitJob(s: TestServer, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 600; i++) {
    const r = await (await s.req(`/api/v1/ekyc/enhance/status/${id}`)).json();
    if (r.status !== 'processing') return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('job did not finish');
}

async function until(fn: () => boolean, s: TestServer): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await cbOf(s).tick();
    await cbOf(s).idle();
    if (fn()) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // the receiver may have the request while the dispatcher still waits for the answer: let it record the outcome
  await cbOf(s).idle();
}

t.test('signature: the Standard Webhooks test vector, verify(), tampering and age', async (t) => {
  // vector from the Standard Webhooks reference libraries
  const s = sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
  t.equal(s, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  const h = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1700000000', 'webhook-signature': sign(SECRET, 'msg_1', 1700000000, '{"a":1}') };
  t.equal(verify(SECRET, h, '{"a":1}'), true);
  t.equal(verify(SECRET, h, '{"a":2}'), false, 'body changed');
  t.equal(verify(SECRET, { ...h, 'webhook-id': 'msg_2' }, '{"a":1}'), false, 'id changed');
  t.equal(verify('whsec_' + Buffer.from('other').toString('base64'), h, '{"a":1}'), false, 'other secret');
  t.equal(verify(SECRET, h, '{"a":1}', 1700000000 + 3600), false, 'too old');
  t.equal(verify(SECRET, { ...h, 'webhook-signature': `v1,AAAA ${h['webhook-signature']}` }, '{"a":1}'), true, 'one of several signatures');
  t.equal(backoffMs(1), 5000);
  t.ok(backoffMs(50) <= 1_800_000);
});

t.test('callback: delivered with a verified signature, callback_meta unchanged, retried after 500 with the same id', async (t) => {
  const rcv = await receiver();
  const s = await startTestServer({ manualClock: true, workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_WEBHOOK_SECRET: SECRET } });
  t.teardown(async () => { await s.close(); await rcv.close(); });
  rcv.status.code = 500;
  const card = await renderCard('jumin', { seed: 4, degrade: { blur: 1 } });
  const meta = { orderId: 'A-17', nested: { list: [1, 'two', null] } };
  const r = await s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'jumin', callback_url: rcv.url, callback_meta: JSON.stringify(meta), tenant_id: 'bank-a' }, { image: { data: card.image, type: 'image/png' } }) });
  t.equal(r.status, 202, 'asynchronous answer at once');
  const created = await r.json();
  t.match(created, { success: true, status: 'processing', jobId: /^ekyc-enhance-/ });
  const done = await waitJob(s, created.jobId);
  t.equal(done.status, 'completed');
  await until(() => rcv.got.length >= 1, s);
  t.equal(rcv.got.length, 1, 'first attempt made');
  const st1 = await (await s.req(`/api/v1/ekyc/enhance/status/${created.jobId}`)).json();
  t.match(st1.callback, { state: 'pending', attempts: 1, lastStatus: 500 });
  // not yet due: nothing happens
  await cbOf(s).tick();
  await cbOf(s).idle();
  t.equal(rcv.got.length, 1, 'no retry before the backoff');
  rcv.status.code = 200;
  (s.clock as any).advance(6_000);
  await until(() => rcv.got.length >= 2, s);
  t.equal(rcv.got.length, 2, 'retried after the backoff');
  const [a, b] = rcv.got;
  t.equal(a!.headers['webhook-id'], b!.headers['webhook-id'], 'same webhook-id on the retry');
  t.not(a!.headers['webhook-timestamp'], b!.headers['webhook-timestamp'], 'each attempt signs its own timestamp');
  for (const g of rcv.got) {
    t.equal(receiverVerifies(SECRET, g.headers, g.body), true, 'signature verified the documented way');
    t.equal(verify(SECRET, g.headers as Record<string, string>, g.body), true);
  }
  const body = JSON.parse(b!.body);
  t.match(body, { type: 'ekyc.enhance.completed', jobId: created.jobId, status: 'completed', result: { success: true, jobId: created.jobId, tilesProcessed: 15 } });
  t.same(body.callback_meta, meta, 'callback_meta returned unchanged');
  t.equal(b!.headers['content-type'], 'application/json');
  const st2 = await (await s.req(`/api/v1/ekyc/enhance/status/${created.jobId}`)).json();
  t.match(st2.callback, { state: 'delivered', attempts: 2, lastStatus: 200 });
  (s.clock as any).advance(3_600_000);
  await cbOf(s).tick();
  await cbOf(s).idle();
  t.equal(rcv.got.length, 2, 'no delivery after success');
});

t.test('callback: a pending delivery survives a restart and is delivered once', async (t) => {
  const rcv = await receiver();
  let s = await startTestServer({ manualClock: true, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_WEBHOOK_SECRET: SECRET } });
  t.teardown(async () => { await s.close(); await rcv.close(); });
  rcv.status.code = 503;
  const card = await renderCard('driver', { seed: 8 });
  const r = await s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'driver', callback_url: rcv.url }, { image: { data: card.image, type: 'image/png' } }) });
  const { jobId } = await r.json();
  await waitJob(s, jobId);
  await until(() => rcv.got.length >= 1, s);
  t.equal(rcv.got.length, 1);
  const id = rcv.got[0]!.headers['webhook-id'];
  s = await s.restart();
  rcv.status.code = 200;
  (s.clock as any).advance(6_000);
  await until(() => rcv.got.length >= 2, s);
  t.equal(rcv.got.length, 2, 'delivered after the restart');
  t.equal(rcv.got[1]!.headers['webhook-id'], id, 'same webhook-id as before the restart');
  t.equal(receiverVerifies(SECRET, rcv.got[1]!.headers, rcv.got[1]!.body), true);
  s = await s.restart();
  (s.clock as any).advance(3_600_000);
  await cbOf(s).tick();
  await cbOf(s).idle();
  t.equal(rcv.got.length, 2, 'not delivered again after another restart');
});

t.test('callback: a job interrupted by a restart still gets its (failed) callback; retries stop after the window', async (t) => {
  const rcv = await receiver();
  let s = await startTestServer({ manualClock: true, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_CALLBACK_RETRY_HOURS: '1' } });
  t.teardown(async () => { await s.close(); await rcv.close(); });
  // register a callback for a job that is still processing, then stop without finishing it
  const { job } = await s.services.jobs.create({ family: 'ekyc_enhance', owner: s.apiKeyId });
  await cbOf(s).register({ jobId: job.id, url: rcv.url, meta: { k: 1 }, type: 'ekyc.enhance' });
  s = await s.restart(); // start-up marks the job failed; its callback is armed
  await until(() => rcv.got.length >= 1, s);
  t.equal(rcv.got.length, 1);
  const body = JSON.parse(rcv.got[0]!.body);
  t.match(body, { type: 'ekyc.enhance.failed', jobId: job.id, status: 'failed', result: null, error: { code: 'INTERNAL_ERROR' }, callback_meta: { k: 1 } });
  const secret = (await (await s.req('/api/v1/ekyc/enhance/webhook-secret', { key: s.adminKey })).json()).secret;
  t.match(secret, /^whsec_/, 'generated secret shown to the admin');
  t.equal(receiverVerifies(secret, rcv.got[0]!.headers, rcv.got[0]!.body), true, 'signed with the generated (stored) secret');
  t.equal((await s.req('/api/v1/ekyc/enhance/webhook-secret')).status, 403, 'not for API keys');
  // a receiver that keeps failing: attempts until the retry window (1 h) closes, then failed
  rcv.status.code = 500;
  const { job: j2 } = await s.services.jobs.create({ family: 'ekyc_enhance', owner: s.apiKeyId });
  const rec = await cbOf(s).register({ jobId: j2.id, url: rcv.url, type: 'ekyc.enhance' });
  await s.services.jobs.fail(j2.id, 'INTERNAL_ERROR', 'test');
  const before = rcv.got.length;
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 20)); // let LMDB commit (the listener arms asynchronously)
    await cbOf(s).tick();
    await cbOf(s).idle();
    (s.clock as any).advance(5 * 60_000);
  }
  const attempts = rcv.got.length - before;
  t.ok(attempts >= 6, `retried ${attempts} times within the hour`);
  const final = cbOf(s).get(rec.id)!;
  t.equal(final.state, 'failed');
  t.equal(final.body, undefined, 'the body is not kept after giving up');
  t.ok(final.doneAt! - final.armedAt! >= 60 * 60_000, `gave up only at the end of the window (${(final.doneAt! - final.armedAt!) / 60_000} min)`);
});

t.test('callback: a receiver that does not answer in time is retried (same id)', async (t) => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const { default: pino } = await import('pino');
  const { Store } = await import('../../src/store/env.js');
  const { LmdbBlobStore } = await import('../../src/store/blobs.js');
  const { JobEngine } = await import('../../src/jobs/engine.js');
  const { SafeFetcher } = await import('../../src/providers/fetch.js');
  const { ManualClock } = await import('../../src/clock.js');
  const { Callbacks } = await import('../../src/providers/callbacks.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cb-'));
  const store = new Store(dir);
  const clock = new ManualClock();
  const jobs = new JobEngine(store, new LmdbBlobStore(store), clock);
  const fetcher = new SafeFetcher({ allow: ['127.0.0.1'], timeoutMs: 5000, maxBytes: 1 << 20 });
  const cb = new Callbacks({ store, clock, fetcher, jobs, log: pino({ level: 'silent' }), config: { webhookSecret: SECRET, callbackRetryHours: 1 } }, { timeoutMs: 300, pollMs: 3_600_000 });
  // first request: no answer at all; later ones: 204
  const got: string[] = [];
  const srv = http.createServer((req, res) => {
    got.push(String(req.headers['webhook-id']));
    req.resume();
    if (got.length > 1) res.writeHead(204).end();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  t.teardown(async () => {
    await cb.stop();
    srv.closeAllConnections();
    await new Promise((r) => srv.close(r));
    await fetcher.close();
    await store.close();
  });
  await cb.start();
  const { job } = await jobs.create({ family: 'ekyc_pipeline' });
  const rec = await cb.register({ jobId: job.id, url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`, type: 'ekyc.pipeline' });
  await jobs.complete(job.id, { result: { success: true } });
  for (let i = 0; i < 100 && (cb.get(rec.id)?.attempts ?? 0) < 1; i++) {
    await new Promise((r) => setTimeout(r, 20));
    await cb.tick();
    await cb.idle();
  }
  t.match(cb.get(rec.id), { state: 'pending', attempts: 1, lastError: /time limit/ }, 'the silent receiver timed out');
  clock.advance(6_000);
  await cb.tick();
  await cb.idle();
  t.match(cb.get(rec.id), { state: 'delivered', attempts: 2, lastStatus: 204 });
  t.same(got, [rec.id, rec.id], 'both attempts with the same webhook-id');
});
