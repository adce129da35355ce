// The combined e-KYC pipeline as a list of steps read top to bottom: perspective crop → quality analysis →
// (doc type detection when doc_type was omitted) → OCR → enhance. Every step reuses the one implementation of its
// task (perspective, quality, ekyc-ocr, the enhancement). A skipped step says so; a failing step fails the
// pipeline with its name.
import { ApiError, isApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import { runEnhance, qualitySummary, type EnhanceOutcome } from './pipeline.js';
import { resolveRegions, type DocType, type PrivacyMode, type PrivacyRegion } from './privacy.js';

export const STEP_NAMES = ['perspectiveCrop', 'qualityAnalysis', 'ocr', 'enhance'] as const;
export type StepName = (typeof STEP_NAMES)[number];

export interface PipelineOptions {
  image: Buffer;
  docType?: DocType;
  privacyMode?: PrivacyMode;
  privacyRegions?: PrivacyRegion[];
  skipCrop: boolean;
  skipOcr: boolean;
  skipEnhance: boolean;
  /** absolute URL of the enhanced image of this job */
  enhancedImageUrl: string;
  onProgress?: (p: number) => Promise<void> | void;
}

export type StepReport = { success: boolean; skipped?: boolean; reason?: string; processingTimeMs?: number } & Record<string, unknown>;

export interface PipelineContext {
  services: Services;
  opts: PipelineOptions;
  /** the card image the next step reads: the input, then the perspective crop */
  card: Buffer;
  docType?: DocType;
  docTypeSource: 'given' | 'detected' | 'none';
  docTypeConfidence?: number;
  steps: Partial<Record<StepName, StepReport>>;
  enhanced?: EnhanceOutcome;
}

interface Step {
  name: StepName | 'detectDocType';
  /** a reason to skip, or undefined to run */
  skip?: (c: PipelineContext) => string | undefined;
  run: (c: PipelineContext) => Promise<Record<string, unknown> | void>;
  /** progress reached when the step is done */
  progress: number;
}

const bytes = (b: Buffer | Uint8Array): Uint8Array => {
  const u = new Uint8Array(b.byteLength);
  u.set(b);
  return u;
};

/** Find the card and warp it to 1280x807. */
async function perspectiveCrop(c: PipelineContext): Promise<Record<string, unknown>> {
  const r = await c.services.pool.run('perspective', { image: bytes(c.card), field: 'image', maxPixels: c.services.config.maxInputPixels });
  if (!r.found) throw new ApiError('INVALID_REQUEST', 'No ID card was found in the image (send skip_crop=true for an image that is already cropped)', { field: 'image' });
  c.card = Buffer.from(r.jpeg.buffer, r.jpeg.byteOffset, r.jpeg.byteLength);
  return { detectedCorners: r.corners, cardType: r.cardType, confidence: r.confidence, rotationAngle: r.rotationAngle, outputWidth: r.outputWidth, outputHeight: r.outputHeight };
}

/** Measure brightness, contrast, sharpness of the (cropped) card. */
async function qualityAnalysis(c: PipelineContext): Promise<Record<string, unknown>> {
  const q = await c.services.pool.run('quality', { image: bytes(c.card), field: 'image', maxPixels: c.services.config.maxInputPixels });
  return { ...qualitySummary(q), isBlurry: q.isBlurry, bucketKey: q.bucketKey, recommendations: q.suggestions };
}

/** Which card is it, when the client did not say (needed by the OCR and the privacy defaults). */
async function detectDocType(c: PipelineContext): Promise<void> {
  const r = await c.services.pool.run('enhance-doctype', { image: bytes(c.card), field: 'image', maxPixels: c.services.config.maxInputPixels });
  if (!r.docType) throw new ApiError('INVALID_REQUEST', 'The card type could not be recognised from its title; send doc_type (jumin, alien or driver)', { field: 'doc_type' });
  c.docType = r.docType;
  c.docTypeSource = 'detected';
  c.docTypeConfidence = r.confidence;
}

/** Read the card's fields. */
async function ocr(c: PipelineContext): Promise<Record<string, unknown>> {
  const r = await c.services.pool.run('ekyc-ocr', { image: bytes(c.card), docType: c.docType!, field: 'image', maxPixels: c.services.config.maxInputPixels });
  return { docType: r.docType, fields: r.fields, overallConfidence: r.overallConfidence, engine: r.engine };
}

/** Tiled enhancement with the privacy regions blurred before and restored after. */
async function enhance(c: PipelineContext): Promise<Record<string, unknown>> {
  const { regions, mode } = resolveRegions(c.docType, c.opts.privacyMode, c.opts.privacyRegions);
  const start = STEPS.find((s) => s.name === 'ocr')!.progress;
  c.enhanced = await runEnhance(c.services, {
    image: c.card,
    regions,
    onProgress: (p) => c.opts.onProgress?.(start + (1 - start) * p * 0.98),
  });
  const e = c.enhanced;
  return {
    enhancedImageUrl: c.opts.enhancedImageUrl,
    privacyMode: mode,
    privacyRegions: e.regions,
    qualityBefore: qualitySummary(e.qualityBefore),
    qualityAfter: qualitySummary(e.qualityAfter),
    tilesProcessed: e.tilesProcessed,
  };
}

const needsDocType = (c: PipelineContext) => !c.opts.skipOcr || (!c.opts.skipEnhance && !c.opts.privacyRegions);

export const STEPS: Step[] = [
  { name: 'perspectiveCrop', skip: (c) => (c.opts.skipCrop ? 'skip_crop=true' : undefined), run: perspectiveCrop, progress: 0.15 },
  { name: 'qualityAnalysis', run: qualityAnalysis, progress: 0.2 },
  { name: 'detectDocType', skip: (c) => (c.docType ? 'doc_type given' : needsDocType(c) ? undefined : 'not needed'), run: detectDocType, progress: 0.3 },
  { name: 'ocr', skip: (c) => (c.opts.skipOcr ? 'skip_ocr=true' : undefined), run: ocr, progress: 0.5 },
  { name: 'enhance', skip: (c) => (c.opts.skipEnhance ? 'skip_enhance=true' : undefined), run: enhance, progress: 1 },
];

export class PipelineStepError extends ApiError {}

export async function runPipeline(services: Services, opts: PipelineOptions): Promise<PipelineContext> {
  const c: PipelineContext = { services, opts, card: opts.image, docType: opts.docType, docTypeSource: opts.docType ? 'given' : 'none', steps: {} };
  for (const step of STEPS) {
    const reason = step.skip?.(c);
    if (reason) {
      if (step.name !== 'detectDocType') c.steps[step.name] = { success: true, skipped: true, reason };
      continue;
    }
    const t0 = performance.now();
    try {
      const data = await step.run(c);
      if (step.name !== 'detectDocType') c.steps[step.name] = { success: true, ...(data ?? {}), processingTimeMs: Math.round(performance.now() - t0) };
    } catch (e) {
      const code = isApiError(e) ? e.code : 'INTERNAL_ERROR';
      const msg = isApiError(e) ? e.message : `internal failure (${(e as Error)?.message ?? String(e)})`;
      const name = step.name === 'detectDocType' ? 'ocr' : step.name;
      c.steps[name] = { success: false, error: { code, message: msg } };
      throw new PipelineStepError(code, `Step ${name} failed: ${msg}`, { field: isApiError(e) ? e.field : undefined, status: isApiError(e) ? e.status : undefined, details: { failedStep: name, steps: c.steps } });
    }
    await opts.onProgress?.(step.progress);
  }
  return c;
}
