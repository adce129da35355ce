// The OpenAPI 3.1 document, generated from the routes table (paths, auth, schemas, error answers).
import { z, type ZodType } from 'zod';
import { ERROR_CODES } from './errors.js';
import type { RouteDef } from './types.js';

const jsonSchema = (s: ZodType): Record<string, unknown> => {
  try {
    const out = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
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

export function buildOpenApi(routes: RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const p = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const params: unknown[] = (r.path.match(/:([A-Za-z_]+)/g) ?? []).map((n) => ({ name: n.slice(1), in: 'path', required: true, schema: { type: 'string' } }));
    if (r.query) {
      const qs = jsonSchema(r.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) params.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, schema });
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
          ...(d.schema || d.contentType ? { content: { [d.contentType ?? 'application/json']: { schema: d.schema ? jsonSchema(d.schema) : {} } } } : {}),
        }])),
        default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
    if (r.auth === 'admin') op.description = 'Admin key only.';
    if (r.body?.kind === 'json') op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body.schema) } } };
    if (r.body?.kind === 'multipart') {
      const fields = r.body.fields ? (jsonSchema(r.body.fields) as { properties?: Record<string, unknown>; required?: string[] }) : { properties: {} };
      const props: Record<string, unknown> = { ...(fields.properties ?? {}) };
      const required = [...(fields.required ?? [])];
      for (const [name, f] of Object.entries(r.body.files ?? {})) {
        props[name] = { type: 'string', format: 'binary', description: `${(f.types ?? ['jpeg', 'png', 'webp']).join('/')}${f.maxBytes ? `, at most ${f.maxBytes} bytes` : ''}` };
        if (f.required) required.push(name);
      }
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: props, required } } } };
    }
    (paths[p] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'sejong: media, identity-verification and legal-information API', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', description: 'API key, or a job\'s access key on job endpoints' },
      },
      schemas: { Error: errorSchema },
    },
  };
}
