// Jobs & Logs: the caller's jobs (filter, cursor) and recent requests (kept SEJONG_LOG_RETENTION_DAYS).
import { z } from 'zod';
import { ApiError } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { defineRoute, type RouteDef } from '../server/types.js';
import { FAMILIES, type Family } from '../jobs/families.js';
import { ok } from './schemas/common.js';
import { jobList, logList } from './schemas/system.js';
import { iso } from '../clock.js';

const jobsQuery = z.object({
  family: z.enum(Object.keys(FAMILIES) as [Family, ...Family[]]).optional(),
  status: z.enum(['processing', 'completed', 'failed', 'expired']).optional(),
  limit: form.int(1, 200).optional(),
  cursor: z.string().max(200).optional(),
}).strict();

const logsQuery = z.object({ limit: form.int(1, 500).optional(), cursor: z.string().max(200).optional() }).strict();

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/api/v1/jobs', auth: 'key', tags: ['Jobs & Logs'], summary: 'The caller\'s jobs, newest first',
    responses: ok('a page of jobs and the spend per day', jobList),
    query: jobsQuery,
    handler: async (ctx) => {
      const q = ctx.query;
      const { jobs } = ctx.services;
      const r = await jobs.list(ctx.principal.keyId!, { family: q.family, status: q.status, limit: q.limit ?? 50, cursor: q.cursor });
      return {
        jobs: r.jobs.map((j) => ({
          jobId: j.id, family: j.family, status: jobs.isExpired(j) ? 'expired' : j.status, progress: j.progress,
          createdAt: iso(j.createdAt)!, completedAt: iso(j.completedAt),
          expiresAt: iso(j.expiresAt),
          estimatedCost: j.estimatedCost ?? null, actualCost: j.actualCost ?? null, error: j.error ?? null,
        })),
        next_cursor: r.nextCursor,
        spend: (await ctx.services.spend.forKey(ctx.principal.keyId!)).map((d) => ({ day: d.day, jobs: d.jobs, cost: d.cost })),
      };
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/logs', auth: 'key', tags: ['Jobs & Logs'], summary: 'The caller\'s recent requests',
    responses: ok('a page of requests', logList),
    query: logsQuery,
    handler: async (ctx) => {
      const q = ctx.query;
      const { services } = ctx;
      const since = services.clock.now() - services.config.logRetentionDays * 86400_000;
      const cursor = q.cursor ? Buffer.from(q.cursor, 'base64url').toString() : undefined;
      if (cursor !== undefined && !/^\d+\.\d+\.\d+$/.test(cursor)) {
        throw new ApiError('INVALID_REQUEST', 'Expected a cursor returned by this endpoint for cursor', { field: 'cursor' });
      }
      const r = await services.requestLog.list(ctx.principal.keyId!, q.limit ?? 100, cursor, since);
      return {
        logs: r.entries.map((e) => ({ time: iso(e.time)!, method: e.method, path: e.path, status: e.status, ms: e.ms, requestId: e.requestId, code: e.code ?? null })),
        next_cursor: r.next ? Buffer.from(r.next).toString('base64url') : undefined,
      };
    },
  }),
];
