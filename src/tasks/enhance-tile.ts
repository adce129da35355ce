// Pool task: enhance one tile. Input: the tile's pixels with their halo (RGB), the global parameters, and where the
// tile lies inside the buffer; output: the enhanced tile without the halo.
import { enhanceRgb, type EnhanceParams } from './lib/enhance-filters.js';
import { cutRect } from './lib/enhance-pixels.js';
import type { Rect } from './lib/tiling.js';

export interface EnhanceTileInput {
  index: number;
  data: Uint8Array;
  width: number;
  height: number;
  /** the tile inside the buffer (the rest is halo) */
  crop: Rect;
  params: EnhanceParams;
}

export interface EnhanceTileOutput {
  index: number;
  data: Uint8Array;
  width: number;
  height: number;
}

export default function enhanceTile(input: EnhanceTileInput): EnhanceTileOutput {
  const { data, width, height, crop } = input;
  if (data.length !== width * height * 3) throw new Error(`tile ${input.index}: ${data.length} bytes for ${width}x${height} RGB`);
  const out = enhanceRgb(data, width, height, input.params);
  return { index: input.index, data: cutRect(out, width, crop), width: crop.w, height: crop.h };
}
