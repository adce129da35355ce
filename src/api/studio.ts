// Photo Studio: catalog (open), skin-retouch / reshape / makeup (asynchronous studio_* jobs run in the pool,
// stage by stage so that progress is real), status (API key or the job's access key) and the image proxy
// (?key=<accessKey>; no storage key or signed URL is ever shown). Mosaic is a sibling module; its jobs
// (studio_mosaic) are also served by the status and image endpoints here.
import { z } from 'zod';
import { defineRoute, json, type Ctx, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import { defineRunner, type Json, type JobInput, type RunnerCtx } from '../jobs/runners.js';
import type { Family } from '../jobs/families.js';
import type { JobRecord } from '../jobs/engine.js';
import { sniffFormat } from '../tasks/lib/image-io.js';
import type { TaskInput, TaskName, TaskOutput } from '../tasks/table.js';
import { FEATURE_BY_ID, FEATURES, MAX_FACES, actualCost, bodySchema, catalogAnswer, estimateSeconds, type StudioFeature } from '../studio/catalog.js';
import { ok } from './schemas/common.js';
import { examples, studioCreated, studioStatus } from './schemas/jobs.js';
import { studioCatalog } from './schemas/models.js';
import { iso } from '../clock.js';

/** Job families readable through /studio/status and /studio/image. */
export const STUDIO_FAMILIES: Family[] = ['studio_skin', 'studio_reshape', 'studio_makeup', 'studio_mosaic'];
const FEATURE_OF_FAMILY: Partial<Record<Family, StudioFeature>> = Object.fromEntries(FEATURES.map((f) => [f.family, f]));
const TASK: Record<string, 'studio-skin' | 'studio-reshape' | 'studio-makeup'> = { 'skin-retouch': 'studio-skin', reshape: 'studio-reshape', makeup: 'studio-makeup' };
const MIME: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Progress milestones (0..1): image fetched, faces found, faces treated (spread), encoded → completed = 1. */
export const PROGRESS = { fetched: 0.1, detected: 0.4, treated: 0.95 } as const;

export async function start(services: Services): Promise<void> {
}

/** The feature's params with their defaults filled in (imageUrl left out). */
function withDefaults(f: StudioFeature, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of f.params) if (p.name !== 'imageUrl' && p.type !== 'array') out[p.name] = body[p.name] ?? p.default;
  return out;
}

/**
 * A pool call from a job's background work: a full pool queue (other areas' work) is waited out with backoff for
 * up to ~30 s instead of failing the job. Transfers happen only once a task is accepted, so a retry is safe.
 */
async function stage<N extends TaskName>(services: Services, task: N, input: TaskInput<N>, transfer = true): Promise<TaskOutput<N>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await services.pool.run(task, input, { transfer });
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'SERVICE_BUSY') || attempt >= 60) throw e;
      await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** Math.min(attempt, 4))));
    }
  }
}

