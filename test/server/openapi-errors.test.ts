// Every error code an api module throws itself (`new ApiError('CODE'` or `invalid(…)` in src/api/<module>.ts) is
// documented on at least one of that module's operations in /openapi.json, and a few derived rules hold.
import t from 'tap';
import fs from 'node:fs';
import path from 'node:path';
import { loadApiModules } from '../../src/server/start.js';
import { buildOpenApi } from '../../src/server/openapi.js';
import { REPO } from '../helpers/shared.js';

type Op = { responses: Record<string, { content?: { 'application/json'?: { examples?: Record<string, unknown> } } }> };
const modules = await loadApiModules();
const doc = buildOpenApi(modules.flatMap((m) => m.mod.routes ?? []), 'test') as { paths: Record<string, Record<string, Op>> };
const opOf = (method: string, p: string) => doc.paths[p.replace(/:([A-Za-z_]+)/g, '{$1}')]![method.toLowerCase()]!;
/** the error codes documented on an operation (the example names of its error answers) */
const documented = (op: Op) => new Set(Object.values(op.responses).flatMap((r) => Object.keys(r.content?.['application/json']?.examples ?? {})));

t.test('the codes a module throws are documented on its operations', async (t) => {
  const missing: string[] = [];
  for (const { name, mod } of modules) {
    const routes = mod.routes ?? [];
    if (!routes.length) continue;
    const text = fs.readFileSync(path.join(REPO, 'src', 'api', `${name}.ts`), 'utf8');
    const thrown = new Set([...text.matchAll(/ApiError\('([A-Z_]+)'/g)].map((m) => m[1]!));
    if (/\binvalid\(/.test(text)) thrown.add('INVALID_REQUEST');
    const listed = new Set(routes.flatMap((r) => [...documented(opOf(r.method, r.path))]));
    for (const code of thrown) if (!listed.has(code)) missing.push(`${name}: ${code}`);
  }
  t.same(missing, [], 'thrown but documented nowhere in the module');
});

t.test('derived error answers', async (t) => {
  const codes = (m: string, p: string) => [...documented(opOf(m, p))];
  t.ok(codes('DELETE', '/api/v1/admin/keys/:id').includes('NOT_FOUND'), 'a key id may name nothing');
  t.ok(codes('GET', '/api/v1/laws/:law_id').includes('NOT_FOUND'), 'a statute id may name nothing');
  t.notOk(codes('GET', '/api/v1/receipt/status/:job_id').includes('NOT_FOUND'), 'a job id answers JOB_NOT_FOUND instead');
  t.ok(codes('GET', '/api/v1/receipt/status/:job_id').includes('JOB_NOT_FOUND'));
  t.ok(codes('POST', '/api/v1/text-to-image/generate').includes('AI_API_ERROR'), 'AI families: the provider may fail');
  t.notOk(codes('POST', '/api/v1/receipt/optimize').includes('AI_API_ERROR'), 'local work does not');
  // a code answered with another status than its usual one is documented under that status
  const enhanceImage = opOf('GET', '/api/v1/ekyc/enhance/image/:jobId').responses;
  t.ok(enhanceImage['404']?.content?.['application/json']?.examples?.JOB_FAILED, 'enhance image: a failed job is 404 (spec)');
  t.notOk(enhanceImage['422'], 'and not 422');
  t.ok(opOf('GET', '/api/v1/receipt/image/:job_id').responses['422']?.content?.['application/json']?.examples?.JOB_FAILED, 'elsewhere JOB_FAILED is 422');
});
