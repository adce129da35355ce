// The AI mark: a small, legible "AI" badge drawn with @napi-rs/canvas and composited into the lower-right corner
// of every generated or transformed image, sized to the image. Output is PNG; pixels outside the badge are the
// decoded upstream pixels, unchanged.
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { checkImage, decodeFailure } from './lib/image-io.js';
import { ensureFonts } from './lib/fonts.js';

export interface AiMarkInput {
  image: Uint8Array;
  maxPixels?: number;
  /** name used in errors (the upstream answer is not user input, but is checked the same way) */
  field?: string;
}

export interface AiMarkOutput {
  png: Uint8Array;
  width: number;
  height: number;
  /** where the badge was drawn */
  mark: { left: number; top: number; width: number; height: number };
}

/** Badge geometry for an image: text height ≈ 4.5 % of the shorter side, at least 9 px, at most 120 px. */
export function markBox(width: number, height: number): { left: number; top: number; width: number; height: number; font: number; pad: number } {
  const short = Math.min(width, height);
  const font = Math.max(9, Math.min(120, Math.round(short * 0.045)));
  const pad = Math.max(2, Math.round(font * 0.3));
  const bw = Math.min(width, Math.round(font * 1.25) + pad * 2);
  const bh = Math.min(height, Math.round(font * 1.1) + pad);
  const margin = Math.max(1, Math.round(font * 0.4));
  return { left: Math.max(0, width - bw - margin), top: Math.max(0, height - bh - margin), width: bw, height: bh, font, pad };
}

const badges = new Map<string, Buffer>();

function badge(w: number, h: number, font: number): Buffer {
  const key = `${w}x${h}@${font}`;
  let b = badges.get(key);
  if (b) return b;
  const family = ensureFonts();
  const c = createCanvas(w, h);
  const g = c.getContext('2d');
  const r = Math.min(w, h) * 0.25;
  g.fillStyle = 'rgba(0,0,0,0.62)';
  g.beginPath();
  g.roundRect(0, 0, w, h, r);
  g.fill();
  g.strokeStyle = 'rgba(255,255,255,0.85)';
  g.lineWidth = Math.max(1, font / 14);
  g.beginPath();
  g.roundRect(g.lineWidth / 2, g.lineWidth / 2, w - g.lineWidth, h - g.lineWidth, r);
  g.stroke();
  g.fillStyle = '#ffffff';
  g.font = `bold ${font}px "${family}"`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText('AI', w / 2, h / 2 + font * 0.04);
  b = c.toBuffer('image/png');
  if (badges.size > 64) badges.clear();
  badges.set(key, b);
  return b;
}

export default async function aiMark(input: AiMarkInput): Promise<AiMarkOutput> {
  const c = await checkImage(input.image, { field: input.field ?? 'image', maxPixels: input.maxPixels });
  const box = markBox(c.width, c.height);
  try {
    const png = await sharp(c.buf, { limitInputPixels: c.maxPixels, failOn: 'error' })
      .rotate()
      .composite([{ input: badge(box.width, box.height, box.font), left: box.left, top: box.top }])
      .png({ compressionLevel: 6, adaptiveFiltering: false })
      .toBuffer();
    return { png, width: c.width, height: c.height, mark: { left: box.left, top: box.top, width: box.width, height: box.height } };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}
