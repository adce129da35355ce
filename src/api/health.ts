// GET /health: liveness of the process (open).
import type { RouteDef } from '../server/types.js';

export const routes: RouteDef[] = [
  {
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Health check',
    tags: ['System'],
    noRequestLog: true,
    handler: () => ({ status: 'ok' }),
  },
];
