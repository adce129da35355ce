// Safe image decoding for every task: magic-byte check, pixel cap read from the header before decoding
// (decompression bombs), truncated/corrupt data → INVALID_REQUEST naming the field, EXIF orientation applied.
import sharp, { type Sharp, type Metadata } from 'sharp';
import { TaskError, badInput } from './task-error.js';
import { sniffFormat } from './sniff.js';
import type { RgbImage } from '../../vision/raster.js';

export type ImageFormat = 'jpeg' | 'png' | 'webp';
export const DEFAULT_MAX_PIXELS = 50_000_000;

/** Options every task input may carry for its image. */
export interface DecodeOptions {
  /** request field the bytes came from (named in error messages); default "image" */
  field?: string;
  /** largest width*height accepted (SEJONG_MAX_INPUT_PIXELS); default 50 M */
  maxPixels?: number;
  /** accepted formats; default jpeg, png, webp */
  types?: ImageFormat[];
}

/** Raw interleaved 8-bit pixels. */
export interface Raw {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

export function toBuffer(u8: Uint8Array | ArrayBuffer): Buffer {
  if (u8 instanceof ArrayBuffer) return Buffer.from(u8);
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

export { sniffFormat } from './sniff.js';

export interface Checked {
  buf: Buffer;
  format: ImageFormat;
  /** dimensions after EXIF orientation */
  width: number;
  height: number;
  field: string;
  maxPixels: number;
}

/** Check bytes without decoding pixels: format by magic bytes, header readable, dimensions under the cap. */
export async function checkImage(bytes: Uint8Array | undefined | null, opts: DecodeOptions = {}): Promise<Checked> {
  const field = opts.field ?? 'image';
  const maxPixels = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  const types = opts.types ?? ['jpeg', 'png', 'webp'];
  if (!bytes || bytes.byteLength === 0) throw badInput(field, `${field} is required (expected a ${types.map((t) => t.toUpperCase()).join('/')} image) but it is empty or missing`);
  const buf = toBuffer(bytes);
  const fmt = sniffFormat(buf);
  if (fmt === 'unknown' || fmt === 'gif' || !types.includes(fmt)) {
    throw new TaskError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Expected a ${types.map((t) => t.toUpperCase()).join('/')} image for ${field} but received ${fmt === 'unknown' ? 'data that is not an image' : `a ${fmt.toUpperCase()} image`}`,
      field,
    );
  }
  let meta: Metadata;
  try {
    meta = await sharp(buf, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch (e) {
    throw badInput(field, `The ${fmt.toUpperCase()} image in ${field} is corrupt: its header cannot be read (${shortVipsError(e)})`);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw badInput(field, `The ${fmt.toUpperCase()} image in ${field} has no readable dimensions`);
  if (w * h > maxPixels) {
    throw badInput(field, `The image in ${field} is ${w}x${h} = ${(w * h / 1e6).toFixed(1)} megapixels; at most ${(maxPixels / 1e6).toFixed(1)} megapixels are accepted (decompression-bomb guard)`);
  }
  const swap = (meta.orientation ?? 1) >= 5;
  return { buf, format: fmt, width: swap ? h : w, height: swap ? w : h, field, maxPixels };
}

export function shortVipsError(e: unknown): string {
  const m = String((e as Error)?.message ?? e).split('\n')[0]!.replace(/^(VipsJpeg|VipsForeignLoad\w*|vips\w*):\s*/i, '');
  return m.length > 120 ? m.slice(0, 120) + '…' : m;
}

/** A sharp pipeline on checked bytes, with the pixel cap and orientation applied. */
export function openSharp(c: Checked): Sharp {
  return sharp(c.buf, { limitInputPixels: c.maxPixels, failOn: 'error' }).rotate();
}

/** Map a failure of a sharp pipeline on user data to INVALID_REQUEST (truncated, corrupt), naming the field. */
export function decodeFailure(c: Pick<Checked, 'field' | 'format'>, e: unknown): TaskError {
  const m = shortVipsError(e);
  if (/pixel limit/i.test(m)) return badInput(c.field, `The image in ${c.field} exceeds the pixel limit (decompression-bomb guard)`);
  const truncated = /premature|truncat|end of (file|stream|data)|short read|unexpected end|not enough data|read error|incomplete/i.test(m);
  return badInput(c.field, truncated
    ? `The ${c.format.toUpperCase()} image in ${c.field} is truncated (${m})`
    : `The ${c.format.toUpperCase()} image in ${c.field} is corrupt and cannot be decoded (${m})`);
}

export interface DecodeRawOptions extends DecodeOptions {
  /** output channels: 1 grey, 3 RGB, 4 RGBA */
  channels: 1 | 3 | 4;
  /** shrink (never enlarge) so that the longer side is at most this */
  maxSide?: number;
}

/** Decode to raw pixels (after the checks). Returns also the original (oriented) size. */
export async function decodeRaw(bytes: Uint8Array, opts: DecodeRawOptions): Promise<Raw & { original: { width: number; height: number }; format: ImageFormat; scale: number }> {
  const c = await checkImage(bytes, opts);
  return decodeChecked(c, opts.channels, opts.maxSide);
}

export async function decodeChecked(c: Checked, channels: 1 | 3 | 4, maxSide?: number): Promise<Raw & { original: { width: number; height: number }; format: ImageFormat; scale: number }> {
  let s = openSharp(c);
  let scale = 1;
  if (maxSide && Math.max(c.width, c.height) > maxSide) {
    scale = maxSide / Math.max(c.width, c.height);
    s = s.resize({ width: Math.max(1, Math.round(c.width * scale)), height: Math.max(1, Math.round(c.height * scale)), fit: 'fill', kernel: 'lanczos3' });
  }
  if (channels === 1) s = s.flatten({ background: '#ffffff' }).greyscale();
  else if (channels === 3) s = s.flatten({ background: '#ffffff' }).toColourspace('srgb');
  else s = s.toColourspace('srgb').ensureAlpha();
  try {
    const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== channels) throw new Error(`expected ${channels} channels, got ${info.channels}`);
    return { data, width: info.width, height: info.height, channels, original: { width: c.width, height: c.height }, format: c.format, scale };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}

/** Decode to an RgbImage for the vision runtime (format check, pixel cap, EXIF orientation, alpha on white). */
export async function decodeRgb(bytes: Uint8Array, opts: { maxPixels?: number; maxSide?: number; field?: string } = {}): Promise<RgbImage> {
  const r = await decodeRaw(bytes, { field: opts.field ?? 'image', maxPixels: opts.maxPixels, channels: 3, maxSide: opts.maxSide });
  return { data: new Uint8Array(r.data.buffer, r.data.byteOffset, r.data.byteLength), width: r.width, height: r.height, channels: 3 };
}

/** Encode raw pixels as PNG (sharp); compressionLevel 6 by default. */
export async function encodePng(r: Raw, opts: { compressionLevel?: number } = {}): Promise<Buffer> {
  return sharp(toBuffer(r.data), { raw: { width: r.width, height: r.height, channels: r.channels } })
    .png({ compressionLevel: opts.compressionLevel ?? 6, adaptiveFiltering: false })
    .toBuffer();
}

export async function encodeJpeg(r: Raw, quality = 90): Promise<Buffer> {
  return sharp(toBuffer(r.data), { raw: { width: r.width, height: r.height, channels: r.channels } }).jpeg({ quality, mozjpeg: false }).toBuffer();
}

/** Largest size with the given aspect ratio within maxPixels (never enlarges beyond w×h): every derived image
 * (resized, rotated, upscaled) is sized through this, so a thin input cannot become gigapixels. */
export function capSize(width: number, height: number, maxPixels: number): { width: number; height: number } {
  const w = Math.max(1, Math.round(width)), h = Math.max(1, Math.round(height));
  if (w * h <= maxPixels) return { width: w, height: h };
  const s = Math.sqrt(maxPixels / (w * h));
  let W = Math.max(1, Math.floor(w * s)), H = Math.max(1, Math.floor(h * s));
  // a side clamped to 1 px: shorten the other one so the product stays within the budget
  if (W * H > maxPixels) (W > H ? (W = Math.max(1, Math.floor(maxPixels / H))) : (H = Math.max(1, Math.floor(maxPixels / W))));
  return { width: W, height: H };
}

/** An ID card is 1.58:1; photos may be portrait or loosely cropped: sides may differ by at most 4× (docs/ekyc.md).
 * Every card endpoint (OCR, verify, enhance, the pipeline's steps) refuses a wider aspect with checkAspect. */
export const CARD_MAX_ASPECT = 4;

/** Refuse an image whose sides differ by more than maxRatio (e.g. 4 for ID cards, 1.58:1 nominal, portrait or
 * landscape) with INVALID_REQUEST naming the field. */
export function checkAspect(c: Pick<Checked, 'width' | 'height' | 'field'>, maxRatio: number, what: string): void {
  const r = Math.max(c.width, c.height) / Math.min(c.width, c.height);
  if (r > maxRatio) {
    throw badInput(c.field, `The image in ${c.field} is ${c.width}x${c.height} (aspect ${r.toFixed(1)}:1); ${what} must have an aspect ratio between 1:${maxRatio} and ${maxRatio}:1`);
  }
}
