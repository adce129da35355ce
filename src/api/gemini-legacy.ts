// Legacy synchronous text-to-image: the image comes back directly (base64 PNG, AI mark included).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../server/types.js';
import { imageCost } from '../catalog/catalog.js';
import { ai, aspectRatio, markImage, prompt, startAi, withStyle } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { ok } from './schemas/common.js';
import { legacyImageAnswer } from './schemas/models.js';

export const DEFAULT_LEGACY_MODEL = 'fam-b-2.5-flash-image';

const body = z.object({
  prompt,
  model: z.string().min(1).max(100).optional(),
  aspect_ratio: aspectRatio.optional(),
  style: z.string().max(1000).optional(),
  storage_type: z.string().min(1).max(64).optional(),
}).strict();

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/gemini/text-to-image', auth: 'key', tags: ['Gemini Text-to-Image (Legacy)'],
    summary: 'Generate an image synchronously (legacy); the image is returned base64 in image',
    responses: ok('the image', legacyImageAnswer),
    body: { kind: 'json', schema: body },
    handler: async (ctx) => {
      const b = ctx.body;
      const { services } = ctx;
      const gw = ai(services);
      const m = gw.model(b.model ?? DEFAULT_LEGACY_MODEL, 'image_generation');
      const imageSize = m.imageSizes.length ? m.defaultImageSize : undefined;
      const up = await gw.image(m, { prompt: withStyle(b.prompt, b.style), aspectRatio: b.aspect_ratio, imageSize });
      const marked = await markImage(services, m.id, up.data);
      const cost = imageCost(m, { imageSize, aspectRatio: b.aspect_ratio });
      await services.spend.record({ keyId: ctx.principal.keyId, family: 'gemini-legacy', cost, at: services.clock.now() });
      return { success: true, image: marked.png.toString('base64'), model: m.id, mimeType: 'image/png', width: marked.width, height: marked.height, cost };
    },
  }),
];
