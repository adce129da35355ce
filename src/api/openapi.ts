// GET /openapi.json: the OpenAPI 3.1 document of every route (open), built once per server by server/start.ts.
import { defineRoute, reply, type RouteDef } from '../server/types.js';
import { ApiError } from '../domain/errors.js';
import { ok } from './schemas/common.js';
import { openApiDocument } from './schemas/system.js';

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/openapi.json', auth: 'none', tags: ['System'], summary: 'OpenAPI 3.1 document generated from the routes table',
    responses: ok('the OpenAPI 3.1 document', openApiDocument),
    noRequestLog: true,
    handler: (ctx) => {
      const doc = ctx.services.ext.openApiJson;
      if (!doc) throw new ApiError('INTERNAL_ERROR', 'The OpenAPI document is not built (the server has not started)');
      return reply.make({ status: 200, body: doc(), contentType: 'application/json' });
    },
  }),
];
