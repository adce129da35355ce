// Pool task: second half of the enhancement. Blend the enhanced tiles (feathered overlaps), copy the privacy
// regions back from the original pixels byte for byte, encode (JPEG for the image endpoint, PNG lossless so the
// restored regions stay exact), and measure the quality of the delivered JPEG.
import sharp from 'sharp';
import { blendTiles, copyRect, fadeAround } from './lib/enhance-pixels.js';
import type { Rect, TilePlan } from './lib/tiling.js';
import quality, { type QualityResult } from './quality.js';

/** Default width of the fade around privacy regions (px at 1280×807: about half a text line). */
export const FADE_MARGIN = 24;

export interface EnhanceFinishInput {
  width: number;
  height: number;
  original: Uint8Array;
  plan: TilePlan;
  /** enhanced tiles in plan order, each exactly its tile rectangle */
  tiles: Uint8Array[];
  regionRects: Rect[];
  jpegQuality?: number;
  /** band (px) around each region over which the output fades back to the original; default FADE_MARGIN */
  fadeMargin?: number;
  /** also return the raw composite (tests) */
  returnRaw?: boolean;
}

export interface EnhanceFinishOutput {
  jpeg: Uint8Array;
  png: Uint8Array;
  qualityAfter: QualityResult;
  raw?: Uint8Array;
}

export default async function enhanceFinish(input: EnhanceFinishInput): Promise<EnhanceFinishOutput> {
  const { width, height } = input;
  const out = blendTiles(width, height, input.plan.tiles, input.tiles);
  const margin = input.fadeMargin ?? FADE_MARGIN;
  for (const r of input.regionRects) fadeAround(out, input.original, width, height, r, margin);
  for (const r of input.regionRects) copyRect(out, input.original, width, r);
  const buf = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const img = () => sharp(buf, { raw: { width, height, channels: 3 } });
  const [jpeg, png] = await Promise.all([
    img().jpeg({ quality: input.jpegQuality ?? 92, chromaSubsampling: '4:4:4', mozjpeg: false }).toBuffer(),
    img().png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer(),
  ]);
  const qualityAfter = await quality({ image: jpeg });
  return { jpeg, png, qualityAfter, raw: input.returnRaw ? out : undefined };
}
