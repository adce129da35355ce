// Image bytes → RGB pixels (inside worker tasks only). EXIF orientation applied; optional downscale of huge photos.
import sharp from 'sharp';
import type { RgbImage } from './raster.js';

export class ImageInputError extends Error {
  readonly code = 'INVALID_REQUEST';
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

export interface DecodeOptions {
  /** largest accepted width × height before decoding (decompression-bomb guard) */
  maxPixels?: number;
  /** shrink (never enlarge) so that the longer side is at most this many pixels */
  maxSide?: number;
  /** the request field the bytes came from, for error messages */
  field?: string;
}

export async function decodeRgb(bytes: Uint8Array, opts: DecodeOptions = {}): Promise<RgbImage> {
  const field = opts.field ?? 'image';
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    let p = sharp(buf, { limitInputPixels: opts.maxPixels ?? 50_000_000, failOn: 'error' }).rotate();
    if (opts.maxSide) p = p.resize(opts.maxSide, opts.maxSide, { fit: 'inside', withoutEnlargement: true });
    const { data, info } = await p.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`unexpected ${info.channels} channels`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 3 };
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    if (/pixel limit/i.test(msg)) throw new ImageInputError(field, `${field} is larger than the accepted ${opts.maxPixels ?? 50_000_000} pixels`);
    throw new ImageInputError(field, `${field} could not be decoded as an image (${msg.split('\n')[0]})`);
  }
}
