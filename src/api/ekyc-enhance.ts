// eKYC Enhance: tiled enhancement with privacy regions (POST /ekyc/enhance, status, image), the combined pipeline
// (POST /ekyc/enhance-pipeline), signed completion callbacks and cost per tenant. docs/enhance.md.
import { z } from 'zod';
import { ApiError, isApiError } from '../domain/errors.js';
import { form } from '../server/validate.js';
import { defineRoute, reply, type Ctx, type RouteDef } from '../server/types.js';
import type { Services } from '../services.js';
import type { Family } from '../jobs/families.js';
import type { Completion } from '../jobs/engine.js';
import { defineRunner, type JobInput, type Runner } from '../jobs/runners.js';
import type { PrivacyRegion } from '../tasks/lib/tiling.js';
import { Callbacks } from '../providers/callbacks.js';
import { LmdbCallbackRepository, type CallbackRepository } from '../providers/callback-repo.js';
import { PgCallbackRepository } from '../providers/callback-repo-pg.js';
import { DOC_TYPES, PRIVACY_MODES, parsePrivacyRegions, resolveRegions, type DocType, type PrivacyMode } from '../enhance/privacy.js';
import { runEnhance, qualitySummary } from '../enhance/pipeline.js';
import { runPipeline, type PipelineContext } from '../enhance/ekyc-pipeline.js';
import { COSTS, pipelineCost } from '../enhance/costs.js';
import { ok } from './schemas/common.js';
import { enhanceAccepted, enhanceDone, enhanceStatus, pipelineDone, pipelineStatus, stillProcessing, webhookSecret } from './schemas/ekyc.js';
import { iso } from '../clock.js';

const MB = 1024 * 1024;
const IMAGE_RULE = { required: true, maxBytes: 10 * MB, types: ['jpeg', 'png'] as Array<'jpeg' | 'png'>, description: 'ID card image, JPEG or PNG, at most 10 MB' };

const common = {
  privacy_mode: z.enum(PRIVACY_MODES).optional(),
  privacy_regions: z.string().max(16384).optional(),
  callback_url: z.string().min(1).max(2048).optional(),
  callback_meta: z.string().max(16384).optional(),
  tenant_id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/, 'letters, digits, . _ : - (1 to 64)').optional(),
};

const enhanceFields = z.object({ doc_type: z.enum(DOC_TYPES), ...common }).strict();
const pipelineFields = z.object({
  doc_type: z.enum(DOC_TYPES).optional(),
  ...common,
  skip_ocr: form.bool().optional(),
  skip_enhance: form.bool().optional(),
  skip_crop: form.bool().optional(),
}).strict();

type EnhanceFields = z.infer<typeof enhanceFields>;
type PipelineFields = z.infer<typeof pipelineFields>;

const callbacksOf = (s: Services): Callbacks => {
  const c = s.ext.callbacks;
  if (!c) throw new ApiError('INTERNAL_ERROR', 'The callback dispatcher is not running');
  return c;
};

function parseMeta(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError('INVALID_REQUEST', `Expected JSON text for callback_meta but it is not valid JSON (${(e as Error).message})`, { field: 'callback_meta' });
  }
}

const imageUrl = (s: Services, family: Family, id: string) =>
  `${s.baseUrl()}/api/v1/ekyc/${family === 'ekyc_enhance' ? 'enhance' : 'enhance-pipeline'}/image/${id}`;
const statusUrl = (s: Services, family: Family, id: string) =>
  `${s.baseUrl()}/api/v1/ekyc/${family === 'ekyc_enhance' ? 'enhance' : 'enhance-pipeline'}/status/${id}`;

/**
 * Create the job, register its callback, run the work in the background. Without a callback the request waits for
 * the outcome (synchronous mode); with one it answers 202 at once and the completion is POSTed.
 */
