// The OpenAPI 3.1 document, generated from the routes table (paths, auth, schemas, error answers).
import { z, type ZodType } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { callbackPayload } from '../providers/callback-payload.js';
import type { RouteDef } from './types.js';
import { checkedExample, exampleOf } from './openapi-examples.js';

const jsonSchema = (s: ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> => {
  try {
    const out = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    delete out.$schema;
    return out;
  } catch {
    return {};
  }
};

const errorSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object', required: ['code', 'message'],
      properties: { code: { enum: Object.keys(ERROR_CODES) }, message: { type: 'string' }, field: { type: 'string' }, details: { type: 'object' } },
    },
  },
};

const errorExample = (code: ErrorCode, message: string, field?: string) => ({ success: false, error: { code, message, ...(field ? { field } : {}) } });

/** families whose creating calls reach an AI provider (502 AI_API_ERROR when it fails or is not configured) */
const AI_TAGS = new Set(['Text-to-Image', 'Image-to-Image', 'Text-to-Text', 'Image Analysis', 'Gemini Text-to-Image (Legacy)']);

/** Each error answer a route can give, derived from what the route declares (auth, body, path, family, `errors`). */
function errorCodes(r: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const jobRoute = /:job_?[iI]d\b/.test(r.path);
  // a path parameter naming something other than a job (a key, an album, a statute, an asset) may name nothing
  if ((r.path.match(/:[A-Za-z_]+/g) ?? []).some((p) => !/^:job_?[iI]d$/.test(p))) codes.push('NOT_FOUND');
  if (r.method !== 'GET' && r.tags?.some((t) => AI_TAGS.has(t))) codes.push('AI_API_ERROR');
  codes.push(...(r.errors ?? []).map((e) => (typeof e === 'string' ? e : e.code)));
  if (r.body || r.query || r.path.includes(':')) codes.push('INVALID_REQUEST');
  if (r.auth !== 'none') codes.push('INVALID_API_KEY');
  if (r.auth === 'admin') codes.push('FORBIDDEN');
  if (jobRoute) codes.push('JOB_NOT_FOUND', 'IMAGE_EXPIRED');
  if (jobRoute && r.method === 'GET' && /\/(image|result|download|mosaic)\b/.test(r.path)) codes.push('JOB_FAILED', 'CONFLICT');
  if (r.body) codes.push('PAYLOAD_TOO_LARGE');
  if (r.body?.kind === 'multipart' || (r.body?.kind === 'json' && /image|ekyc|studio|print|composite/.test(r.path))) codes.push('UNSUPPORTED_MEDIA_TYPE');
  if (r.auth === 'key' || r.auth === 'job') codes.push('RATE_LIMITED');
  codes.push('SERVICE_BUSY', 'INTERNAL_ERROR');
  return [...new Set(codes)];
}

const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, [string, string?]>> = {
  INVALID_REQUEST: ['Expected number for ttlHours but received string "2"', 'ttlHours'],
  INVALID_API_KEY: ['An API key is required (X-API-Key or Authorization: Bearer)'],
  FORBIDDEN: ['This endpoint needs the admin key'],
  JOB_NOT_FOUND: ['No job with id txt2img_20261122_0000000000'],
  IMAGE_EXPIRED: ['The result of job txt2img_20261122_0000000000 expired at 2026-11-23T00:00:00.000Z'],
  JOB_FAILED: ['Job txt2img_20261122_0000000000 failed: the provider answered HTTP 500'],
  CONFLICT: ['Job txt2img_20261122_0000000000 is still processing; poll its status and fetch the result when it is completed'],
  PAYLOAD_TOO_LARGE: ['The body is 12000000 bytes; this endpoint accepts at most 10551296'],
  UNSUPPORTED_MEDIA_TYPE: ['Expected a JPEG, PNG or WebP image for image but received gif', 'image'],
  RATE_LIMITED: ['Rate limit of 60 requests per minute exceeded; retry in 12 s'],
  SERVICE_BUSY: ['All 2 workers are busy and 64 tasks are waiting; retry shortly'],
  NOT_FOUND: ['No album spring-2026'],
  AI_API_ERROR: ['The image provider answered HTTP 500 (server error)'],
  INTERNAL_ERROR: ['Internal failure; the error was logged (request id 5b0c…)'],
};

function errorResponses(r: RouteDef): Record<string, unknown> {
  // a route may answer a code with another status than its usual one (`errors: [{ code, status }]`)
  const statusOf = (c: ErrorCode) => r.errors?.find((e): e is { code: ErrorCode; status: number } => typeof e !== 'string' && e.code === c)?.status ?? ERROR_CODES[c].status;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of errorCodes(r)) byStatus.set(statusOf(c), [...(byStatus.get(statusOf(c)) ?? []), c]);
  const out: Record<string, unknown> = {};
  for (const [status, codes] of byStatus) {
    const examples = Object.fromEntries(codes.map((c) => [c, { value: errorExample(c, ...(EXAMPLE_MESSAGES[c] ?? [ERROR_CODES[c].meaning])) }]));
    const headers = status === 429 || status === 503 ? { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer' } } } : undefined;
    out[String(status)] = {
      description: codes.map((c) => `${c}: ${ERROR_CODES[c].meaning}`).join('; '),
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples } },
    };
  }
  return out;
}

