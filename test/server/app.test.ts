import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server/start.js';
import { HttpServer, nativeUwsLoaded } from '../../src/server/app.js';
import { defineRoute, multipart, reply, type RouteDef } from '../../src/server/types.js';
import { form } from '../../src/server/validate.js';
import { formData } from '../helpers/server.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5e6d5d20000000049454e44ae426082', 'hex');

t.test('native uWS binary is loaded, not the JS fallback', async (t) => {
  t.equal(nativeUwsLoaded(), true);
});

t.test('front end: multipart rules, onAborted, graceful close finishes in-flight requests', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-app-'));
  const s = await startServer(loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dir, SEJONG_ADMIN_KEY: 'sk_admin_app_test_0000', SEJONG_WORKERS: '1', SEJONG_LOG_LEVEL: 'silent' }), { log: pino({ level: 'silent' }) });
  // a second front end on the same services with test routes
  let slowDone = false;
  // the slow route is driven by events, not sleeps: it says when it is in its handler and waits for the test to let it go
  const deferred = () => {
    let resolve!: () => void;
    const p = new Promise<void>((r) => (resolve = r));
    return { p, resolve };
  };
  let entered = deferred();
  let gate = deferred();
  const routes: RouteDef[] = [
    defineRoute({
      method: 'POST', path: '/t/upload/:name', auth: 'none', summary: 'test',
      body: multipart({ fields: z.object({ note: z.string().max(5).optional(), n: form.number(0, 1).optional() }).strict(), files: { image: { required: true, maxBytes: 1000 } } }),
      maxBodyBytes: 5000,
      handler: (ctx) => ({ name: ctx.params.name, note: ctx.body.note ?? null, n: ctx.body.n ?? null, format: ctx.files.image!.format, size: ctx.files.image!.data.length }),
    }),
    {
      method: 'GET', path: '/t/slow', auth: 'none', summary: 'slow',
      handler: async () => {
        entered.resolve();
        await gate.p;
        slowDone = true;
        return reply.binary(Buffer.from('done'), 'text/plain');
      },
    },
  ];
  const fe = new HttpServer(s.services, routes);
  const port = await fe.listen('127.0.0.1', 0);
  const base = `http://127.0.0.1:${port}`;
  t.teardown(async () => {
    await s.close();
  });

  const ok = await fetch(`${base}/t/upload/x%20y`, { method: 'POST', body: formData({ note: 'hi', n: '0.5' }, { image: { data: PNG, type: 'image/png' } }) });
  t.same(await ok.json(), { name: 'x y', note: 'hi', n: 0.5, format: 'png', size: PNG.length });
  const missing = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({ note: 'hi' }) });
  t.match(await missing.json(), { error: { code: 'INVALID_REQUEST', field: 'image', message: 'The file part image is required' } });
  const notImage = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({}, { image: { data: Buffer.from('hello world') } }) });
  t.equal(notImage.status, 415);
  t.match(await notImage.json(), { error: { code: 'UNSUPPORTED_MEDIA_TYPE', field: 'image', message: /not an image/ } });
  const bigPart = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({}, { image: { data: Buffer.concat([PNG, Buffer.alloc(2000)]) } }) });
  t.equal(bigPart.status, 413);
  t.match(await bigPart.json(), { error: { code: 'PAYLOAD_TOO_LARGE', field: 'image' } });
  const bigBody = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({}, { image: { data: Buffer.concat([PNG, Buffer.alloc(9000)]) } }) });
  t.equal(bigBody.status, 413, 'whole-body cap');
  const badNum = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({ n: '7' }, { image: { data: PNG } }) });
  t.match(await badNum.json(), { error: { field: 'n', message: 'Expected a number at most 1 for n but received number 7' } });
  const unknown = await fetch(`${base}/t/upload/a`, { method: 'POST', body: formData({ zzz: '1' }, { image: { data: PNG } }) });
  t.match(await unknown.json(), { error: { field: 'zzz', message: 'Unknown part zzz; this endpoint accepts image, note, n' } });
  const json = await fetch(`${base}/t/upload/a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(json.status, 415, 'JSON to a multipart route');
  const longParam = await fetch(`${base}/t/upload/${'a'.repeat(201)}`, { method: 'POST', body: formData({}, { image: { data: PNG } }) });
  t.equal(longParam.status, 400, 'path parameters are validated');
  t.match(await longParam.json(), { error: { code: 'INVALID_REQUEST', field: 'name', message: 'Expected a path parameter of 1 to 200 characters for name but received string "201 characters"' } });

  // a client that goes away mid-request does not crash the server
  const ac = new AbortController();
  const gone = fetch(`${base}/t/slow`, { signal: ac.signal }).catch((e) => e);
  await entered.p;
  ac.abort();
  t.equal((await gone).name, 'AbortError');
  gate.resolve();

  // graceful close: the in-flight slow request still completes, then the port stops accepting
  slowDone = false;
  entered = deferred();
  gate = deferred();
  const inflight = fetch(`${base}/t/slow`).then((r) => r.text());
  await entered.p;
  const closing = fe.close();
  setImmediate(gate.resolve); // let close() reach its drain wait first
  t.equal(await inflight, 'done', 'in-flight request finished during close');
  await closing;
  t.equal(slowDone, true);
  const refused = await fetch(`${base}/t/slow`).catch((e) => e);
  t.ok(refused instanceof Error, 'no longer accepting');
});