async function startJob<I extends JobInput>(
  ctx: Ctx,
  opts: {
    family: Family;
    estimatedCost: number;
    meta: Record<string, unknown>;
    tenant?: string;
    callbackUrl?: string;
    callbackMeta?: unknown;
    runner: Runner<I, Services>;
    input: I;
  },
): Promise<object> {
  const { services } = ctx;
  const { jobs } = services;
  // resolved now: a name that points to a private address is refused here, not accepted and never delivered
  const callbackUrl = opts.callbackUrl ? (await services.fetcher.checkUrlResolved(opts.callbackUrl, 'callback_url')).href : undefined;
  const { job, accessKey } = await jobs.create({ family: opts.family, owner: ctx.principal.keyId, estimatedCost: opts.estimatedCost, meta: opts.meta, tenant: opts.tenant });
  if (callbackUrl) {
    await callbacksOf(services).register({ jobId: job.id, url: callbackUrl, meta: opts.callbackMeta, type: opts.family === 'ekyc_enhance' ? 'ekyc.enhance' : 'ekyc.pipeline' });
  }
  ctx.logExtra.jobId = job.id;
  if (callbackUrl) {
    // answered at once: the work goes to the queue (any node of a fleet may run it)
    await services.queue.submit(opts.runner, job.id, opts.input);
    return reply.json({
      success: true, jobId: job.id, accessKey, status: 'processing',
      statusUrl: statusUrl(services, opts.family, job.id), enhancedImageUrl: imageUrl(services, opts.family, job.id),
      estimatedCostUsd: opts.estimatedCost, callback: { url: callbackUrl },
    }, 202);
  }
  // synchronous mode: the request waits for its own job, so the work runs here, on the node holding the request
  const { thrown } = await services.queue.runHere(opts.runner, job.id, opts.input);
  if (thrown) {
    if (isApiError(thrown)) throw thrown;
    throw new ApiError('INTERNAL_ERROR', `Processing failed: ${(thrown as Error)?.message ?? String(thrown)}`, { details: { jobId: job.id } });
  }
  const j = (await jobs.get(job.id))!;
  if (j.status !== 'completed') throw new ApiError((j.error?.code as 'INTERNAL_ERROR') ?? 'INTERNAL_ERROR', j.error?.message ?? 'The job did not complete');
  return { ...j.result, accessKey };
}

// ------------------------------------------------------------------ the runners (any node runs an async job)
/** a privacy region as JSON (the same fields as PrivacyRegion) */
type Region = { [K in keyof PrivacyRegion]: PrivacyRegion[K] };
type EnhanceInput = JobInput<{ docType: DocType; mode: PrivacyMode; regions: Region[]; tenant: string | null; keyId: string | null }, 'image'>;
type PipelineInput = JobInput<{
  docType: DocType | null; privacyMode: PrivacyMode | null; privacyRegions: Region[] | null;
  skipCrop: boolean; skipOcr: boolean; skipEnhance: boolean; cost: number; tenant: string | null; keyId: string | null;
}, 'image'>;

const recordSpend = (services: Services, a: { keyId: string | null; tenant: string | null }, family: Family, cost: number) =>
  services.spend.record({ keyId: a.keyId ?? undefined, tenant: a.tenant ?? undefined, family, cost, at: services.clock.now() });

export const enhanceRunner = defineRunner<EnhanceInput, Services>('ekyc-enhance', async ({ json: a, bytes }, { services, jobId, progress }) => {
  const e = await runEnhance(services, {
    image: bytes.image,
    regions: a.regions,
    onProgress: (p, tiles) => progress(p, { tilesProcessed: tiles }),
  });
  const result = {
    success: true,
    jobId,
    status: 'completed',
    docType: a.docType,
    privacyMode: a.mode,
    privacyRegions: e.regions,
    enhancedImageUrl: imageUrl(services, 'ekyc_enhance', jobId),
    qualityBefore: qualitySummary(e.qualityBefore),
    qualityAfter: qualitySummary(e.qualityAfter),
    tilesProcessed: e.tilesProcessed,
    processingTimeMs: e.processingTimeMs,
    estimatedCostUsd: COSTS.enhance,
    tenantId: a.tenant,
    width: e.width,
    height: e.height,
    filters: e.params.params,
  };
  await recordSpend(services, a, 'ekyc_enhance', COSTS.enhance);
  return { result, blobs: { image: { bytes: e.jpeg, contentType: 'image/jpeg' }, png: { bytes: e.png, contentType: 'image/png' } }, actualCost: COSTS.enhance };
});

