// GET /metrics: Prometheus text format (open, like /health; bind the service to a private address or set
// SEJONG_METRICS_ADDR to serve it on its own listener, or SEJONG_METRICS=off).
import { ApiError } from '../domain/errors.js';
import { reply, type RouteDef } from '../server/types.js';

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '/metrics', auth: 'none', tags: ['System'], errors: ['NOT_FOUND'], noRequestLog: true,
    summary: 'Prometheus metrics (404 when SEJONG_METRICS=off or served on SEJONG_METRICS_ADDR)',
    responses: { 200: { description: 'Prometheus text exposition format', contentType: 'text/plain; version=0.0.4' } },
    handler: async (ctx) => {
      const m = ctx.services.metrics;
      if (!m || ctx.services.config.metricsAddr) throw new ApiError('NOT_FOUND', 'Metrics are not served on this address');
      const { body, contentType } = await m.text();
      return reply.make({ status: 200, body, contentType });
    },
  },
];
