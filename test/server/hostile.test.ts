// Hostile input at the front end (issue 12 items 1 and 6): malformed % escapes on every parameterised route,
// request ids on every answer, the last-resort guard, body caps on open routes and the global body budget.
import t from 'tap';
import net from 'node:net';
import { startTestServer } from '../helpers/server.js';
import { HttpServer } from '../../src/server/app.js';
import type { RouteDef } from '../../src/server/types.js';

const errorShape = { success: false, error: { code: String, message: String } };

t.test('malformed escapes, request ids, the last-resort guard', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const routes = s.http.routes;
  const parameterised = routes.filter((r) => r.path.includes('/:'));
  t.ok(parameterised.length >= 10, `${parameterised.length} parameterised routes`);
  for (const r of parameterised) {
    for (const bad of ['%ff', '%zz', '%']) {
      const first = r.path.split('/').find((x) => x.startsWith(':'))!.slice(1);
      const url = r.path.replace(/:[A-Za-z_]+/g, (m) => (m.slice(1) === first ? bad : 'x'));
      const res = await fetch(`${s.url}${url}`, { method: r.method, headers: { 'x-api-key': s.apiKey } });
      const body = await res.json();
      t.equal(res.status, 400, `${r.method} ${url}`);
      t.match(body, { success: false, error: { code: 'INVALID_REQUEST', field: first, message: new RegExp(`for ${first} but received`) } }, `${r.method} ${url} names ${first}`);
      t.ok(res.headers.get('x-request-id'), 'request id');
    }
  }
  const health = await fetch(`${s.url}/health`);
  t.equal(health.status, 200, 'still up');

  // request ids: kept when sane, replaced when not, on 404 and 405 too
  const nf = await fetch(`${s.url}/nope`, { headers: { 'x-request-id': 'abc-123.x:y_z' } });
  t.equal(nf.status, 404);
  t.equal(nf.headers.get('x-request-id'), 'abc-123.x:y_z');
  t.match(await nf.json(), { success: false, error: { code: 'NOT_FOUND' } });
  const na = await fetch(`${s.url}/health`, { method: 'PUT', headers: { 'x-request-id': 'bad id with spaces' } });
  t.equal(na.status, 405);
  t.match(na.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'insane id replaced by a UUID');
  t.match(await na.json(), { success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  const long = await fetch(`${s.url}/health`, { headers: { 'x-request-id': 'a'.repeat(65) } });
  t.match(long.headers.get('x-request-id'), /^[0-9a-f-]{36}$/, 'too long id replaced');
  const opt = await fetch(`${s.url}/health`, { method: 'OPTIONS' });
  t.equal(opt.status, 204);
  t.ok(opt.headers.get('x-request-id'));

  // a handler that throws synchronously, one that rejects, and a stream that throws: 500 with the request id
  const boom: RouteDef[] = [
    { method: 'GET', path: '/t/sync/:id', auth: 'none', summary: 't', handler: () => { throw new TypeError('sync boom'); } },
    { method: 'GET', path: '/t/async', auth: 'none', summary: 't', handler: async () => { await Promise.resolve(); throw new RangeError('async boom'); } },
    { method: 'GET', path: '/t/stream', auth: 'none', summary: 't', stream: async () => { throw new Error('stream boom'); } },
  ];
  const fe = new HttpServer(s.services, boom);
  const port = await fe.listen('127.0.0.1', 0);
  t.teardown(() => fe.close(100));
  for (const p of ['/t/sync/1', '/t/async']) {
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { 'x-request-id': 'rid-500' } });
    t.equal(res.status, 500, p);
    t.equal(res.headers.get('x-request-id'), 'rid-500');
    t.match(await res.json(), { success: false, error: { code: 'INTERNAL_ERROR' } });
  }
  const st = await fetch(`http://127.0.0.1:${port}/t/stream`);
  t.equal(st.status, 200, 'the stream had started');
  t.equal(await st.text(), '', 'the failed stream is closed');
  const after = await fetch(`http://127.0.0.1:${port}/t/sync/%ff`);
  t.equal(after.status, 400, 'still serving after the throws');
  t.match(await after.json(), errorShape);
});

/** Send headers with a Content-Length and part of the body, return the status line (or '' when closed). */
function partialPost(port: number, path: string, key: string, length: number, send: number): Promise<{ sock: net.Socket; status: Promise<string> }> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1', () => {
      sock.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`);
      if (send) sock.write(Buffer.alloc(send, 0x20));
      let data = '';
      const status = new Promise<string>((r) => {
        sock.on('data', (d) => { data += d.toString(); if (data.includes('\r\n')) r(data); });
        sock.on('close', () => r(data));
        sock.on('error', () => r(data));
      });
      resolve({ sock, status });
    });
  });
}

t.test('open routes have small body caps; the body budget answers 503 and is given back', async (t) => {
  const s = await startTestServer({ env: { SEJONG_BODY_BUDGET_MB: '2' } });
  t.teardown(() => s.close());
  const big = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(300 * 1024, 0x20) });
  t.equal(big.status, 413, '300 KB to /mcp');
  t.match(await big.json(), { success: false, error: { code: 'PAYLOAD_TOO_LARGE', message: /262144/ } });
  const login = await fetch(`${s.url}/console/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(5000, 0x20) });
  t.equal(login.status, 413, 'console login');

  // a keyed route: three 900 KB bodies being sent fill the 2 MB budget; the third gets 503 before any byte is read
  const path = '/api/v1/ekyc/ocr';
  const a = await partialPost(s.port, path, s.apiKey, 900 * 1024, 1000);
  const b = await partialPost(s.port, path, s.apiKey, 900 * 1024, 1000);
  await new Promise((r) => setTimeout(r, 100));
  t.equal(s.http.budget.inUse, 2 * 900 * 1024, 'two bodies reserved');
  const c = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json' }, body: Buffer.alloc(900 * 1024, 0x20) });
  t.equal(c.status, 503);
  t.equal(c.headers.get('retry-after'), '1');
  t.ok(c.headers.get('x-request-id'));
  t.match(await c.json(), { success: false, error: { code: 'SERVICE_BUSY' } });
  a.sock.destroy();
  b.sock.destroy();
  await new Promise((r) => setTimeout(r, 200));
  t.equal(s.http.budget.inUse, 0, 'aborted bodies give their reservation back');
  const d = await fetch(`${s.url}${path}`, { method: 'POST', headers: { 'x-api-key': s.apiKey, 'content-type': 'application/json' }, body: '{}' });
  t.ok([400, 415].includes(d.status), `a normal request is answered again (${d.status})`);
  t.equal(s.http.budget.inUse, 0);
});

t.test('multipart: a duplicated text field is refused, naming it', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const fd = new FormData();
  fd.append('doc_type', 'jumin');
  fd.append('doc_type', 'driver');
  const res = await s.req('/api/v1/ekyc/ocr', { method: 'POST', body: fd });
  t.equal(res.status, 400);
  t.match(await res.json(), { success: false, error: { code: 'INVALID_REQUEST', field: 'doc_type', message: 'The field doc_type was sent more than once; send it once' } });
  const undeclared = new FormData();
  undeclared.append('image_url', 'http://127.0.0.1/a.png');
  const u = await s.req('/api/v1/ekyc/ocr', { method: 'POST', body: undeclared });
  t.equal(u.status, 400);
  t.match(await u.json(), { success: false, error: { code: 'INVALID_REQUEST', field: 'image_url', message: 'Unknown part image_url; this endpoint accepts image, doc_type, fields' } });
});
