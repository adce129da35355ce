// Contour: Canny edge map of the uploaded image as a 1-bit PNG of the same size (white edges on black).
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';

const MB = 1024 * 1024;

async function extract(ctx: Ctx) {
  const r = await ctx.services.pool.run('contour', { image: ctx.files.image!.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels });
  return reply.binary(r.png, 'image/png', 200, {
    'x-edge-pixels': String(r.edgePixels),
    'x-canny-thresholds': `${r.thresholds.low},${r.thresholds.high}`,
    'x-canny-sigma': String(r.thresholds.sigma),
  });
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/contour/extract', auth: 'key', tags: ['Contour'],
    summary: 'Edges of the image\'s objects (Canny) as a 1-bit PNG of the same size: white edges on black',
    body: { kind: 'multipart', files: { image: { required: true, maxBytes: 10 * MB } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    responses: { 200: { description: '1-bit PNG edge map', contentType: 'image/png' } },
    handler: extract,
  }),
];
