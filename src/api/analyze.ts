// Image Analysis (async, analyze_ jobs): multimodal analysis of an uploaded image, with optional preprocessing
// presets (ocr, qr, enhance) run in the worker pool before the provider call.
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { invalid } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { estimateTokenCost, tokenCost } from '../catalog/catalog.js';
import { ai, formTtlHours, iso, jobError, MAX_PROMPT, poolRun, startAi } from '../providers/ai/service.js';
import type { Services } from '../services.js';
import { defineRunner, type JobInput } from '../jobs/runners.js';
import { ApiError } from '../domain/errors.js';
import { ok } from './schemas/common.js';
import { aiJobCreated, analyzeStatus, examples } from './schemas/jobs.js';

export const DEFAULT_ANALYZE_MODEL = 'fam-b-3-flash-preview';
export const DEFAULT_ANALYZE_PROMPT = 'Describe this image in detail: objects, people, text (transcribed exactly), colours and layout.';
export const ANALYZE_MAX_TOKENS = 4096;
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

const fields = z.object({
  model: z.string().min(1).max(100).optional(),
  prompt: z.string().max(MAX_PROMPT).optional(),
  temperature: form.number(0, 1).optional(),
  enablePreprocessing: form.bool().optional(),
  preprocessingPreset: z.enum(['ocr', 'qr', 'enhance']).optional(),
  ttlHours: formTtlHours.optional(),
}).strict();
type Fields = z.infer<typeof fields>;

export async function start(services: Services): Promise<void> {
  await startAi(services);
}

type AnalyzeInput = JobInput<{
  model: string; preset: 'ocr' | 'qr' | 'enhance' | null; prompt: string; temperature: number; keyId: string | null; mime: string;
}, 'image'>;

/** The work of an analyze_ job (any node): optional preprocessing in the pool, then the provider call. */
export const analyzeRunner = defineRunner<AnalyzeInput, Services>('analyze', async ({ json: a, bytes }, { services, progress }) => {
  const t0 = performance.now();
  const gw = ai(services);
  const m = gw.catalog.get(a.model);
  if (!m) throw new ApiError('INTERNAL_ERROR', `The model ${a.model} is no longer in this node's catalog`);
  let image = { data: new Uint8Array(bytes.image.buffer, bytes.image.byteOffset, bytes.image.byteLength), mime: a.mime };
  let steps: string[] = [];
  if (a.preset) {
    const p = await poolRun(services, 'analyze-preprocess', { image: image.data, preset: a.preset, maxPixels: services.config.maxInputPixels });
    image = { data: p.bytes, mime: p.mime };
    steps = p.steps;
    await progress(0.3);
  }
  const r = await gw.text(m, { prompt: a.prompt, maxTokens: ANALYZE_MAX_TOKENS, temperature: a.temperature, image });
  const actualCost = tokenCost(m, r.usage);
  await services.spend.record({ keyId: a.keyId ?? undefined, family: 'analyze', cost: actualCost, at: services.clock.now() });
  return {
    result: { text: r.text, model: m.id, usage: r.usage, preprocessing: a.preset ? { preset: a.preset, steps } : null, processingTimeMs: Math.round(performance.now() - t0) },
    actualCost,
  };
}, { lane: 'io' });

async function analyze(ctx: Ctx<Fields>) {
  const b = ctx.body;
  const { services } = ctx;
  const gw = ai(services);
  const m = gw.model(b.model ?? DEFAULT_ANALYZE_MODEL, 'vision_analysis');
  if (b.enablePreprocessing === false && b.preprocessingPreset) {
    throw invalid('preprocessingPreset', 'no preprocessingPreset when enablePreprocessing is false', b.preprocessingPreset);
  }
  // a preset alone switches preprocessing on; enablePreprocessing alone uses the enhance preset
  const preset = b.enablePreprocessing || b.preprocessingPreset ? b.preprocessingPreset ?? 'enhance' : undefined;
  gw.ensureConfigured(m);
  const src = await services.pool.run('image-normalize', {
    image: ctx.files.image!.data, field: 'image', maxPixels: services.config.maxInputPixels, maxSide: 2048,
  });
  const promptText = b.prompt?.trim() ? b.prompt : DEFAULT_ANALYZE_PROMPT;
  const temperature = b.temperature ?? 0.7;
  const estimatedCost = estimateTokenCost(m, { promptChars: promptText.length, images: 1, maxOutputTokens: ANALYZE_MAX_TOKENS });
  const keyId = ctx.principal.keyId;
  const { job, accessKey } = await services.jobs.create({
    family: 'analyze', owner: keyId, ttlHours: b.ttlHours, estimatedCost,
    meta: { model: m.id, preset: preset ?? null, temperature },
  });
  await services.queue.submit(analyzeRunner, job.id, {
    json: { model: m.id, preset: preset ?? null, prompt: promptText, temperature, keyId: keyId ?? null, mime: src.mime },
    bytes: { image: Buffer.from(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength) },
  });
  return { success: true, jobId: job.id, accessKey, status: 'processing', model: m.id, estimatedCost };
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/analyze/image', auth: 'key', tags: ['Image Analysis'],
    summary: 'Start a multimodal analysis of an image (asynchronous, analyze_ job)',
    body: { kind: 'multipart', fields, files: { image: { required: true, maxBytes: MAX_IMAGE_BYTES } } },
    maxBodyBytes: MAX_IMAGE_BYTES + 256 * 1024,
    responses: ok('job accepted', aiJobCreated, examples.aiJobCreated),
    handler: analyze,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/analyze/status/:job_id', auth: 'job', tags: ['Image Analysis'],
    summary: 'Status of an analysis job; result is the model\'s answer text',
    responses: ok('the job', analyzeStatus),
    handler: async (ctx) => {
      const j = await ctx.services.jobs.read(ctx.principal, ctx.params.job_id!, 'analyze');
      const r = j.result ?? {};
      return {
        jobId: j.id, status: j.status, model: j.meta.model,
        result: j.status === 'completed' ? r.text ?? '' : null,
        usage: r.usage ?? null, preprocessing: r.preprocessing ?? null,
        processingTimeMs: r.processingTimeMs ?? null,
        estimatedCost: j.estimatedCost ?? null, actualCost: j.status === 'processing' ? null : j.actualCost ?? null,
        expiresAt: iso(j.expiresAt),
        ...(j.status === 'failed' ? { error: jobError(j) } : {}),
      };
    },
  }),
];
