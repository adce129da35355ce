// GET /health: liveness of the process (open; 200 also while draining). GET /ready: readiness (503 until the
// store, the pool and the models answer, and while draining).
import { ApiError } from '../domain/errors.js';
import { defineRoute, reply, type RouteDef } from '../server/types.js';
import { ok } from './schemas/common.js';
import { health, ready } from './schemas/system.js';

/** the liveness answer: one reply, its bytes made once (it never changes; the front end only reads it) */
const ALIVE = reply.make({ status: 200, body: Buffer.from(JSON.stringify({ status: 'ok' })), contentType: 'application/json' });

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Liveness: the process answers (also while it drains)',
    responses: ok('alive', health),
    tags: ['System'],
    noRequestLog: true,
    whileDraining: true,
    handler: () => ALIVE,
  }),
  defineRoute({
    method: 'GET',
    path: '/ready',
    auth: 'none',
    summary: 'Readiness: 200 when the store, the worker pool and the models answer; 503 before that and while draining',
    responses: ok('ready, with each check', ready),
    tags: ['System'],
    noRequestLog: true,
    whileDraining: true,
    handler: async (ctx) => {
      const r = ctx.services.readiness;
      if (!r) throw new ApiError('SERVICE_BUSY', 'Readiness is not known yet', { headers: { 'Retry-After': '1' } });
      const c = await r.check();
      if (c.ready) return reply.json({ status: 'ready', checks: c.checks });
      // not ready: the one error shape (SERVICE_BUSY), with the checks beside it
      const failing = Object.entries(c.checks).filter(([, v]) => !v.ok).map(([k, v]) => `${k}${v.detail ? ` (${v.detail})` : ''}`);
      const error = { code: 'SERVICE_BUSY', message: `Not ready: ${failing.join('; ')}` };
      return reply.json({ success: false, error, status: 'not ready', checks: c.checks }, 503, { 'Retry-After': '1' });
    },
  }),
];
