// e-KYC image quality: /ekyc/image/quality-check (snake_case answer of the e-KYC group) and
// /ekyc/analyze-quality (camelCase answer of the eKYC Enhance group). Same measurement (src/tasks/quality.ts);
// scales and thresholds in docs/image.md#quality.
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { QUALITY, type QualityResult } from '../tasks/quality.js';
import { ok } from './schemas/common.js';
import { analyzeQuality, qualityCheck } from './schemas/ekyc.js';

const MB = 1024 * 1024;

async function measure(ctx: Ctx): Promise<{ q: QualityResult; ms: number }> {
  const t0 = performance.now();
  const q = await ctx.services.pool.run('quality', { image: ctx.files.image!.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels, types: ['jpeg', 'png'] });
  return { q, ms: Math.round(performance.now() - t0) };
}

const thresholds = {
  blurLaplacianVariance: QUALITY.blurVar, brightness: [QUALITY.minBrightness, QUALITY.maxBrightness], minContrast: QUALITY.minContrast,
  maxGlareRatio: QUALITY.glareRatio, minShortSide: QUALITY.minShortSide, passOverall: QUALITY.passOverall,
};

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/image/quality-check', auth: 'key', tags: ['e-KYC'],
    summary: 'Brightness, contrast, sharpness (0-100), overall quality, pass/fail and suggestions',
    responses: ok('the measurements and decision', qualityCheck),
    body: { kind: 'multipart', files: { image: { required: true, maxBytes: 10 * MB, types: ['jpeg', 'png'] } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    handler: async (ctx) => {
      const { q, ms } = await measure(ctx);
      return {
        success: true,
        brightness: q.brightness, contrast: q.contrast, sharpness: q.sharpness, overall_quality: q.overallScore,
        passed: q.passed, suggestions: q.suggestions,
        is_blurry: q.isBlurry, bucket_key: q.bucketKey, width: q.width, height: q.height,
        metrics: q.metrics, thresholds, processing_time_ms: ms,
      };
    },
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/analyze-quality', auth: 'key', tags: ['eKYC Enhance'],
    summary: 'Quality only (no enhancement): brightness, contrast, sharpness, overallScore, isBlurry, bucketKey, recommendations',
    responses: ok('the measurements', analyzeQuality),
    body: { kind: 'multipart', files: { image: { required: true, maxBytes: 10 * MB, types: ['jpeg', 'png'] } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    handler: async (ctx) => {
      const { q, ms } = await measure(ctx);
      return {
        success: true,
        brightness: q.brightness, contrast: q.contrast, sharpness: q.sharpness, overallScore: q.overallScore,
        isBlurry: q.isBlurry, bucketKey: q.bucketKey, passed: q.passed, recommendations: q.suggestions,
        width: q.width, height: q.height, metrics: q.metrics, thresholds, processingTimeMs: ms,
      };
    },
  }),
];
