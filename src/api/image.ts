// Image Processing: background removal by chroma key (synchronous; pixel work in the pool) and the result
// image route. The source is imageUrl (safe fetcher) or jobId (an earlier job's image, any family, same owner).
// Each call creates a bg_remove_ job holding the PNG for ttlHours (default 24): storageType "url_a" / "url_b"
// answers a URL (GET /api/v1/image/result/{jobId}?key=<accessKey>), "inline" (or "base64") answers the PNG inline as
// a data URL. The storage values are the one set of src/catalog/storage.ts.
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';
import { ApiError, invalid } from '../domain/errors.js';
import { FAMILIES, type Family } from '../jobs/families.js';
import { storageType } from '../catalog/storage.js';
import { ok } from './schemas/common.js';
import { removeBackgroundAnswer } from './schemas/jobs.js';
import { iso } from '../clock.js';

export { STORAGE_TYPES } from '../catalog/storage.js';

const body = z.object({
  imageUrl: z.string().min(1).max(4096).optional(),
  jobId: z.string().min(1).max(200).optional(),
  method: z.enum(['chroma']).optional(),
  chromaKey: z.object({
    color: z.string().min(1).max(20),
    tolerance: z.number().int().min(0).max(255).optional(),
  }).strict(),
  edgeSmoothing: z.boolean().optional(),
  trimTransparent: z.boolean().optional(),
  storageType: storageType.optional(),
  ttlHours: z.number().positive().max(720).optional(),
}).strict();
type Body = z.infer<typeof body>;

const ALL_FAMILIES = Object.keys(FAMILIES) as Family[];

/** The bytes of an earlier job's image (owner or admin only; expired → 410). */
async function jobImage(ctx: Ctx, id: string): Promise<Buffer> {
  const { jobs } = ctx.services;
  let j;
  try {
    j = await jobs.read(ctx.principal, id, ALL_FAMILIES);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'JOB_NOT_FOUND') throw new ApiError('JOB_NOT_FOUND', `No job with id ${id} for jobId`, { field: 'jobId' });
    throw e;
  }
  if (j.status === 'processing') throw invalid('jobId', 'a completed job', `job ${id} still processing`);
  const name = j.blobs?.image ? 'image' : Object.keys(j.blobs ?? {})[0];
  if (!name) throw invalid('jobId', 'a job with an image result', `job ${id} (${j.family}) without an image`);
  return (await jobs.blob(j, name)).bytes;
}

async function removeBackground(ctx: Ctx<Body>) {
  const b = ctx.body;
  const { services } = ctx;
  const t0 = performance.now();
  if (!b.imageUrl === !b.jobId) {
    throw new ApiError('INVALID_REQUEST', b.imageUrl ? 'Send either imageUrl or jobId, not both' : 'imageUrl or jobId is required (the source image)', { field: b.imageUrl ? 'jobId' : 'imageUrl' });
  }
  const field = b.imageUrl ? 'imageUrl' : 'jobId';
  const src = b.imageUrl ? await services.fetcher.fetchImage(b.imageUrl, 'imageUrl') : await jobImage(ctx, b.jobId!);
  const r = await services.pool.run('chroma-key', {
    image: src,
    field,
    maxPixels: services.config.maxInputPixels,
    color: b.chromaKey.color,
    tolerance: b.chromaKey.tolerance,
    edgeSmoothing: b.edgeSmoothing ?? true,
    trimTransparent: b.trimTransparent ?? true,
  });
  const storage = b.storageType ?? 'url_a';
  const { jobs } = services;
  const { job, accessKey } = await jobs.create({
    family: 'bg_remove', owner: ctx.principal.keyId, ttlHours: b.ttlHours ?? 24, estimatedCost: 0,
    meta: { source: field, storageType: storage },
  });
  const png = Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength);
  const processingTime = Math.round(performance.now() - t0);
  const done = await jobs.complete(job.id, {
    result: {
      removedColor: r.removedColor, tolerance: r.tolerance, transparentPixels: r.transparentPixels,
      originalDimensions: r.originalDimensions, trimmedDimensions: r.trimmedDimensions, fileSize: png.length, processingTime,
    },
    blobs: { image: { bytes: png, contentType: 'image/png' } },
    actualCost: 0,
  });
  ctx.logExtra.jobId = job.id;
  const url = `${services.baseUrl()}/api/v1/image/result/${encodeURIComponent(job.id)}?key=${encodeURIComponent(accessKey)}`;
  const inline = storage === 'inline';
  return {
    success: true,
    jobId: job.id,
    originalUrl: b.imageUrl ?? null,
    sourceJobId: b.jobId ?? null,
    processedUrl: inline ? `data:image/png;base64,${png.toString('base64')}` : url,
    storageType: storage,
    format: 'PNG',
    processingTime,
    method: 'chroma',
    removedColor: r.removedColor,
    colorSource: r.colorSource,
    tolerance: r.tolerance,
    toleranceSource: r.toleranceSource,
    transparentPixels: r.transparentPixels,
    semiTransparentPixels: r.semiTransparentPixels,
    fileSize: png.length,
    originalDimensions: r.originalDimensions,
    trimmedDimensions: r.trimmedDimensions,
    trimBox: r.trimBox,
    expiresAt: done?.expiresAt ? iso(done.expiresAt)! : null,
  };
}

async function result(ctx: Ctx) {
  const { jobs } = ctx.services;
  const j = await jobs.read(ctx.principal, ctx.params.job_id!, 'bg_remove');
  const img = await jobs.blob(j, 'image');
  return reply.binary(img.bytes, img.contentType, 200, { 'content-disposition': `inline; filename="${j.id}.png"`, 'cache-control': 'private, no-store' });
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/image/remove-background', auth: 'key', tags: ['Image Processing'],
    summary: 'Remove a chroma-key background (synchronous); PNG with alpha by URL or inline base64',
    body: { kind: 'json', schema: body, example: { imageUrl: 'https://images.example.com/green-screen.jpg', chromaKey: { color: '#00b140', tolerance: 60 }, trimTransparent: true } },
    maxBodyBytes: 64 * 1024,
    responses: ok('the processed image (URL or inline) and what was removed', removeBackgroundAnswer),
    handler: removeBackground,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/image/result/:job_id', auth: 'job', accessKeyQuery: 'key', tags: ['Image Processing'],
    summary: 'The PNG of a background-removal job (API key of the owner, or ?key=<accessKey> as in processedUrl); 410 after ttlHours',
    responses: { 200: { description: 'PNG image with alpha', contentType: 'image/png' } },
    // unknown query parameters (cache-busters) are ignored; key is still checked
    query: z.object({ key: z.string().min(1).max(200).optional() }),
    handler: result,
  }),
];
