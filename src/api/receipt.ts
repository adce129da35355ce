// Receipt: OCR-ready optimisation as an asynchronous receipt_ job (find paper, deskew, flatten lighting,
// Sauvola threshold, despeckle, 300 dpi), its status (`result`: the image URL, a string as the spec says;
// `details`: the measurements, documented in docs/image.md#receipt) and
// the image (?key=<accessKey>, or the owner's API key).
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';
import type { Services } from '../services.js';
import { defineRunner, type JobInput } from '../jobs/runners.js';

const MB = 1024 * 1024;
// unknown query parameters (cache-busters) are ignored on this GET result route; key is still checked
const imageQuery = z.object({ key: z.string().min(1).max(200).optional() });
import { iso } from '../clock.js';
import { ok } from './schemas/common.js';
import { examples, receiptCreated, receiptStatus } from './schemas/jobs.js';

/** The work of a receipt_ job (any node): the pixels of the image checked at acceptance. */
export const receiptRunner = defineRunner<JobInput<Record<string, never>, 'image'>, Services>('receipt', async (input, { services }) => {
  const t0 = performance.now();
  const r = await services.pool.run('receipt', { image: input.bytes.image, field: 'image', maxPixels: services.config.maxInputPixels });
  const png = Buffer.from(r.png.buffer, r.png.byteOffset, r.png.byteLength);
  return {
    result: {
      width: r.width, height: r.height, dpi: r.dpi, format: 'PNG', bitDepth: 1, fileSize: png.length,
      angle: r.angle, angleSource: r.angleSource, paperFound: r.paperFound, paperCorners: r.paperCorners, cropBox: r.cropBox,
      threshold: r.threshold, steps: r.steps, inputDimensions: [r.inputWidth, r.inputHeight],
      processingTimeMs: Math.round(performance.now() - t0),
    },
    blobs: { image: { bytes: png, contentType: 'image/png' } },
    actualCost: 0,
  };
});

async function optimize(ctx: Ctx) {
  const { services } = ctx;
  const bytes = ctx.files.image!.data;
  // header check now (bad image → 4xx at once, no job), pixels in the background
  await services.pool.run('image-info', { image: bytes, field: 'image', maxPixels: services.config.maxInputPixels }, { transfer: false });
  const { job, accessKey } = await services.jobs.create({ family: 'receipt', owner: ctx.principal.keyId, estimatedCost: 0, meta: {} });
  await services.queue.submit(receiptRunner, job.id, { json: {}, bytes: { image: bytes } });
  ctx.logExtra.jobId = job.id;
  return { success: true, jobId: job.id, accessKey, status: 'processing' };
}

async function status(ctx: Ctx) {
  const j = await ctx.services.jobs.read(ctx.principal, ctx.params.job_id!, 'receipt');
  const out: Record<string, unknown> = { jobId: j.id, status: j.status, progress: j.progress, result: null, details: null, createdAt: iso(j.createdAt), expiresAt: iso(j.expiresAt) };
  if (j.status === 'completed') {
    const r = j.result ?? {};
    const imageUrl = `/api/v1/receipt/image/${encodeURIComponent(j.id)}`;
    out.result = imageUrl;
    out.details = { imageUrl, ...r };
    out.processingTimeMs = r.processingTimeMs ?? null;
    out.actualCost = j.actualCost ?? 0;
  }
  if (j.status === 'failed') out.error = { code: j.error?.code ?? 'INTERNAL_ERROR', message: j.error?.message ?? 'processing failed' };
  return out;
}

async function image(ctx: Ctx) {
  const { jobs } = ctx.services;
  const j = await jobs.read(ctx.principal, ctx.params.job_id!, 'receipt');
  const img = await jobs.blob(j, 'image');
  return reply.binary(img.bytes, img.contentType, 200, { 'content-disposition': `inline; filename="${j.id}.png"`, 'cache-control': 'private, no-store' });
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/receipt/optimize', auth: 'key', tags: ['Receipt'],
    summary: 'Make a receipt photo OCR-ready (asynchronous receipt_ job)',
    body: { kind: 'multipart', files: { image: { required: true, maxBytes: 10 * MB } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    responses: ok('job accepted', receiptCreated, examples.receiptCreated),
    handler: optimize,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/receipt/status/:job_id', auth: 'job', tags: ['Receipt'],
    summary: 'Status of a receipt job; result = the image URL (string), details = {imageUrl, width, height, dpi, angle, cropBox, paperCorners, threshold, steps, …}',
    responses: ok('the job; details once completed', receiptStatus),
    handler: status,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/receipt/image/:job_id', auth: 'job', accessKeyQuery: 'key', tags: ['Receipt'], query: imageQuery,
    summary: 'The optimised receipt as a 1-bit 300-dpi PNG (API key, Bearer access key, or ?key=<accessKey>)',
    responses: { 200: { description: '1-bit PNG', contentType: 'image/png' } },
    handler: image,
  }),
];
