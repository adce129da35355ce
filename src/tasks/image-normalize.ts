// Prepare a source picture for an AI provider: checked (format, pixel cap, corrupt data → 400 naming the field),
// EXIF orientation applied, shrunk so the longer side is at most maxSide; JPEG stays JPEG, others become PNG.
import { checkImage, decodeFailure, openSharp } from './lib/image-io.js';

export interface NormalizeInput {
  image: Uint8Array;
  field?: string;
  maxPixels?: number;
  /** default 2048 */
  maxSide?: number;
}

export interface NormalizeOutput {
  bytes: Uint8Array;
  mime: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** original (oriented) size */
  original: { width: number; height: number };
}

export default async function normalize(input: NormalizeInput): Promise<NormalizeOutput> {
  const c = await checkImage(input.image, { field: input.field ?? 'image', maxPixels: input.maxPixels });
  const maxSide = input.maxSide ?? 2048;
  const scale = Math.min(1, maxSide / Math.max(c.width, c.height));
  const width = Math.max(1, Math.round(c.width * scale));
  const height = Math.max(1, Math.round(c.height * scale));
  const jpeg = c.format === 'jpeg';
  try {
    let s = openSharp(c);
    if (scale < 1) s = s.resize({ width, height, fit: 'fill', kernel: 'lanczos3' });
    const bytes = jpeg ? await s.jpeg({ quality: 92 }).toBuffer() : await s.png({ compressionLevel: 6 }).toBuffer();
    return { bytes, mime: jpeg ? 'image/jpeg' : 'image/png', width, height, original: { width: c.width, height: c.height } };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}
