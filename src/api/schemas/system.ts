// Success answers of the system routes: health, readiness, the caller's jobs and request log, the OpenAPI
// document, the console's login/logout and the MCP transports (JSON-RPC 2.0).
import { z } from 'zod';
import { isoDate } from './common.js';

export const health = z.strictObject({ status: z.literal('ok') });
export const ready = z.strictObject({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.strictObject({ ok: z.boolean(), detail: z.string().optional() })).describe('store, pool, models'),
});

export const jobList = z.strictObject({
  jobs: z.array(z.strictObject({
    jobId: z.string(), family: z.string(), status: z.enum(['processing', 'completed', 'failed', 'expired']), progress: z.number(),
    createdAt: isoDate, completedAt: isoDate.nullable(), expiresAt: isoDate.nullable(),
    estimatedCost: z.number().nullable(), actualCost: z.number().nullable(),
    error: z.strictObject({ code: z.string(), message: z.string(), field: z.string().optional() }).nullable(),
  })),
  next_cursor: z.string().optional(),
  spend: z.array(z.strictObject({ day: z.string(), jobs: z.number().int(), cost: z.number() })),
});

export const logList = z.strictObject({
  logs: z.array(z.strictObject({
    time: isoDate, method: z.string(), path: z.string(), status: z.number().int(), ms: z.number(), requestId: z.string(), code: z.string().nullable(),
  })),
  next_cursor: z.string().optional(),
});

export const openApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()),
});

/** one JSON-RPC 2.0 answer (or a batch of them) */
const rpc = z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number(), z.null()]) });
export const jsonRpc = z.union([rpc, z.array(rpc)]);

export const mcpHealth = z.strictObject({
  status: z.literal('ok'), protocol_version: z.string(),
  transports: z.strictObject({ sse: z.string(), messages: z.string(), streamable_http: z.string() }),
  corpus: z.strictObject({
    statutes: z.number().int(), admin_rules: z.number().int(), articles: z.number().int(), indexed_articles: z.number().int(),
    corpus_date: z.string().nullable(), imported_at: z.string().nullable(), last_sync: z.string().nullable(), empty: z.boolean(),
  }),
  sessions: z.strictObject({ sse: z.number().int(), streamable_http: z.number().int(), max: z.number().int(), per_client: z.number().int() }),
  law_workers: z.strictObject({ threads: z.number().int(), queued: z.number().int() }),
});
