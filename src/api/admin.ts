// Admin API (admin key only): API keys with their rate limits, and spend per tenant and day.
import { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { defineRoute, reply, type RouteDef } from '../server/types.js';
import { ok } from './schemas/common.js';
import { keyCreated, keyList, keyPatched, keyRevoked, tenantUsage } from './schemas/admin.js';
import { iso } from '../clock.js';

const limits = {
  rateLimitPerMinute: z.number().int().min(1).max(10_000_000).optional(),
  rateLimitPerDay: z.number().int().min(1).max(1_000_000_000).optional(),
};
const createKey = z.object({ name: z.string().trim().min(1).max(100), ...limits }).strict();
const patchKey = z.object({ name: z.string().trim().min(1).max(100).optional(), ...limits }).strict();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/admin/keys', auth: 'admin', tags: ['Admin'],
    summary: 'Create an API key (the key is shown only in this answer)',
    responses: { 201: { description: 'the new key', schema: keyCreated } },
    body: { kind: 'json', schema: createKey },
    handler: async (ctx) => {
      const { services } = ctx;
      const b = ctx.body;
      const { record, key } = await services.keys.create({ ...b, now: services.clock.now() });
      return reply.json({
        id: record.id, key, name: record.name,
        rateLimitPerMinute: record.rateLimitPerMinute ?? services.config.rateLimitPerMinute,
        rateLimitPerDay: record.rateLimitPerDay ?? services.config.rateLimitPerDay,
        createdAt: iso(record.createdAt)!,
      }, 201);
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/admin/keys', auth: 'admin', tags: ['Admin'], summary: 'List API keys (no secrets)',
    responses: ok('the keys', keyList),
    handler: (ctx) => {
      const cfg = ctx.services.config;
      return {
        keys: ctx.services.keys.list().map((k) => ({
          id: k.id, name: k.name, admin: k.admin,
          rateLimitPerMinute: k.rateLimitPerMinute ?? cfg.rateLimitPerMinute,
          rateLimitPerDay: k.rateLimitPerDay ?? cfg.rateLimitPerDay,
          createdAt: iso(k.createdAt)!,
          revokedAt: iso(k.revokedAt),
        })),
      };
    },
  }),
  defineRoute({
    method: 'PATCH', path: '/api/v1/admin/keys/:id', auth: 'admin', tags: ['Admin'], summary: 'Change a key\'s name or rate limits',
    responses: ok('the key', keyPatched),
    body: { kind: 'json', schema: patchKey },
    handler: async (ctx) => {
      const cfg = ctx.services.config;
      const r = await ctx.services.keys.update(ctx.params.id!, ctx.body);
      if (!r) throw new ApiError('NOT_FOUND', `No active key ${ctx.params.id}`);
      return { id: r.id, name: r.name, rateLimitPerMinute: r.rateLimitPerMinute ?? cfg.rateLimitPerMinute, rateLimitPerDay: r.rateLimitPerDay ?? cfg.rateLimitPerDay };
    },
  }),
  defineRoute({
    method: 'DELETE', path: '/api/v1/admin/keys/:id', auth: 'admin', tags: ['Admin'], errors: ['CONFLICT'], summary: 'Revoke a key (401 at once)',
    responses: ok('revoked', keyRevoked),
    handler: async (ctx) => {
      if (ctx.params.id === ctx.principal.keyId) throw new ApiError('CONFLICT', 'The admin key cannot revoke itself');
      const r = await ctx.services.keys.revoke(ctx.params.id!, ctx.services.clock.now());
      if (!r) throw new ApiError('NOT_FOUND', `No key ${ctx.params.id}`);
      return { id: r.id, revoked: true, revokedAt: iso(r.revokedAt!)! };
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/admin/usage/tenants', auth: 'admin', tags: ['Admin'],
    summary: 'Cost per tenant and UTC day (e-KYC enhance and pipeline jobs, tenant_id)',
    responses: ok('rows per tenant and day', tenantUsage),
    query: z.object({ from: day.optional(), to: day.optional(), tenant: z.string().max(100).optional() }).strict(),
    handler: async (ctx) => {
      const q = ctx.query;
      const rows = await ctx.services.spend.tenants(q.from, q.to, q.tenant);
      return { rows: rows.map((r) => ({ tenant: r.tenant, day: r.day, jobs: r.jobs, costUsd: r.cost, byFamily: r.byFamily })), totalUsd: Math.round(rows.reduce((a, r) => a + r.cost, 0) * 1e6) / 1e6 };
    },
  }),
];