export const pipelineRunner = defineRunner<PipelineInput, Services>('ekyc-pipeline', async ({ json: a, bytes }, { services, jobId, progress }) => {
  const t0 = Date.now();
  const skip = { skipCrop: a.skipCrop, skipOcr: a.skipOcr, skipEnhance: a.skipEnhance };
  const c: PipelineContext = await runPipeline(services, {
    image: bytes.image,
    docType: a.docType ?? undefined,
    privacyMode: a.privacyMode ?? undefined,
    privacyRegions: a.privacyRegions ?? undefined,
    ...skip,
    enhancedImageUrl: imageUrl(services, 'ekyc_pipeline', jobId),
    onProgress: (p) => progress(p),
  });
  const result = {
    success: true,
    jobId,
    status: 'completed',
    docType: c.docType ?? null,
    docTypeSource: c.docTypeSource,
    docTypeConfidence: c.docTypeConfidence ?? null,
    steps: { perspectiveCrop: c.steps.perspectiveCrop, qualityAnalysis: c.steps.qualityAnalysis, ocr: c.steps.ocr, enhance: c.steps.enhance },
    totalTimeMs: Date.now() - t0,
    estimatedCostUsd: a.cost,
    tenantId: a.tenant,
  };
  const blobs: Completion['blobs'] = {};
  if (c.enhanced) {
    blobs.image = { bytes: c.enhanced.jpeg, contentType: 'image/jpeg' };
    blobs.png = { bytes: c.enhanced.png, contentType: 'image/png' };
  }
  await recordSpend(services, a, 'ekyc_pipeline', a.cost);
  return { result, blobs, actualCost: a.cost };
});

// ------------------------------------------------------------------ POST /api/v1/ekyc/enhance
async function enhanceHandler(ctx: Ctx<EnhanceFields>): Promise<object> {
  const b = ctx.body;
  const explicit = b.privacy_regions !== undefined ? parsePrivacyRegions(b.privacy_regions) : undefined;
  const { mode, regions } = resolveRegions(b.doc_type, b.privacy_mode, explicit);
  const callbackMeta = parseMeta(b.callback_meta);
  const image = ctx.files.image!.data;
  return startJob(ctx, {
    family: 'ekyc_enhance',
    estimatedCost: COSTS.enhance,
    meta: { docType: b.doc_type, privacyMode: mode, regions: regions.length, tilesProcessed: 0 },
    tenant: b.tenant_id,
    callbackUrl: b.callback_url,
    callbackMeta,
    runner: enhanceRunner,
    input: { json: { docType: b.doc_type, mode, regions, tenant: b.tenant_id ?? null, keyId: ctx.principal.keyId ?? null }, bytes: { image } },
  });
}

// ------------------------------------------------------------------ POST /api/v1/ekyc/enhance-pipeline
async function pipelineHandler(ctx: Ctx<PipelineFields>): Promise<object> {
  const b = ctx.body;
  const explicit = b.privacy_regions !== undefined ? parsePrivacyRegions(b.privacy_regions) : undefined;
  // validate the mode/regions combination now (the doc type may only be known later)
  resolveRegions(b.doc_type, b.privacy_mode, explicit);
  const callbackMeta = parseMeta(b.callback_meta);
  const skip = { skipCrop: b.skip_crop ?? false, skipOcr: b.skip_ocr ?? false, skipEnhance: b.skip_enhance ?? false };
  const cost = pipelineCost(skip);
  const image = ctx.files.image!.data;
  return startJob(ctx, {
    family: 'ekyc_pipeline',
    estimatedCost: cost,
    meta: { docType: b.doc_type ?? null, ...skip },
    tenant: b.tenant_id,
    callbackUrl: b.callback_url,
    callbackMeta,
    runner: pipelineRunner,
    input: {
      json: {
        docType: b.doc_type ?? null, privacyMode: b.privacy_mode ?? null, privacyRegions: explicit ?? null, ...skip,
        cost, tenant: b.tenant_id ?? null, keyId: ctx.principal.keyId ?? null,
      },
      bytes: { image },
    },
  });
}

