// Image bytes → RGB pixels (inside worker tasks only). EXIF orientation applied; optional downscale of huge photos.
import { decodeRaw } from '../tasks/lib/image-io.js';
import type { RgbImage } from './raster.js';

export interface DecodeOptions {
  /** largest accepted width × height before decoding (decompression-bomb guard) */
  maxPixels?: number;
  /** shrink (never enlarge) so that the longer side is at most this many pixels */
  maxSide?: number;
  /** the request field the bytes came from, for error messages */
  field?: string;
}

/** Decode to RGB through the tasks' one safe decoder (format check, pixel cap, EXIF orientation, alpha on white). */
export async function decodeRgb(bytes: Uint8Array, opts: DecodeOptions = {}): Promise<RgbImage> {
  const r = await decodeRaw(bytes, { field: opts.field ?? 'image', maxPixels: opts.maxPixels, channels: 3, maxSide: opts.maxSide });
  return { data: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength), width: r.width, height: r.height, channels: 3 };
}
