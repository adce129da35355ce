// /openapi.json is a valid OpenAPI 3.1 document (checked by a real validator), and /docs serves the reference page
// from the installed swagger-ui-dist package.
import t from 'tap';
import { validate } from '@readme/openapi-parser';
import { startTestServer } from '../helpers/server.js';

t.test('/openapi.json validates with zero errors', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const doc = (await (await s.req('/openapi.json', { key: null })).json()) as Record<string, any>;
  t.equal(doc.openapi, '3.1.0');
  const r = await validate(structuredClone(doc) as never);
  t.same(r.valid ? [] : r.errors, [], 'no validation errors');
  t.equal(r.valid, true);
  const ops = Object.values(doc.paths as Record<string, Record<string, unknown>>).flatMap((p) => Object.values(p));
  t.ok(ops.length >= 90, `${ops.length} operations`);
  // every error answer a route can give, with examples in the one error shape
  const status = doc.paths['/api/v1/receipt/status/{job_id}'].get.responses;
  t.same(Object.keys(status).sort(), ['200', '400', '401', '404', '410', '429', '500', '503']);
  t.equal(status['404'].content['application/json'].examples.JOB_NOT_FOUND.value.error.code, 'JOB_NOT_FOUND');
  t.ok(status['429'].headers['Retry-After']);
  const admin = doc.paths['/api/v1/admin/keys'].post.responses;
  t.ok(admin['403'], 'admin routes answer 403');
  t.notOk(doc.paths['/health'].get.responses['401'], 'open routes have no 401');
  for (const op of ops as Array<{ responses: Record<string, unknown> }>) t.ok(op.responses['500'] && op.responses['503'], 'every operation documents 500 and 503');
  // the completion callback under webhooks, from the same zod schema callbacks.ts builds bodies with
  const hook = doc.webhooks.jobCompleted.post;
  t.same(Object.keys(hook.requestBody.content['application/json'].schema.properties).sort(), ['callback_meta', 'error', 'jobId', 'result', 'status', 'timestamp', 'type']);
  t.same(hook.parameters.map((p: { name: string }) => p.name), ['webhook-id', 'webhook-timestamp', 'webhook-signature']);
});

t.test('/docs: the page and its assets, offline', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const page = await s.req('/docs', { key: null });
  t.equal(page.status, 200);
  t.match(page.headers.get('content-type'), /^text\/html/);
  t.match(page.headers.get('content-security-policy'), /script-src 'self'/);
  const html = await page.text();
  t.notMatch(html, /https?:\/\//, 'no outside URL: works offline');
  for (const src of html.match(/(?:src|href)="([^"]+)"/g)!.map((m) => m.split('"')[1]!)) {
    const r = await s.req(src, { key: null });
    t.equal(r.status, 200, src);
    t.ok((await r.arrayBuffer()).byteLength > 0, `${src} has a body`);
  }
  const init = await (await s.req('/docs/assets/init.js', { key: null })).text();
  t.match(init, /url: '\/openapi\.json'/);
  const missing = await s.req('/docs/assets/..%2fpackage.json', { key: null });
  t.equal(missing.status, 404);
  t.equal(((await missing.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
});
