// Pool task: first half of the enhancement. Decode the card, measure its quality (the quality task's measure),
// blur the privacy regions in a working copy (so no enhancement step ever sees them), estimate the global filter
// parameters on that copy, and cut the tiles (with halo) of the plan.
import { checkImage, checkAspect, decodeChecked, CARD_MAX_ASPECT, type DecodeOptions } from './lib/image-io.js';
import { estimateParams, FILTER_REACH, type Estimate } from './lib/enhance-filters.js';
import { blurRegion, cutRect } from './lib/enhance-pixels.js';
import { planTiles, regionRect, type PrivacyRegion, type Rect, type TileOptions, type TilePlan } from './lib/tiling.js';
import quality, { type QualityResult } from './quality.js';

/** Largest working size of an enhanced card (pixels; 4000x4000). The work grows with the pixels (320-px tiles,
 * ~50 ms each: a 7000x7000 image would be 625 tiles, about 30 s of worker CPU), so a larger image is scaled down to
 * this many pixels (aspect kept) before enhancement: an ID card needs far fewer pixels to be read, and a 50-megapixel
 * phone photo of a card is still served instead of refused. The answer's width/height are the scaled ones. */
export const ENHANCE_MAX_PIXELS = 16_000_000;

/** Longest side that keeps a w x h image within ENHANCE_MAX_PIXELS (undefined: no scaling needed). */
export function enhanceMaxSide(w: number, h: number): number | undefined {
  if (w * h <= ENHANCE_MAX_PIXELS) return undefined;
  return Math.max(1, Math.floor(Math.max(w, h) * Math.sqrt(ENHANCE_MAX_PIXELS / (w * h))));
}

export interface EnhancePrepareInput extends DecodeOptions {
  image: Uint8Array;
  regions: PrivacyRegion[];
  tile?: Partial<TileOptions>;
}

export interface PreparedTile {
  index: number;
  data: Uint8Array;
  width: number;
  height: number;
  crop: Rect;
}

export interface EnhancePrepareOutput {
  width: number;
  height: number;
  /** decoded input pixels (RGB), untouched: the source of the privacy restore */
  original: Uint8Array;
  plan: TilePlan;
  tiles: PreparedTile[];
  regionRects: Array<Rect & { field: string }>;
  estimate: Estimate;
  qualityBefore: QualityResult;
}

export default async function enhancePrepare(input: EnhancePrepareInput): Promise<EnhancePrepareOutput> {
  const c = await checkImage(input.image, { field: input.field ?? 'image', maxPixels: input.maxPixels, types: input.types });
  checkAspect(c, CARD_MAX_ASPECT, 'an ID card image');
  const qualityBefore = await quality({ image: input.image, field: c.field, maxPixels: c.maxPixels });
  const raw = await decodeChecked(c, 3, enhanceMaxSide(c.width, c.height));
  const { width, height } = raw;
  const original = raw.data instanceof Uint8Array ? new Uint8Array(raw.data.buffer.slice(raw.data.byteOffset, raw.data.byteOffset + raw.data.byteLength)) : raw.data;
  const work = original.slice();
  const regionRects = input.regions.map((r) => ({ field: r.field, ...regionRect(r, width, height) }));
  for (const r of regionRects) blurRegion(work, width, r);
  const estimate = estimateParams(work, width, height);
  const plan = planTiles(width, height, { ...input.tile, halo: Math.max(input.tile?.halo ?? 0, FILTER_REACH + 2) });
  const tiles = plan.tiles.map((t) => ({
    index: t.index,
    data: cutRect(work, width, t.read),
    width: t.read.w,
    height: t.read.h,
    crop: { x: t.x - t.read.x, y: t.y - t.read.y, w: t.w, h: t.h },
  }));
  return { width, height, original, plan, tiles, regionRects, estimate, qualityBefore };
}
