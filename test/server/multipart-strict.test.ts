// Every multipart route refuses a part it does not declare (text or file), a file where a text field is declared
// and text where a file is declared: 400 INVALID_REQUEST naming the part and listing what the endpoint accepts.
import t from 'tap';
import { loadApiModules } from '../../src/server/start.js';
import { fieldNames } from '../../src/server/body.js';
import { buildOpenApi } from '../../src/server/openapi.js';
import type { RouteDef, MultipartBody } from '../../src/server/types.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let routes: Array<RouteDef & { body: MultipartBody }> = [];
t.before(async () => {
  s = await startTestServer();
  routes = (await loadApiModules()).flatMap((m) => m.mod.routes ?? []).filter((r): r is RouteDef & { body: MultipartBody } => r.body?.kind === 'multipart');
});
t.teardown(() => s?.close());

const urlOf = (r: RouteDef) => r.path.replace(/:([A-Za-z_]+)/g, 'x1');
const send = async (r: RouteDef, fd: FormData) => {
  const res = await s.req(urlOf(r), { method: r.method, body: fd, key: r.auth === 'admin' ? s.adminKey : undefined });
  return { status: res.status, body: (await res.json()) as { success: boolean; error: { code: string; field?: string; message: string } } };
};
const declared = (r: RouteDef & { body: MultipartBody }) => [...Object.keys(r.body.files ?? {}), ...(fieldNames(r.body.fields) ?? [])];

t.test('the routes table has the multipart routes of the spec', async (t) => {
  const paths = routes.map((r) => r.path);
  for (const p of ['/api/v1/ekyc/verify', '/api/v1/ekyc/ocr', '/api/v1/receipt/optimize', '/api/v1/contour/extract', '/api/v1/ekyc/image/quality-check', '/api/v1/image-to-image/generate']) {
    t.ok(paths.includes(p), p);
  }
  for (const r of routes) t.not(fieldNames(r.body.fields), undefined, `${r.path}: the declared text fields are known`);
});

t.test('an unknown text field → 400 naming it', async (t) => {
  for (const r of routes) {
    const fd = new FormData();
    fd.append('foo', 'bar');
    const a = await send(r, fd);
    t.equal(a.status, 400, `${r.method} ${r.path}`);
    t.equal(a.body.error.code, 'INVALID_REQUEST', r.path);
    t.equal(a.body.error.field, 'foo', r.path);
    t.equal(a.body.error.message, `Unknown part foo; this endpoint accepts ${declared(r).join(', ')}`, r.path);
  }
});

t.test('an unknown file part, also as text/plain → 400 naming it', async (t) => {
  for (const r of routes) {
    for (const type of ['text/plain', 'image/png']) {
      const fd = new FormData();
      fd.append('extra_doc', new Blob([Buffer.from('hello')], { type }), 'extra.txt');
      const a = await send(r, fd);
      t.equal(a.status, 400, `${r.path} ${type}`);
      t.equal(a.body.error.field, 'extra_doc', r.path);
      t.match(a.body.error.message, /^Unknown part extra_doc; this endpoint accepts /, r.path);
    }
  }
});

t.test('a file where a text field is declared → 400 naming the field', async (t) => {
  let n = 0;
  for (const r of routes) {
    for (const name of fieldNames(r.body.fields) ?? []) {
      const fd = new FormData();
      fd.append(name, new Blob([Buffer.from('jumin')], { type: 'text/plain' }), 'value.txt');
      const a = await send(r, fd);
      t.equal(a.status, 400, `${r.path} ${name}`);
      t.equal(a.body.error.code, 'INVALID_REQUEST');
      t.equal(a.body.error.field, name, `${r.path} ${name}`);
      t.match(a.body.error.message, new RegExp(`^Expected a text field for ${name} but received a file`), r.path);
      n++;
    }
  }
  t.ok(n >= 20, `${n} declared text fields tried`);
});

t.test('text where a file is declared → 400 naming the part', async (t) => {
  for (const r of routes) {
    for (const name of Object.keys(r.body.files ?? {})) {
      const fd = new FormData();
      fd.append(name, 'https://example.test/a.png');
      const a = await send(r, fd);
      t.equal(a.status, 400, `${r.path} ${name}`);
      t.equal(a.body.error.field, name, `${r.path} ${name}`);
      t.match(a.body.error.message, new RegExp(`^Expected a file for ${name} but received a text field`), r.path);
    }
  }
});

t.test('hostile part names are bounded and escaped in the message', async (t) => {
  const r = routes.find((x) => x.path === '/api/v1/receipt/optimize')!;
  const fd = new FormData();
  fd.append('a\u0001' + 'x'.repeat(500), 'v');
  const a = await send(r, fd);
  t.equal(a.status, 400);
  t.match(a.body.error.message, /^Unknown part a\\u0001x{58}…; this endpoint accepts image$/);
});

t.test('the OpenAPI document lists exactly the accepted parts of each multipart route', async (t) => {
  const doc = buildOpenApi(routes, 'test') as { paths: Record<string, Record<string, any>> };
  for (const r of routes) {
    const p = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const schema = doc.paths[p]?.[r.method.toLowerCase()]?.requestBody?.content?.['multipart/form-data']?.schema;
    t.equal(schema?.additionalProperties, false, `${r.path}: additionalProperties false`);
    t.same(Object.keys(schema?.properties ?? {}).sort(), declared(r).sort(), `${r.path}: the declared parts`);
  }
});
