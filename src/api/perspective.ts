// e-KYC perspective crop: the ID card's corners detected (or given as `corners`), the card warped to
// output_width x output_height (default 1280x807, ID-1). The crop is returned inline as base64 JPEG in
// `croppedImage` (docs/image.md#perspective-crop).
import { z } from 'zod';
import { defineRoute, type Ctx, type RouteDef } from '../server/types.js';
import { form } from '../server/validate.js';
import { ok } from './schemas/common.js';
import { perspectiveCrop } from './schemas/ekyc.js';

const MB = 1024 * 1024;
const point = z.tuple([z.number(), z.number()]);
const fields = z.object({
  corners: form.json(z.array(point).length(4)).optional(),
  output_width: form.int(16, 4096).optional(),
  output_height: form.int(16, 4096).optional(),
}).strict();

async function crop(ctx: Ctx<z.infer<typeof fields>>) {
  const b = ctx.body;
  const t0 = performance.now();
  const r = await ctx.services.pool.run('perspective', {
    image: ctx.files.image!.data, field: 'image', maxPixels: ctx.services.config.maxInputPixels,
    corners: b.corners, outputWidth: b.output_width ?? 1280, outputHeight: b.output_height ?? 807,
  });
  const ms = Math.round(performance.now() - t0);
  const ok = r.source === 'given' || r.found;
  const jpeg = Buffer.from(r.jpeg.buffer, r.jpeg.byteOffset, r.jpeg.byteLength);
  return {
    success: ok,
    detectedCorners: ok ? r.corners : null,
    cornerSource: r.source,
    cardType: ok ? r.cardType : null,
    confidence: r.confidence,
    rotationAngle: ok ? r.rotationAngle : null,
    outputWidth: r.outputWidth,
    outputHeight: r.outputHeight,
    inputDimensions: [r.inputWidth, r.inputHeight],
    croppedImage: ok ? jpeg.toString('base64') : null,
    croppedImageFormat: ok ? 'jpeg' : null,
    ...(ok ? {} : { message: 'No card outline was found; photograph the card on a plain, contrasting background with all four corners visible, or send corners', bestGuessCorners: r.corners }),
    processingTimeMs: ms,
  };
}

export const routes: RouteDef[] = [
  defineRoute({
    method: 'POST', path: '/api/v1/ekyc/perspective-crop', auth: 'key', tags: ['eKYC Enhance'],
    summary: 'Detect the ID card\'s four corners (or take corners) and warp it to output_width x output_height (base64 JPEG in croppedImage)',
    responses: ok('the corners and the crop (success false when no outline was found)', perspectiveCrop),
    body: { kind: 'multipart', fields, files: { image: { required: true, maxBytes: 10 * MB } } },
    maxBodyBytes: 10 * MB + 64 * 1024,
    handler: crop,
  }),
];
