// Photo Studio mosaic (synchronous): pixelate rectangular regions of an image fetched from imageUrl. The result
// is kept as a studio_mosaic_ job (24 h) and served by GET /api/v1/studio/image?key=<accessKey> (src/api/studio.ts).
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { ok } from './schemas/common.js';
import { mosaicAnswer } from './schemas/jobs.js';
import { iso } from '../clock.js';

const coord = z.number().int().min(0).max(100_000);
const extent = z.number().int().min(1).max(100_000);
const body = z.object({
  imageUrl: z.string().min(1).max(4096),
  regions: z.array(z.object({ x: coord, y: coord, width: extent, height: extent }).strict()).min(1).max(100),
  blockSize: z.number().int().min(4).max(40).optional(),
}).strict();
type Body = z.infer<typeof body>;

async function mosaic(ctx: Ctx<Body>) {
  const b = ctx.body;
  const { services } = ctx;
  const t0 = performance.now();
  const src = await services.fetcher.fetchImage(b.imageUrl, 'imageUrl');
  const r = await services.pool.run('mosaic', {
    image: src, field: 'imageUrl', maxPixels: services.config.maxInputPixels, regions: b.regions, blockSize: b.blockSize ?? 16,
  });
  const png = Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength);
  const { jobs } = services;
  const { job, accessKey } = await jobs.create({
    family: 'studio_mosaic', owner: ctx.principal.keyId, estimatedCost: 0,
    meta: { featureId: 'mosaic', params: { blockSize: r.blockSize, regions: r.regions } },
  });
  await jobs.progress(job.id, 0.9);
  const processingTime = Math.round(performance.now() - t0);
  const done = await jobs.complete(job.id, {
    result: { width: r.width, height: r.height, blockSize: r.blockSize, regions: r.regions, processingTimeMs: processingTime },
    blobs: { image: { bytes: png, contentType: 'image/png' } },
    actualCost: 0,
  });
  ctx.logExtra.jobId = job.id;
  return {
    success: true,
    jobId: job.id,
    imageUrl: `/api/v1/studio/image?key=${encodeURIComponent(accessKey)}`,
    format: 'PNG',
    processingTime,
    actualCost: 0,
    width: r.width,
    height: r.height,
    blockSize: r.blockSize,
    regions: r.regions,
    expiresAt: done?.expiresAt ? iso(done.expiresAt)! : null,
  };
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/studio/mosaic', auth: 'key', tags: ['Photo Studio'],
    summary: 'Pixelate regions (x, y, width, height in pixels; clipped to the image) with blockSize 4-40 (synchronous)',
    body: { kind: 'json', schema: body },
    maxBodyBytes: 64 * 1024,
    responses: ok('the pixelated image (a studio_mosaic job)', mosaicAnswer),
    handler: mosaic,
  }),
];
