// QR Code: generation (open; 1-bit PNG, optional centre text with level-H error correction) and recognition
// (zxing-wasm with preprocessing retries). Pixel work runs in the pool.
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { reply } from '../server/types.js';
import { form } from '../server/validate.js';
import { ApiError } from '../domain/errors.js';
import { ok } from './schemas/common.js';
import { qrRecognize } from './schemas/ekyc.js';

const MB = 1024 * 1024;
export const QR_MAX_DATA = 2000;
export const QR_SIZE_MIN = 64;
export const QR_SIZE_MAX = 4096;

const genQuery = z.object({
  data: z.string().min(1).max(QR_MAX_DATA),
  size: z.string().regex(/^\d{1,5}x\d{1,5}$/, 'WxH').optional(),
  format: z.enum(['png']).optional(),
  center_text: z.string().min(1).max(40).optional(),
}).strict();

async function generate(ctx: Ctx<unknown, z.infer<typeof genQuery>>) {
  const q = ctx.query;
  const [w, h] = (q.size ?? '512x512').split('x').map(Number) as [number, number];
  for (const v of [w, h]) {
    if (v < QR_SIZE_MIN || v > QR_SIZE_MAX) {
      throw new ApiError('INVALID_REQUEST', `Expected size as WxH with each side from ${QR_SIZE_MIN} to ${QR_SIZE_MAX} but received string "${q.size}"`, { field: 'size' });
    }
  }
  const r = await ctx.services.pool.run('qr-generate', { data: q.data, width: w, height: h, centerText: q.center_text });
  return reply.binary(r.png, 'image/png', 200, {
    'cache-control': 'public, max-age=86400',
    'x-qr-version': String(r.version),
    'x-qr-error-correction': r.ecLevel,
  });
}

const recFields = z.object({ enablePreprocessing: form.bool().optional() }).strict();

async function recognize(ctx: Ctx<z.infer<typeof recFields>>) {
  const b = ctx.body;
  const t0 = performance.now();
  const r = await ctx.services.pool.run('qr-recognize', {
    image: ctx.files.image!.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels,
    enablePreprocessing: b.enablePreprocessing ?? true,
  });
  return {
    success: r.success,
    data: r.data,
    method: r.method,
    attempts: r.attempts,
    format: r.format ?? null,
    position: r.position ?? null,
    tried: r.tried,
    ...(r.success ? {} : { message: r.message }),
    processingTimeMs: Math.round(performance.now() - t0),
  };
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'GET', path: '/api/v1/qrcode/generate', auth: 'none', tags: ['QR Code'], query: genQuery,
    summary: 'QR code as a 1-bit PNG; size WxH (default 512x512), center_text drawn in the middle (error correction H)',
    responses: { 200: { description: '1-bit PNG', contentType: 'image/png' } },
    handler: generate,
  }),
  defineRoute({
    method: 'POST', path: '/api/v1/qrcode/recognize', auth: 'key', tags: ['QR Code'],
    summary: 'Decode a QR code (zxing-wasm); with enablePreprocessing (default true) prepared variants are retried',
    responses: ok('the decoded text (success false when none was found)', qrRecognize),
    body: { kind: 'multipart', fields: recFields, files: { image: { required: true, maxBytes: 10 * MB } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    handler: recognize,
  }),
];
