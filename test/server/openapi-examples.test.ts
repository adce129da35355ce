// Every operation of /openapi.json carries examples (its request: body, text fields, path and query parameters; its
// JSON answers), and each example is accepted by the very zod schema the route validates with (or answers with).
import t from 'tap';
import type { ZodType } from 'zod';
import { loadApiModules } from '../../src/server/start.js';
import { buildOpenApi } from '../../src/server/openapi.js';
import { exampleOf } from '../../src/server/openapi-examples.js';
import type { RouteDef } from '../../src/server/types.js';

type Media = { schema?: unknown; example?: unknown };
type Op = {
  parameters: Array<{ name: string; in: string; required: boolean; example?: unknown; schema?: { default?: unknown } }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

const routes: RouteDef[] = (await loadApiModules()).flatMap((m) => m.mod.routes ?? []);
const doc = buildOpenApi(routes, 'test') as { paths: Record<string, Record<string, Op>> };
const opOf = (r: RouteDef) => doc.paths[r.path.replace(/:([A-Za-z_]+)/g, '{$1}')]![r.method.toLowerCase()]!;

/** the issues of parsing value with schema, as one line ('' when accepted) */
function refusal(schema: ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? '' : r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}

t.test('every request example is accepted by the route\'s own schema', async (t) => {
  const bad: string[] = [];
  let bodies = 0, queries = 0, paths = 0;
  for (const r of routes) {
    const op = opOf(r);
    const name = `${r.method} ${r.path}`;
    if (r.body?.kind === 'json') {
      const m = op.requestBody!.content['application/json']!;
      if (m.example === undefined) bad.push(`${name}: no body example`);
      else if (refusal(r.body.schema, m.example)) bad.push(`${name} body: ${refusal(r.body.schema, m.example)}`);
      bodies++;
    }
    if (r.body?.kind === 'multipart' && r.body.fields) {
      const m = op.requestBody!.content['multipart/form-data']!;
      // form fields arrive as strings
      const fields = Object.fromEntries(Object.entries((m.example ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      if (m.example === undefined) bad.push(`${name}: no form example`);
      else if (refusal(r.body.fields, fields)) bad.push(`${name} form: ${refusal(r.body.fields, fields)}`);
      bodies++;
    }
    const given = (where: string) => Object.fromEntries(op.parameters.filter((p) => p.in === where && p.example !== undefined).map((p) => [p.name, String(p.example)]));
    for (const p of op.parameters) {
      if (p.example === undefined && (p.required || p.schema?.default === undefined) && p.name !== r.accessKeyQuery) bad.push(`${name}: no example for ${p.in} parameter ${p.name}`);
    }
    if (r.query) {
      const why = refusal(r.query, given('query'));
      if (why) bad.push(`${name} query: ${why}`);
      queries++;
    }
    if (r.params) {
      const why = refusal(r.params, given('path'));
      if (why) bad.push(`${name} path: ${why}`);
    }
    if (r.path.includes(':')) paths++;
  }
  t.same(bad, [], 'request examples');
  t.ok(bodies >= 30 && queries >= 15 && paths >= 25, `${bodies} bodies, ${queries} query schemas, ${paths} routes with path parameters`);
});

t.test('every JSON answer has an example its response schema accepts', async (t) => {
  const bad: string[] = [];
  let n = 0;
  for (const r of routes) {
    const op = opOf(r);
    for (const [code, d] of Object.entries(r.responses ?? {})) {
      if (!d.schema) continue;
      const example = op.responses[code]!.content!['application/json']!.example;
      const why = example === undefined ? 'no example' : refusal(d.schema, JSON.parse(JSON.stringify(example)));
      if (why) bad.push(`${r.method} ${r.path} ${code}: ${why}`);
      n++;
    }
  }
  t.same(bad, [], 'response examples');
  t.ok(n >= 70, `${n} JSON answers`);
});

t.test('the synthesiser: declared examples win, bounds and formats are kept', async (t) => {
  t.equal(exampleOf({ type: 'string', examples: ['given'] }), 'given');
  t.equal(exampleOf({ type: 'integer', minimum: 3, maximum: 9 }), 6);
  t.equal(exampleOf({ type: 'number', exclusiveMinimum: 0 }), 0.5);
  t.equal(exampleOf({ type: 'string', format: 'date-time' }), '2026-11-22T09:00:00.000Z');
  t.equal(exampleOf({ type: 'string' }, 'expiresAt'), '2026-11-22T09:00:00.000Z');
  t.equal(exampleOf({ type: 'string' }, 'format'), 'example', 'a name ending in "at" is no time');
  t.equal(String(exampleOf({ type: 'string', minLength: 12 }, 'x')).length, 12);
  t.same(exampleOf({ type: 'array', items: { type: 'integer' }, minItems: 2 }), [1, 1]);
  t.same(exampleOf({ type: 'object', required: ['a'], properties: { a: { enum: ['x', 'y'] }, b: { type: 'string' } } }), { a: 'x' });
  t.same(exampleOf({ $ref: '#/$defs/P', $defs: { P: { type: 'object', required: ['imageUrl'], properties: { imageUrl: { type: 'string' } } } } }), { imageUrl: 'https://images.example.com/photo.jpg' });
  t.same(exampleOf({ anyOf: [{ type: 'null' }, { type: 'boolean' }] }), true);
});
