// GET /openapi.json: the OpenAPI 3.1 document of every route (open).
import { defineRoute, reply, type RouteDef } from '../server/types.js';
import { buildOpenApi } from '../server/openapi.js';

let cached: string | undefined;

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/openapi.json', auth: 'none', tags: ['System'], summary: 'OpenAPI 3.1 document generated from the routes table',
    noRequestLog: true,
    handler: (ctx) => {
      cached ??= JSON.stringify(buildOpenApi((ctx.services.ext.routes as RouteDef[]) ?? [], '3.6.0'));
      return reply.make({ status: 200, body: cached, contentType: 'application/json' });
    },
  }),
];
