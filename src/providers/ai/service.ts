// What the AI api modules share: the gateway (one per server, in services.ext.ai), the AI mark through the pool,
// field rules (aspect ratios, ttlHours).
import { z } from 'zod';
import type { Services } from '../../services.js';
import { isApiError } from '../../domain/errors.js';
import type { JobRecord } from '../../jobs/engine.js';
import { AiGateway } from './gateway.js';
import { UpstreamError } from './http.js';
import { Gate, type AiSlot } from './gate.js';
import type { TaskInput, TaskName, TaskOutput } from '../../tasks/table.js';

/** The gateway of this server (built on first use from config; tests may tweak gateway.http). */
export function ai(services: Services): AiGateway {
  return aiSlot(services).gateway;
}

function aiSlot(services: Services): AiSlot {
  return (services.ext.ai ??= { gateway: AiGateway.fromConfig(services.config, () => services.clock.now()) });
}

/** Called from every AI module's start(): builds the gateway (catalog file errors surface here). */
export async function startAi(services: Services): Promise<void> {
  ai(services);
}

/**
 * Run a pool task from a job's background work: at most 2 × workers in flight from AI jobs, and a full pool
 * queue (other areas' work) is waited out with backoff for up to ~30 s instead of failing the job.
 */
export async function poolRun<N extends TaskName>(services: Services, task: N, input: TaskInput<N>): Promise<TaskOutput<N>> {
  const slot = aiSlot(services);
  const gate = (slot.gate ??= new Gate(Math.max(2, services.config.workers * 2)));
  return gate.run(async (): Promise<TaskOutput<N>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await services.pool.run(task, input, { transfer: false });
      } catch (e) {
        if (!(isApiError(e) && e.code === 'SERVICE_BUSY') || attempt >= 60) throw e;
        await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** Math.min(attempt, 4))));
      }
    }
  });
}

/** Draw the AI mark in the pool; an upstream picture that cannot be decoded is the provider's failure (502). */
export async function markImage(services: Services, modelId: string, data: Buffer | Uint8Array): Promise<{ png: Buffer; width: number; height: number }> {
  try {
    const out = await poolRun(services, 'ai-mark', {
      image: data,
      maxPixels: services.config.maxInputPixels,
      field: 'upstream image',
    });
    return { png: Buffer.from(out.png.buffer, out.png.byteOffset, out.png.byteLength), width: out.width, height: out.height };
  } catch (e) {
    if (isApiError(e) && (e.code === 'INVALID_REQUEST' || e.code === 'UNSUPPORTED_MEDIA_TYPE')) {
      throw new UpstreamError(`The provider of model ${modelId} answered with an image that cannot be decoded`);
    }
    throw e;
  }
}

/** Aspect ratios accepted by the image endpoints (the spec shows 1:1, 16:9, 3:4; the rest are the usual set). */
export const ASPECT_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
export const aspectRatio = z.enum(ASPECT_RATIOS);

/** ttlHours: a JSON number, more than 0, at most 720 (30 days). */
export const ttlHours = z.number().gt(0).max(720);
/** the same from a multipart field (a number in text) */
export const formTtlHours = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v), ttlHours);

export const MAX_PROMPT = 8000;
/** a required prompt: non-blank, at most MAX_PROMPT characters */
export const prompt = z.string().max(MAX_PROMPT).refine((s) => s.trim().length > 0, { message: 'must not be blank' });

export const withStyle = (p: string, style?: string) => (style && style.trim() ? `${p}\n\nStyle: ${style.trim()}` : p);

export { iso } from '../../clock.js';

/** error object of a failed job for status answers */
export const jobError = (j: JobRecord) => (j.status === 'failed' ? { code: j.error?.code ?? 'INTERNAL_ERROR', message: j.error?.message ?? 'failed' } : undefined);
