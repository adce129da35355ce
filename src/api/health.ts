// GET /health: liveness of the process (open).
import { defineRoute, type RouteDef } from '../server/types.js';

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Health check',
    tags: ['System'],
    noRequestLog: true,
    handler: () => ({ status: 'ok' }),
  }),
];