// ------------------------------------------------------------------ status and image
function statusHandler(family: Family) {
  return async (ctx: Ctx): Promise<object> => {
    const { jobs } = ctx.services;
    // an expired job answers 410 IMAGE_EXPIRED, as every other status endpoint does (docs/enhance.md)
    const j = await jobs.read(ctx.principal, ctx.params.jobId!, family);
    const r = (j.result ?? {}) as Record<string, unknown>;
    const base: Record<string, unknown> = {
      jobId: j.id,
      status: j.status,
      progress: Math.round(j.progress * 1000) / 1000,
      enhancedImageUrl: j.status === 'completed' && j.blobs?.image ? imageUrl(ctx.services, family, j.id) : null,
      createdAt: iso(j.createdAt)!,
      completedAt: iso(j.completedAt),
      expiresAt: iso(j.expiresAt),
      estimatedCostUsd: j.estimatedCost ?? null,
      actualCostUsd: j.actualCost ?? null,
      error: j.error ?? null,
    };
    if (family === 'ekyc_enhance') {
      Object.assign(base, {
        tilesProcessed: (r.tilesProcessed as number | undefined) ?? (j.meta.tilesProcessed as number | undefined) ?? 0,
        processingTimeMs: (r.processingTimeMs as number | undefined) ?? (j.completedAt ? j.completedAt - j.createdAt : null),
        qualityBefore: r.qualityBefore ?? null,
        qualityAfter: r.qualityAfter ?? null,
      });
    } else {
      Object.assign(base, { steps: r.steps ?? null, docType: r.docType ?? null, totalTimeMs: r.totalTimeMs ?? null });
    }
    const cb = await ctx.services.ext.callbacks?.forJob(j.id);
    if (cb) base.callback = { state: cb.state, attempts: cb.attempts, lastStatus: cb.lastStatus ?? null, nextAttemptAt: iso(cb.nextAt) };
    return base;
  };
}

function imageHandler(family: Family) {
  return async (ctx: Ctx<unknown, { format?: 'jpeg' | 'png' }>) => {
    const { jobs } = ctx.services;
    const j = await jobs.read(ctx.principal, ctx.params.jobId!, family); // 404 unknown / other family, 410 expired
    if (j.status === 'processing') {
      return reply.json({ jobId: j.id, status: 'processing', progress: Math.round(j.progress * 1000) / 1000 }, 202, { 'retry-after': '1' });
    }
    if (j.status === 'failed') {
      throw new ApiError('JOB_FAILED', `Job ${j.id} failed: ${j.error?.message ?? 'unknown reason'}`, { status: 404, details: { jobId: j.id, error: j.error ?? null } });
    }
    const name = ctx.query.format === 'png' ? 'png' : 'image';
    if (!j.blobs?.[name]) throw new ApiError('NOT_FOUND', `Job ${j.id} has no enhanced image (the enhance step was skipped)`);
    const b = await jobs.blob(j, name);
    return reply.binary(b.bytes, b.contentType, 200, { 'cache-control': 'private, max-age=3600' });
  };
}

