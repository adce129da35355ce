// Image-to-Image (async, caric_ jobs) and its /api/v1/caricature/ aliases: generate (multipart image or imageUrl),
// status (relative imageUrl carrying the access key), image (binary PNG by access key).
import { z } from 'zod';
import type { Ctx, RouteDef } from '../server/types.js';
import { defineRoute, reply } from '../server/types.js';
import { ApiError, invalid } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { imageCost } from '../catalog/catalog.js';
import { ai, aspectRatio, formTtlHours, jobError, markImage, MAX_PROMPT, startAi } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { defineRunner, type JobInput } from '../jobs/runners.js';
import { ok } from './schemas/common.js';
import { aiJobCreated, caricStatus, examples } from './schemas/jobs.js';
import { iso } from '../clock.js';

export const DEFAULT_I2I_MODEL = 'fam-b-2.5-flash-image';
export const DEFAULT_I2I_PROMPT = 'Turn this photo into a friendly caricature: exaggerate the characteristic features a little, keep the person recognisable, clean background.';
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const fields = z.object({
  imageUrl: z.string().min(1).max(2048).optional(),
  model: z.string().min(1).max(100).optional(),
  prompt: z.string().max(MAX_PROMPT).optional(),
  aspectRatio: aspectRatio.optional(),
  aspect_ratio: aspectRatio.optional(),
  temperature: form.number(0, 2).optional(),
  ttlHours: formTtlHours.optional(),
}).strict();
type Fields = z.infer<typeof fields>;

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

type I2IInput = JobInput<{
  model: string; prompt: string; aspectRatio: z.infer<typeof aspectRatio> | null; temperature: number; keyId: string | null; mime: string;
}, 'image'>;

/** The work of a caric_ job (any node): the provider call on the normalised image, then the AI mark. */
export const imageToImageRunner = defineRunner<I2IInput, Services>('image-to-image', async ({ json: a, bytes }, { services }) => {
  const t0 = performance.now();
  const m = ai(services).catalog.get(a.model);
  if (!m) throw new ApiError('INTERNAL_ERROR', `The model ${a.model} is no longer in this node's catalog`);
  const ar = a.aspectRatio ?? undefined;
  const image = { data: new Uint8Array(bytes.image.buffer, bytes.image.byteOffset, bytes.image.byteLength), mime: a.mime };
  const up = await ai(services).image(m, { prompt: a.prompt, aspectRatio: ar, temperature: a.temperature, image });
  const marked = await markImage(services, m.id, up.data);
  const actualCost = imageCost(m, { aspectRatio: ar });
  await services.spend.record({ keyId: a.keyId ?? undefined, family: 'caric', cost: actualCost, at: services.clock.now() });
  return {
    result: { model: m.id, width: marked.width, height: marked.height, processingTime: Math.round(performance.now() - t0) / 1000 },
    blobs: { image: { bytes: marked.png, contentType: 'image/png' } },
    actualCost,
  };
}, { lane: 'io' });

async function generate(ctx: Ctx<Fields>) {
  const b = ctx.body;
  const { services } = ctx;
  const gw = ai(services);
  const m = gw.model(b.model ?? DEFAULT_I2I_MODEL, 'image_to_image');
  if (b.aspectRatio && b.aspect_ratio && b.aspectRatio !== b.aspect_ratio) {
    throw invalid('aspect_ratio', `the same value as aspectRatio ("${b.aspectRatio}") or only one of the two`, b.aspect_ratio);
  }
  const ar = b.aspectRatio ?? b.aspect_ratio;
  const file = ctx.files.image;
  if (file && b.imageUrl) throw invalid('imageUrl', 'either an image file or imageUrl, not both', b.imageUrl);
  if (!file && !b.imageUrl) throw new ApiError('INVALID_REQUEST', 'image is required: send an image file part or an imageUrl field', { field: 'image' });
  gw.ensureConfigured(m);
  const field = file ? 'image' : 'imageUrl';
  const bytes = file ? file.data : await services.fetcher.fetchImage(b.imageUrl!, 'imageUrl');
  const src = await services.pool.run('image-normalize', {
    image: bytes, field, maxPixels: services.config.maxInputPixels, maxSide: 2048,
  });
  const estimatedCost = imageCost(m, { aspectRatio: ar });
  const keyId = ctx.principal.keyId;
  const temperature = b.temperature ?? 0.9;
  const { job, accessKey } = await services.jobs.create({
    family: 'caric', owner: keyId, ttlHours: b.ttlHours, estimatedCost,
    meta: { model: m.id, aspectRatio: ar ?? null, temperature, source: field },
  });
  await services.queue.submit(imageToImageRunner, job.id, {
    json: { model: m.id, prompt: b.prompt?.trim() ? b.prompt : DEFAULT_I2I_PROMPT, aspectRatio: ar ?? null, temperature, keyId: keyId ?? null, mime: src.mime },
    bytes: { image: Buffer.from(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength) },
  });
  return { success: true, jobId: job.id, accessKey, status: 'processing', model: m.id, estimatedCost };
}

