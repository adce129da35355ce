// Every operation of /openapi.json describes its success answer (a JSON schema generated from the zod schema the
// route declares, or the content type of a binary answer), the document validates, and SEJONG_VALIDATE_RESPONSES
// refuses an answer that drifts from its declared schema.
import t from 'tap';
import { z } from 'zod';
import pino from 'pino';
import { validate } from '@readme/openapi-parser';
import { startTestServer } from '../helpers/server.js';
import { loadConfig } from '../../src/config.js';
import { checkResponse } from '../../src/server/response-check.js';
import type { RouteDef } from '../../src/server/types.js';

type Op = { responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown>; example?: unknown }> }> };

/** answers that carry no body by definition: 204, and redirects (sign-out) */
const NO_BODY = new Set(['POST /console/login', 'POST /console/logout', 'DELETE /mcp']);

t.test('every operation has a 2xx answer with content and a schema; the document validates', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const doc = (await (await s.req('/openapi.json', { key: null })).json()) as { paths: Record<string, Record<string, Op>> };
  const r = await validate(structuredClone(doc) as never);
  t.same(r.valid ? [] : r.errors, [], 'no validation errors');
  const missing: string[] = [];
  let json = 0, binary = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      const ok = Object.entries(op.responses).filter(([code]) => /^2\d\d$/.test(code));
      if (NO_BODY.has(name)) {
        t.ok(Object.keys(op.responses).some((c) => /^[23]\d\d$/.test(c)), `${name} documents its answer`);
        continue;
      }
      const described = ok.filter(([, d]) => Object.keys(d.content ?? {}).length > 0);
      if (!described.length) { missing.push(name); continue; }
      for (const [code, d] of described) {
        for (const [ct, m] of Object.entries(d.content!)) {
          if (ct === 'application/json') {
            json++;
            const schema = m.schema ?? {};
            if (!(schema.type || schema.anyOf || schema.oneOf || schema.properties)) missing.push(`${name} ${code} (empty JSON schema)`);
          } else binary++;
        }
      }
    }
  }
  t.same(missing, [], 'every operation describes its success answer');
  t.ok(json >= 70, `${json} JSON answers with a schema`);
  t.ok(binary >= 15, `${binary} binary answers with a content type`);
  // the generated schema is the route's zod schema as output: required fields, closed objects, examples
  const created = doc.paths['/api/v1/text-to-image/generate']!.post!.responses['200']!.content!['application/json']!;
  t.same((created.schema!.required as string[]).sort(), ['accessKey', 'estimatedCost', 'jobId', 'message', 'model', 'status', 'success']);
  t.equal(created.schema!.additionalProperties, false);
  t.equal((created.example as { status: string }).status, 'processing');
  const status = doc.paths['/api/v1/text-to-image/status/{job_id}']!.get!.responses['200']!.content!['application/json']!;
  t.same((status.schema!.properties as Record<string, { enum?: string[] }>).status!.enum, ['processing', 'completed', 'failed']);
  const enhance = doc.paths['/api/v1/ekyc/enhance']!.post!.responses;
  t.ok(enhance['200']!.content!['application/json']!.schema, 'synchronous enhance answer');
  t.ok(enhance['202']!.content!['application/json']!.schema, 'callback-mode 202 answer');
});

t.test('SEJONG_VALIDATE_RESPONSES: off by default, a drifting answer is an INTERNAL_ERROR', async (t) => {
  t.equal(loadConfig({}).validateResponses, false, 'off unless set');
  t.equal(loadConfig({ SEJONG_VALIDATE_RESPONSES: '1' }).validateResponses, true);
  const log = pino({ level: 'silent' });
  const route: RouteDef = {
    method: 'GET', path: '/x', auth: 'none', summary: 'x',
    responses: { 200: { description: 'x', schema: z.strictObject({ id: z.string(), n: z.number().optional() }) } },
  };
  const json = 'application/json; charset=utf-8';
  // the check sees the bytes that are sent (app.ts serialises the answer once, then checks and sends it)
  const refusal = (body: unknown, status = 200, ct = json) => {
    try {
      checkResponse(route, status, ct, Buffer.isBuffer(body) ? body : JSON.stringify(body), log);
      return undefined;
    } catch (e) {
      return e as { code: string; status: number; message: string };
    }
  };
  t.equal(refusal({ id: 'a' }), undefined, 'a matching answer passes');
  t.equal(refusal({ id: 'a', n: undefined }), undefined, 'undefined members are checked as sent (dropped)');
  t.equal(refusal(Buffer.from('{"id":"b"}')), undefined, 'a Buffer body is parsed');
  t.equal(refusal(Buffer.from([0x89]), 200, 'image/png'), undefined, 'binary answers are not checked');
  t.equal(refusal({ whatever: 1 }, 404), undefined, 'error answers are not checked');
  t.equal(refusal(Buffer.alloc(0), 202), undefined, 'an empty 202 is not checked');
  t.equal(refusal(Buffer.from('{"id":'))?.message, 'The answer of GET /x 200 is not JSON', 'a broken JSON answer is refused');
  const extra = refusal({ id: 'a', secret: 'x' });
  t.equal(extra?.code, 'INTERNAL_ERROR', 'an undocumented field is refused');
  t.equal(extra?.status, 500);
  t.match(extra?.message, /GET \/x 200 does not match its declared schema/);
  const wrongType = refusal({ id: 7 });
  t.match(wrongType?.message, /at id:/, 'names the path of the mismatch');
  const undeclared = refusal({ id: 'a' }, 201);
  t.match(undeclared?.message, /has no declared response schema/, 'a 2xx status without a schema is refused');
});