async function create(ctx: Ctx<Record<string, unknown>>, f: StudioFeature) {
  const { services } = ctx;
  // admission: do not accept a job the pool cannot even queue
  if (services.pool.queued >= services.config.queueSize) {
    throw new ApiError('SERVICE_BUSY', `All ${services.pool.size} workers are busy and ${services.pool.queued} tasks are waiting; retry shortly`, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(services.pool.queued / services.pool.size))) } });
  }
  const body = ctx.body;
  const params = withDefaults(f, body);
  const bytes = await services.fetcher.fetchImage(String(body.imageUrl), 'imageUrl');
  const fmt = sniffFormat(bytes);
  if (fmt !== 'jpeg' && fmt !== 'png' && fmt !== 'webp') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Expected a JPEG, PNG or WebP image at imageUrl but received ${fmt === 'unknown' ? 'data that is not an image' : `a ${fmt.toUpperCase()} image`}`, { field: 'imageUrl' });
  }
  const estimatedCost = f.costPerImage;
  const estimatedTime = estimateSeconds(f, services.pool.queued, services.pool.size);
  const keyId = ctx.principal.keyId;
  const { job, accessKey } = await services.jobs.create({
    family: f.family, owner: keyId, estimatedCost,
    meta: { featureId: f.id, params, faceDetected: null, faceCount: null, facesTreated: null, estimatedTime },
  });
  await services.jobs.progress(job.id, PROGRESS.fetched);
  await services.queue.submit(studioRunner, job.id, { json: { featureId: f.id, fmt, params: params as StudioInput['json']['params'], keyId: keyId ?? null }, bytes: { image: bytes } });
  ctx.logExtra.jobId = job.id;
  return { success: true, jobId: job.id, accessKey, status: 'processing', featureId: f.id, estimatedCost, estimatedTime };
}

type StudioInput = JobInput<{ featureId: StudioFeature['id']; fmt: string; params: { [k: string]: Json | undefined }; keyId: string | null }, 'image'>;

/** The work of a studio_skin / studio_reshape / studio_makeup job (any node). */
export const studioRunner = defineRunner<StudioInput, Services>('studio', async ({ json: a, bytes }, { services, progress }) => {
  const f = FEATURE_BY_ID[a.featureId];
  if (!f) throw new ApiError('INTERNAL_ERROR', `No studio feature ${a.featureId} on this node`);
  return work(services, f, progress, bytes.image, a.fmt, a.params, a.keyId ?? undefined);
});

async function work(services: Services, f: StudioFeature, report: RunnerCtx['progress'], bytes: Buffer, fmt: string, params: Record<string, unknown>, keyId?: string) {
  const t0 = performance.now();
  const task = TASK[f.id]!;
  // the fetched bytes stay on this side (no transfer): they are the answer when there is no face
  const det = await stage(services, 'studio-detect', { stage: 'detect', image: bytes, field: 'imageUrl', maxPixels: services.config.maxInputPixels, maxFaces: MAX_FACES }, false);
  const n = det.faces.length;
  await report(PROGRESS.detected, { faceDetected: n > 0, faceCount: det.found, facesTreated: n });
  const base = { featureId: f.id, faceDetected: n > 0, faceCount: det.found, facesTreated: n, width: det.width, height: det.height, faces: det.faces.map((x) => ({ box: x.box, score: x.score })) };
  let image: { bytes: Uint8Array; contentType: string };
  if (n === 0) {
    // no face: the original image, unchanged, and no error (spec, reshape; the same for the other features)
    image = { bytes, contentType: MIME[fmt]! };
  } else {
    let rgb = det.rgb;
    let png: Uint8Array | undefined;
    for (let i = 0; i < n; i++) {
      const last = i === n - 1;
      const out = await stage(services, task, { stage: 'apply', rgb, width: det.width, height: det.height, faces: [det.faces[i]!.landmarks], params, encode: last });
      if (last) png = out.png;
      else rgb = out.rgb!;
      await report(PROGRESS.detected + ((PROGRESS.treated - PROGRESS.detected) * (i + 1)) / n);
    }
    image = { bytes: png!, contentType: 'image/png' };
  }
  const cost = actualCost(f, n);
  await services.spend.record({ keyId, family: f.family, cost, at: services.clock.now() });
  return {
    result: { ...base, processingTimeMs: Math.round(performance.now() - t0), format: image.contentType === 'image/png' ? 'PNG' : fmt.toUpperCase() },
    blobs: { image },
    actualCost: cost,
  };
}

function featureOf(j: JobRecord): StudioFeature | undefined {
  const id = j.meta.featureId;
  return (typeof id === 'string' && FEATURE_BY_ID[id as StudioFeature['id']]) || FEATURE_OF_FAMILY[j.family];
}

/** The key for the result URL: the caller's own access key when it authenticated with it, else the sealed one. */
function accessKeyFor(ctx: Ctx, j: JobRecord): string | undefined {
  const sealed = ctx.services.jobs.accessKeyOf(j);
  if (sealed) return sealed;
  return ctx.principal.kind === 'token' ? ctx.principal.token : undefined;
}

async function status(ctx: Ctx) {
  const j = await ctx.services.jobs.read(ctx.principal, ctx.params.job_id!, STUDIO_FAMILIES);
  const f = featureOf(j);
  const r = j.result ?? {};
  const faceDetected = (r.faceDetected ?? j.meta.faceDetected ?? null) as boolean | null;
  const facesTreated = (r.facesTreated ?? j.meta.facesTreated ?? null) as number | null;
  const faceCount = (r.faceCount ?? j.meta.faceCount ?? null) as number | null;
  const out: Record<string, unknown> = {
    jobId: j.id,
    status: j.status,
    featureId: f?.id ?? null,
    progress: Math.round(j.progress * 100),
    estimatedCost: j.estimatedCost ?? null,
    actualCost: j.status === 'processing' ? null : j.actualCost ?? 0,
    faceDetected,
    faceCount,
    facesTreated,
    facesNote: faceCount === null ? null
      : faceCount === 0 ? 'no face found: the original image is returned unchanged'
      : faceCount > (facesTreated ?? 0) ? `${faceCount} faces found; the ${facesTreated} largest were treated`
      : faceCount === 1 ? '1 face treated' : `${faceCount} faces found; each was treated`,
    params: j.meta.params ?? null,
    imageUrl: null,
    processingTimeMs: (r.processingTimeMs as number | undefined) ?? null,
  };
  if (j.status === 'completed') {
    const key = accessKeyFor(ctx, j);
    out.imageUrl = key ? `/api/v1/studio/image?key=${encodeURIComponent(key)}` : null;
    out.width = r.width ?? null;
    out.height = r.height ?? null;
    out.faces = r.faces ?? [];
    out.expiresAt = iso(j.expiresAt);
  }
  if (j.status === 'failed') out.error = { code: j.error?.code ?? 'INTERNAL_ERROR', message: j.error?.message ?? 'processing failed' };
  return out;
}

// unknown query parameters (cache-busters) are ignored; key is still checked
const imageQuery = z.object({ key: z.string().max(200).optional() });

async function image(ctx: Ctx<unknown, z.infer<typeof imageQuery>>) {
  const q = ctx.query;
  const { jobs } = ctx.services;
  const j = await jobs.readByAccessKey(q.key, STUDIO_FAMILIES, 'key');
  const img = await jobs.blob(j, 'image');
  const ext = img.contentType === 'image/jpeg' ? 'jpg' : img.contentType.split('/')[1] ?? 'png';
  return reply.binary(img.bytes, img.contentType, 200, { 'content-disposition': `inline; filename="${j.id}.${ext}"`, 'cache-control': 'private, no-store' });
}


const createRoute = (f: StudioFeature): RouteDef => defineRoute({
  method: 'POST', path: f.path, auth: 'key', tags: ['Photo Studio'],
  summary: `${f.label} (asynchronous ${FEATURE_OF_FAMILY[f.family] ? f.family + '_' : ''} job): ${f.params.filter((p) => p.name !== 'imageUrl').map((p) => `${p.name}${p.type === 'number' ? ` ${p.min}..${p.max}` : ''}${p.default !== undefined ? ` (default ${p.default})` : ''}`).join(', ')}`,
  body: json(bodySchema(f)),
  responses: ok('job accepted', studioCreated, examples.studioCreated),
  handler: (ctx) => create(ctx, f),
});

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/api/v1/studio/catalog', auth: 'none', tags: ['Photo Studio'],
    summary: 'Studio features with self-describing params (type, range, default, since version)',
    responses: ok('the features', studioCatalog),
    handler: () => catalogAnswer(),
  }),
  ...FEATURES.filter((f) => f.mode === 'async').map(createRoute),
  defineRoute({
    method: 'GET', path: '/api/v1/studio/status/:job_id', auth: 'job', tags: ['Photo Studio'],
    summary: 'Status of a studio job: progress 0..100, featureId, faceDetected, imageUrl (relative, carries the access key)',
    responses: ok('the job', studioStatus),
    handler: status,
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/studio/image', auth: 'none', tags: ['Photo Studio'], query: imageQuery,
    summary: 'The result image of a studio job by its access key (?key=); never a storage key or signed URL',
    responses: { 200: { description: 'PNG (or the original image when no face was found)', contentType: 'image/png' } },
    handler: image,
  }),
];
