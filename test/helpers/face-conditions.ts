// Real-photo conditions for face pairs: what users' ID photos and selfies do to a clean portrait (roll, a photo
// turned with or without its EXIF tag, a small face in a large frame, tight crops, light, blur, JPEG, a second face,
// occlusion, the photo printed on an ID card). Deterministic per seed. Test and bench data only.
import sharp, { type Sharp } from 'sharp';
import { cardWithPhoto } from './face-sets.js';
import { prng } from './images.js';

export const CONDITIONS = [
  'clean', 'roll15', 'roll30', 'roll45', 'rot90', 'rot180', 'rot270', 'exif90', 'exif270', 'small3k', 'small4k',
  'crop-tight', 'dark', 'backlight', 'tint', 'blur', 'jpeg30', 'second-face', 'occlusion', 'card',
] as const;
export type Condition = (typeof CONDITIONS)[number];

/** The portrait as a "photo": upscaled to 320 px wide (the sources are 92–150 px), RGB, JPEG q92. */
export async function asPhoto(src: Buffer, width = 320): Promise<Buffer> {
  return sharp(src).removeAlpha().toColourspace('srgb').resize(width, null, { kernel: 'lanczos3' }).jpeg({ quality: 92 }).toBuffer();
}

/** A textured background (smoothed noise, mid-grey) of w×h: a room rather than a flat wall. */
async function background(w: number, h: number, seed: number): Promise<Sharp> {
  const r = prng(seed);
  const sw = Math.ceil(w / 40), sh = Math.ceil(h / 40);
  const px = Buffer.alloc(sw * sh * 3);
  for (let i = 0; i < px.length; i++) px[i] = 70 + Math.floor(r() * 120);
  const tex = await sharp(px, { raw: { width: sw, height: sh, channels: 3 } }).resize(w, h, { kernel: 'cubic' }).png().toBuffer();
  return sharp(tex);
}

/**
 * One condition applied to a portrait (`src`, encoded). `other` is a second person's portrait (for 'second-face'),
 * `face` the portrait's face box [x1, y1, x2, y2] as a share of its width/height (for 'occlusion').
 */
export async function applyCondition(cond: Condition, src: Buffer, seed: number, other?: Buffer, face?: [number, number, number, number]): Promise<Buffer> {
  const r = prng(seed * 31 + 7);
  const sign = seed % 2 ? 1 : -1;
  const photo = await asPhoto(src);
  const jpeg = (s: Sharp, q = 90) => s.jpeg({ quality: q }).toBuffer();
  const roll = (deg: number) => jpeg(sharp(photo).rotate(sign * deg, { background: { r: 128, g: 128, b: 128 } }));
  switch (cond) {
    case 'clean': return photo;
    case 'roll15': return roll(15);
    case 'roll30': return roll(30);
    case 'roll45': return roll(45);
    case 'rot90': return jpeg(sharp(photo).rotate(90));
    case 'rot180': return jpeg(sharp(photo).rotate(180));
    case 'rot270': return jpeg(sharp(photo).rotate(270));
    // pixels stored turned, the EXIF tag saying how to turn them back (6: turn 90° clockwise, 8: 90° anticlockwise)
    case 'exif90': return sharp(await jpeg(sharp(photo).rotate(270))).withMetadata({ orientation: 6 }).jpeg({ quality: 90 }).toBuffer();
    case 'exif270': return sharp(await jpeg(sharp(photo).rotate(90))).withMetadata({ orientation: 8 }).jpeg({ quality: 90 }).toBuffer();
    case 'small3k': return smallInFrame(photo, 3000, 2250, 100 + Math.floor(r() * 40), seed);
    case 'small4k': return smallInFrame(photo, 4000, 3000, 100 + Math.floor(r() * 40), seed);
    case 'crop-tight': {
      const m = await sharp(photo).metadata();
      const W = m.width!, H = m.height!;
      // cut 14 % off the top (forehead) and 10 % off the bottom (chin) and 6 % each side
      return jpeg(sharp(photo).extract({ left: Math.round(0.06 * W), top: Math.round(0.14 * H), width: Math.round(0.88 * W), height: Math.round(0.76 * H) }));
    }
    case 'dark': return jpeg(sharp(photo).gamma(2.2, 1).linear(0.35, 0));
    case 'backlight': {
      // the subject underexposed in front of a bright window: face ×0.4, a near-white frame around it
      const m = await sharp(photo).metadata();
      const W = m.width!, H = m.height!;
      const dim = await sharp(photo).linear(0.4, 0).toBuffer();
      return jpeg(sharp({ create: { width: Math.round(W * 1.6), height: Math.round(H * 1.4), channels: 3, background: { r: 245, g: 245, b: 240 } } }).composite([{ input: dim, left: Math.round(W * 0.3), top: Math.round(H * 0.4) }]));
    }
    case 'tint': return jpeg(sharp(photo).tint({ r: 255, g: 190, b: 120 }));
    case 'blur': return jpeg(sharp(photo).blur(2.5));
    case 'jpeg30': return jpeg(sharp(photo).resize(200, null), 30);
    case 'second-face': {
      // the subject and, beside and behind, a smaller second person
      const m = await sharp(photo).metadata();
      const W = m.width!, H = m.height!;
      const o = await sharp(await asPhoto(other ?? src, Math.round(W * 0.55))).toBuffer();
      const canvas = await background(Math.round(W * 1.8), Math.round(H * 1.2), seed);
      const left = sign > 0 ? 0 : Math.round(W * 0.8);
      return jpeg(canvas.composite([{ input: photo, left, top: Math.round(H * 0.2) }, { input: o, left: sign > 0 ? Math.round(W * 1.15) : Math.round(W * 0.1), top: 10 }]));
    }
    case 'occlusion': {
      // a medical mask: a light band from just under the nose to below the chin
      const m = await sharp(photo).metadata();
      const W = m.width!, H = m.height!;
      const [fx1, fy1, fx2, fy2] = face ?? [0.2, 0.15, 0.8, 0.9];
      const top = Math.min(H - 1, Math.max(0, Math.round((fy1 + 0.62 * (fy2 - fy1)) * H)));
      const left = Math.min(W - 1, Math.max(0, Math.round((fx1 - 0.03) * W)));
      const w = Math.max(1, Math.min(Math.round((fx2 - fx1 + 0.06) * W), W - left)), h = H - top;
      const band = await sharp({ create: { width: w, height: h, channels: 3, background: { r: 200, g: 215, b: 230 } } }).png().toBuffer();
      return jpeg(sharp(photo).composite([{ input: band, left, top }]));
    }
    case 'card': return cardWithPhoto(photo, seed);
  }
}

/** The portrait shrunk so its face is `facePx` wide (the face ≈ 60 % of the portrait) on a W×H textured frame, JPEG. */
async function smallInFrame(photo: Buffer, W: number, H: number, portraitPx: number, seed: number): Promise<Buffer> {
  const r = prng(seed * 13 + 1);
  const small = await sharp(photo).resize(portraitPx, null, { kernel: 'lanczos3' }).toBuffer();
  const m = await sharp(small).metadata();
  const left = Math.round(W * (0.15 + r() * 0.6)), top = Math.round(H * (0.15 + r() * 0.6));
  const bg = await background(W, H, seed);
  return bg.composite([{ input: small, left: Math.min(left, W - m.width!), top: Math.min(top, H - m.height!) }]).jpeg({ quality: 85 }).toBuffer();
}
