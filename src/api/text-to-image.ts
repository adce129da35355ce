// Text-to-Image (async, txt2img_ jobs): generate, status, download, models. Catalog-driven model rules.
import { z } from 'zod';
import { defineRoute, type Ctx, type Reply, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';
import { invalid } from '../domain/errors.js';
import { imageCost, type ImageSize } from '../catalog/catalog.js';
import { ai, aspectRatio, iso, jobError, markImage, prompt, startAi, ttlHours, withStyle } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { answerCache, keptAnswer } from './answer-cache.js';
import { defineRunner, type JobInput } from '../jobs/runners.js';
import { ApiError } from '../domain/errors.js';
import { ok } from './schemas/common.js';
import { examples, txt2imgCreated, txt2imgStatus } from './schemas/jobs.js';
import { txt2imgModels } from './schemas/models.js';

const generateBody = z.object({
  model: z.string().min(1).max(100),
  prompt,
  aspect_ratio: aspectRatio.optional(),
  style: z.string().max(1000).optional(),
  image_size: z.enum(['1K', '2K', '4K']).optional(),
  system_instruction: z.string().min(1).max(8000).optional(),
  storage_type: z.string().min(1).max(64).optional(),
  ttlHours: ttlHours.optional(),
}).strict();

const downloadUrl = (services: Services, id: string) => `${services.baseUrl()}/api/v1/text-to-image/download/${id}`;

type T2IInput = JobInput<{
  model: string; prompt: string; aspectRatio: z.infer<typeof aspectRatio> | null; imageSize: ImageSize | null;
  systemInstruction: string | null; keyId: string | null;
}, never>;

/** The work of a txt2img_ job (any node): the provider call, then the AI mark. */
export const textToImageRunner = defineRunner<T2IInput, Services>('text-to-image', async ({ json: a }, { services }) => {
  const t0 = performance.now();
  const m = ai(services).catalog.get(a.model);
  if (!m) throw new ApiError('INTERNAL_ERROR', `The model ${a.model} is no longer in this node's catalog`);
  const imageSize = a.imageSize ?? undefined;
  const aspect = a.aspectRatio ?? undefined;
  const up = await ai(services).image(m, { prompt: a.prompt, aspectRatio: aspect, imageSize, systemInstruction: a.systemInstruction ?? undefined });
  const marked = await markImage(services, m.id, up.data);
  const actualCost = imageCost(m, { imageSize, aspectRatio: aspect });
  await services.spend.record({ keyId: a.keyId ?? undefined, family: 'txt2img', cost: actualCost, at: services.clock.now() });
  return {
    result: { model: m.id, width: marked.width, height: marked.height, processingTimeMs: Math.round(performance.now() - t0) },
    blobs: { image: { bytes: marked.png, contentType: 'image/png' } },
    actualCost,
  };
}, { lane: 'io' });

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

/** A txt2img job's status as read(): the completed answer built once and kept, or the processing / failed state. */
async function txt2imgStatusOf(ctx: Ctx<unknown, unknown, Record<string, string>>): Promise<Reply | object> {
  const { jobs } = ctx.services;
  const j = await jobs.read(ctx.principal, ctx.params.job_id!, 'txt2img');
  if (j.status === 'completed') {
    // the answer's bytes are kept per completed job (answer-cache.ts): built once, after read() checked the caller
    const body = await answerCache(ctx.services).jsonAsync(j, 'txt2img-status', async () => ({
      jobId: j.id, status: j.status, model: j.meta.model, estimatedCost: j.estimatedCost ?? null, imageUrl: downloadUrl(ctx.services, j.id), imageData: (await jobs.blob(j, 'image')).bytes.toString('base64'),
      processingTimeMs: j.result?.processingTimeMs ?? null, actualCost: j.actualCost ?? null,
      width: j.result?.width, height: j.result?.height, expiresAt: iso(j.expiresAt),
    }));
    return reply.make({ status: 200, body, contentType: 'application/json' });
  }
  const base = { jobId: j.id, status: j.status, model: j.meta.model, estimatedCost: j.estimatedCost ?? null };
  if (j.status === 'failed') return { ...base, imageUrl: null, processingTimeMs: null, actualCost: j.actualCost ?? 0, error: jobError(j) };
  return { ...base, imageUrl: null, processingTimeMs: null, actualCost: null };
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/text-to-image/generate', auth: 'key', tags: ['Text-to-Image'],
    summary: 'Start an image generation from a text prompt (asynchronous, txt2img_ job)',
    body: { kind: 'json', schema: generateBody },
    responses: ok('job accepted', txt2imgCreated, examples.txt2imgCreated),
    handler: async (ctx) => {
      const b = ctx.body;
      const { services } = ctx;
      const gw = ai(services);
      const m = gw.model(b.model, 'image_generation');
      const accepting = (pred: (x: typeof m) => boolean) => gw.catalog.with('image_generation').filter(pred).map((x) => x.id).join(', ');
      if (b.image_size !== undefined && !m.imageSizes.includes(b.image_size)) {
        throw invalid('image_size', `no image_size for model ${m.id} (only ${accepting((x) => x.imageSizes.length > 0)} accept it)`, b.image_size);
      }
      if (b.system_instruction !== undefined && !m.systemInstruction) {
        throw invalid('system_instruction', `no system_instruction for model ${m.id} (only ${accepting((x) => x.systemInstruction)} accept it)`, b.system_instruction);
      }
      gw.ensureConfigured(m);
      const imageSize: ImageSize | undefined = m.imageSizes.length ? b.image_size ?? m.defaultImageSize : undefined;
      const estimatedCost = imageCost(m, { imageSize, aspectRatio: b.aspect_ratio });
      const keyId = ctx.principal.keyId;
      const { job, accessKey } = await services.jobs.create({
        family: 'txt2img', owner: keyId, ttlHours: b.ttlHours, estimatedCost,
        meta: { model: m.id, aspectRatio: b.aspect_ratio ?? null, imageSize: imageSize ?? null, storageType: b.storage_type ?? null },
      });
      await services.queue.submit(textToImageRunner, job.id, {
        json: {
          model: m.id, prompt: withStyle(b.prompt, b.style), aspectRatio: b.aspect_ratio ?? null, imageSize: imageSize ?? null,
          systemInstruction: b.system_instruction ?? null, keyId: keyId ?? null,
        },
        bytes: {},
      });
      return {
        success: true, jobId: job.id, accessKey, status: 'processing', model: m.id, estimatedCost,
        message: `Image generation started; poll GET /api/v1/text-to-image/status/${job.id} with your API key or Authorization: Bearer <accessKey>`,
      };
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/text-to-image/status/:job_id', auth: 'job', tags: ['Text-to-Image'],
    summary: 'Status of a text-to-image job; the completed image is inline in imageData (base64 PNG)',
    responses: ok('the job', txt2imgStatus, examples.txt2imgStatus),
    // a completed job's kept answer goes out in the turn the poll arrived (no promise); the first poll builds it
    handler: (ctx) => keptAnswer(ctx, 'txt2img', 'txt2img-status') ?? txt2imgStatusOf(ctx),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/text-to-image/download/:job_id', auth: 'job', tags: ['Text-to-Image'],
    summary: 'The generated image as binary PNG',
    responses: { 200: { description: 'PNG image', contentType: 'image/png' } },
    handler: async (ctx) => {
      const { jobs } = ctx.services;
      const j = await jobs.read(ctx.principal, ctx.params.job_id!, 'txt2img');
      const img = await jobs.blob(j, 'image');
      return reply.binary(img.bytes, 'image/png', 200, { 'content-disposition': `inline; filename="${j.id}.png"`, 'cache-control': 'private, no-store' });
    },
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/text-to-image/models', auth: 'key', tags: ['Text-to-Image'],
    summary: 'Text-to-image models (retired models are left out)',
    responses: ok('the models', txt2imgModels),
    handler: (ctx) => {
      const gw = ai(ctx.services);
      const now = ctx.services.clock.now();
      return {
        models: gw.catalog.with('image_generation').filter((m) => !gw.catalog.isRetired(m, now)).map((m) => ({
          id: m.id, name: m.name, provider: m.family, costPerImage: m.cost,
          supportedImageSizes: m.imageSizes, supportsSystemInstruction: m.systemInstruction,
          status: gw.catalog.statusText(m),
        })),
      };
    },
  }),
];