const jobIdParam = 'jobId';
// unknown query parameters (cache-busters) are ignored on the GET result routes; format and key are still checked
const imageQuery = z.object({ format: z.enum(['jpeg', 'png']).optional(), key: z.string().optional() });

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/enhance', auth: 'key', tags: ['eKYC Enhance'],
    summary: 'Enhance a perspective-corrected ID card in overlapping tiles; privacy regions are blurred before and restored after',
    responses: { 200: { description: 'synchronous mode: the finished job', schema: enhanceDone }, 202: { description: 'callback_url mode: accepted; completion is POSTed (see webhooks)', schema: enhanceAccepted } },
    body: { kind: 'multipart', fields: enhanceFields, files: { image: IMAGE_RULE } },
    maxBodyBytes: 11 * MB,
    handler: enhanceHandler,
  }),
  defineRoute({
    method: 'GET', path: `/api/v1/ekyc/enhance/status/:${jobIdParam}`, auth: 'job', tags: ['eKYC Enhance'],
    summary: 'Status of an enhance job: progress 0.0-1.0 advancing tile by tile',
    responses: ok('the job', enhanceStatus),
    handler: statusHandler('ekyc_enhance'),
  }),
  defineRoute({
    method: 'GET', path: `/api/v1/ekyc/enhance/image/:${jobIdParam}`, auth: 'job', accessKeyQuery: 'key', tags: ['eKYC Enhance'], errors: ['NOT_FOUND', { code: 'JOB_FAILED', status: 404 }],
    summary: 'Enhanced image: 200 JPEG when done (format=png for the lossless copy), 202 while processing, 404 failed, 410 after 1 h',
    query: imageQuery,
    responses: { 200: { description: 'the enhanced card (format=png: PNG)', contentType: 'image/jpeg' }, 202: { description: 'still processing (Retry-After)', schema: stillProcessing } },
    handler: imageHandler('ekyc_enhance'),
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/enhance-pipeline', auth: 'key', tags: ['eKYC Enhance'],
    summary: 'Perspective crop, quality analysis, OCR and enhancement in one job',
    responses: { 200: { description: 'synchronous mode: the finished job', schema: pipelineDone }, 202: { description: 'callback_url mode: accepted; completion is POSTed (see webhooks)', schema: enhanceAccepted } },
    body: { kind: 'multipart', fields: pipelineFields, files: { image: IMAGE_RULE } },
    maxBodyBytes: 11 * MB,
    handler: pipelineHandler,
  }),
  defineRoute({
    method: 'GET', path: `/api/v1/ekyc/enhance-pipeline/status/:${jobIdParam}`, auth: 'job', tags: ['eKYC Enhance'],
    summary: 'Status of a pipeline job (for callback_url mode)',
    responses: ok('the job', pipelineStatus),
    handler: statusHandler('ekyc_pipeline'),
  }),
  defineRoute({
    method: 'GET', path: `/api/v1/ekyc/enhance-pipeline/image/:${jobIdParam}`, auth: 'job', accessKeyQuery: 'key', tags: ['eKYC Enhance'], errors: ['NOT_FOUND', { code: 'JOB_FAILED', status: 404 }],
    summary: 'Enhanced image of a pipeline job (same answers as the enhance image endpoint)',
    responses: { 200: { description: 'the enhanced card (format=png: PNG)', contentType: 'image/jpeg' }, 202: { description: 'still processing (Retry-After)', schema: stillProcessing } },
    query: imageQuery,
    handler: imageHandler('ekyc_pipeline'),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/ekyc/enhance/webhook-secret', auth: 'admin', tags: ['eKYC Enhance'],
    summary: 'The secret that signs completion callbacks (Standard Webhooks), for configuring receivers',
    responses: ok('the signing secret', webhookSecret),
    handler: (ctx) => ({ secret: callbacksOf(ctx.services).secret, scheme: 'standard-webhooks v1 (HMAC-SHA256)', source: ctx.services.config.webhookSecret ? 'SEJONG_WEBHOOK_SECRET' : 'generated' }),
  }),
];

export async function start(services: Services): Promise<void> {
  // the outbox: the one place its storage is chosen (PostgreSQL in shared mode, where any node delivers)
  const { engines } = services;
  let repo: CallbackRepository;
  if (engines.mode === 'shared') repo = new PgCallbackRepository(engines.pg);
  else {
    const lmdb = new LmdbCallbackRepository(services.store, services.jobs.sealer);
    await lmdb.init();
    repo = lmdb;
  }
  const node = engines.mode === 'shared' ? engines.node : 'local';
  const cb = new Callbacks({ repo, node, clock: services.clock, fetcher: services.fetcher, jobs: services.jobs, log: services.log, config: services.config });
  services.ext.callbacks = cb;
  await cb.start();
}

export async function stop(services: Services): Promise<void> {
  await services.ext.callbacks?.stop();
}