/** The completion callback (enhance, enhance-pipeline with callback_url) as an OpenAPI 3.1 webhook. */
function webhooks(): Record<string, unknown> {
  const header = (description: string) => ({ required: true, description, schema: { type: 'string' } });
  return {
    jobCompleted: {
      post: {
        summary: 'Completion callback of an e-KYC enhance or enhance-pipeline job (Standard Webhooks, at least once)',
        description: 'POSTed to callback_url when the job completes or fails; retried with backoff for SEJONG_CALLBACK_RETRY_HOURS until a 2xx answer (410 stops retries). Every attempt carries the same webhook-id: drop duplicates by it.',
        parameters: [
          { name: 'webhook-id', in: 'header', ...header('msg_…, the same on every attempt') },
          { name: 'webhook-timestamp', in: 'header', ...header('Unix seconds of this attempt') },
          { name: 'webhook-signature', in: 'header', ...header('v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`>') },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(callbackPayload) } } },
        responses: { 200: { description: 'Any 2xx: delivered' }, 410: { description: 'Gone: stop retrying' } },
      },
    },
  };
}

/** An answer's media type: its schema and an example (declared, else synthesised with every field the zod schema
 * accepts; none for binary answers). */
function mediaOf(schema: Record<string, unknown>, example: unknown, zod?: ZodType): Record<string, unknown> {
  if (!zod) return { schema, ...(example !== undefined ? { example } : {}) };
  return { schema, example: example !== undefined ? example : checkedExample(schema, (v) => zod.safeParse(v).success) };
}

export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const p = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const ps = r.params ? (jsonSchema(r.params) as { properties?: Record<string, Record<string, unknown>> }).properties ?? {} : {};
    const params: unknown[] = (r.path.match(/:([A-Za-z_]+)/g) ?? []).map((n) => {
      const schema = ps[n.slice(1)] ?? { type: 'string' };
      return { name: n.slice(1), in: 'path', required: true, schema, example: exampleOf(schema, n.slice(1)) };
    });
    if (r.query) {
      const qs = jsonSchema(r.query) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) {
        const required = qs.required?.includes(name) ?? false;
        params.push({ name, in: 'query', required, schema, ...(required || schema.default === undefined ? { example: exampleOf(schema, name, qs) } : {}) });
      }
    }
    if (r.accessKeyQuery && !params.some((q) => (q as { name: string }).name === r.accessKeyQuery)) params.push({ name: r.accessKeyQuery, in: 'query', required: false, schema: { type: 'string' }, description: 'the job\'s access key' });
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: r.tags ?? [],
      operationId: `${r.method.toLowerCase()}${p.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: params,
      security: r.auth === 'none' ? [] : r.auth === 'job' ? [{ apiKey: [] }, { bearer: [] }] : [{ apiKey: [] }, { bearer: [] }],
      responses: {
        ...Object.fromEntries(Object.entries(r.responses ?? { 200: { description: 'Success' } }).map(([code, d]) => [code, {
          description: d.description,
          ...(d.schema || d.contentType ? { content: { [d.contentType ?? 'application/json']: mediaOf(d.schema ? jsonSchema(d.schema, 'output') : {}, d.example, d.schema) } } : {}),
        }])),
        ...errorResponses(r),
      },
    };
    if (r.auth === 'admin') op.description = 'Admin key only.';
    if (r.body?.kind === 'json') {
      const schema = jsonSchema(r.body.schema);
      // request examples hold what must be sent
      op.requestBody = { required: true, content: { 'application/json': { schema, example: r.body.example ?? exampleOf(schema) } } };
    }
    if (r.body?.kind === 'multipart') {
      const fields = r.body.fields ? (jsonSchema(r.body.fields) as { properties?: Record<string, unknown>; required?: string[] }) : { properties: {} };
      const props: Record<string, unknown> = { ...(fields.properties ?? {}) };
      const required = [...(fields.required ?? [])];
      for (const [name, f] of Object.entries(r.body.files ?? {})) {
        props[name] = { type: 'string', format: 'binary', description: `${(f.types ?? ['jpeg', 'png', 'webp']).join('/')}${f.maxBytes ? `, at most ${f.maxBytes} bytes` : ''}` };
        if (f.required) required.push(name);
      }
      // every part not listed here is refused (src/server/body.ts)
      // the text fields that must be sent (a file part has no useful example value)
      const example = r.body.example ?? exampleOf(fields as Record<string, unknown>);
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: props, required, additionalProperties: false }, example } } };
    }
    (paths[p] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'sejong: media, identity-verification and legal-information API', version },
    servers: [{ url: '/' }],
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'API key, or a job\'s access key on job endpoints' },
      },
      schemas: { Error: { ...errorSchema, examples: [errorExample('INVALID_REQUEST', 'Expected number for ttlHours but received string "2"', 'ttlHours')] } },
    },
  };
}
