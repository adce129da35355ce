// The model catalog (open): every model of the catalog, filtered by capability, status and provider.
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../server/types.js';
import { CAPABILITIES, PROVIDERS, type Capability, type WireFamily } from '../catalog/catalog.js';
import { ai, startAi } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { ok } from './schemas/common.js';
import { modelCatalog } from './schemas/models.js';

const query = z.object({
  capability: z.enum(CAPABILITIES as [Capability, ...Capability[]]).optional(),
  status: z.enum(['active', 'deprecated', 'all']).optional(),
  provider: z.enum(PROVIDERS as [WireFamily, ...WireFamily[]]).optional(),
}).strict();

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/api/v1/models', auth: 'none', tags: ['Models'],
    summary: 'Model catalog; status=active hides deprecated models',
    responses: ok('the models', modelCatalog),
    query,
    handler: (ctx) => {
      const q = ctx.query;
      const gw = ai(ctx.services);
      const now = ctx.services.clock.now();
      const models = gw.catalog.all().filter((m) =>
        (!q.capability || m.capabilities.includes(q.capability)) &&
        (!q.provider || m.family === q.provider) &&
        (!q.status || q.status === 'all' || m.status === q.status));
      return {
        total: models.length,
        models: models.map((m) => ({
          apiId: m.id, name: m.name, provider: m.family, status: gw.catalog.statusText(m, now), capabilities: m.capabilities,
          cost: m.cost, description: m.description, retiresOn: m.retiresOn ?? null, retired: gw.catalog.isRetired(m, now),
        })),
      };
    },
  }),
];