async function status(ctx: Ctx) {
  const { services } = ctx;
  const j = await services.jobs.read(ctx.principal, ctx.params.job_id!, 'caric');
  const prefix = ctx.path.startsWith('/api/v1/caricature/') ? '/api/v1/caricature' : '/api/v1/image-to-image';
  const base = { jobId: j.id, status: j.status, model: j.meta.model, estimatedCost: j.estimatedCost ?? null };
  if (j.status === 'completed') {
    const key = services.jobs.accessKeyOf(j);
    return {
      ...base,
      imageUrl: key ? `${prefix}/image?key=${encodeURIComponent(key)}` : null,
      processingTime: j.result?.processingTime ?? null,
      actualCost: j.actualCost ?? null,
      width: j.result?.width, height: j.result?.height,
      expiresAt: iso(j.expiresAt),
    };
  }
  if (j.status === 'failed') return { ...base, imageUrl: null, processingTime: null, actualCost: j.actualCost ?? 0, error: jobError(j) };
  return { ...base, imageUrl: null, processingTime: null, actualCost: null };
}

// unknown query parameters (cache-busters) are ignored; the known ones are still checked
const imageQuery = z.object({ accessKey: z.string().min(1).max(200).optional(), key: z.string().min(1).max(200).optional() });

async function image(ctx: Ctx<unknown, z.infer<typeof imageQuery>>) {
  const q = ctx.query;
  const { jobs } = ctx.services;
  const j = await jobs.readByAccessKey(q.accessKey ?? q.key, 'caric', 'accessKey');
  const img = await jobs.blob(j, 'image');
  return reply.binary(img.bytes, 'image/png', 200, { 'content-disposition': `inline; filename="${j.id}.png"`, 'cache-control': 'private, no-store' });
}

const genRoute = (path: string, alias: boolean): RouteDef => defineRoute({
  method: 'POST', path, auth: 'key', tags: ['Image-to-Image'],
  summary: alias ? 'Alias of POST /api/v1/image-to-image/generate' : 'Start an image transformation (asynchronous, caric_ job) from an uploaded image or an imageUrl',
  body: { kind: 'multipart', fields, files: { image: { required: false, maxBytes: MAX_IMAGE_BYTES, description: 'source picture (or send imageUrl)' } } },
  maxBodyBytes: MAX_IMAGE_BYTES + 256 * 1024,
  responses: ok('job accepted', aiJobCreated, examples.aiJobCreated),
  handler: generate,
});
const statusRoute = (path: string, alias: boolean): RouteDef => defineRoute({
  method: 'GET', path, auth: 'job', tags: ['Image-to-Image'],
  summary: alias ? 'Alias of GET /api/v1/image-to-image/status/{job_id}' : 'Status of an image-to-image job (imageUrl relative, processingTime in seconds)',
  responses: ok('the job', caricStatus, examples.caricStatus),
  handler: status,
});
const imageRoute = (path: string, alias: boolean): RouteDef => defineRoute({
  method: 'GET', path, auth: 'none', tags: ['Image-to-Image'], query: imageQuery,
  summary: alias ? 'Alias of GET /api/v1/image-to-image/image' : 'The transformed image as binary PNG; the job access key as query accessKey (or key)',
  responses: { 200: { description: 'PNG image', contentType: 'image/png' } },
  handler: image,
});

export const routes: RouteDef[] = [
  genRoute('/api/v1/image-to-image/generate', false),
  statusRoute('/api/v1/image-to-image/status/:job_id', false),
  imageRoute('/api/v1/image-to-image/image', false),
  genRoute('/api/v1/caricature/generate', true),
  statusRoute('/api/v1/caricature/status/:job_id', true),
  imageRoute('/api/v1/caricature/image', true),
];
