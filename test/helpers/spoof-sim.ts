// Presentation-attack SIMULATION from a real capture (no physical attack was recorded): a printed photo
// re-photographed (reduced gamut, raised black, clustered-dot halftone, ink spread, paper grain, paper border,
// uneven light, camera blur, JPEG) and a screen replay re-photographed (display gamma and white point, RGB
// sub-pixel grid resampled at a non-integer pitch → moiré, specular glare, bezel, camera blur, JPEG).
// Test and bench data only; figures measured on it are figures on a simulation.
import sharp from 'sharp';
import { prng } from './images.js';

interface Raw { data: Uint8Array; width: number; height: number }

async function raw(img: Buffer, width?: number): Promise<Raw> {
  const s = sharp(img).removeAlpha().toColourspace('srgb');
  const { data, info } = await (width ? s.resize(width, null) : s).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}
const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
const encode = (r: Raw, ch = 3) => sharp(Buffer.from(r.data), { raw: { width: r.width, height: r.height, channels: ch as 3 } });

/** Put `inner` on a `bg`-coloured canvas `k` times its size (a print on a desk, a phone held up), lit unevenly. */
async function rephotograph(inner: Buffer, w: number, h: number, k: number, bg: [number, number, number], r: () => number, outWidth: number): Promise<Buffer> {
  const W = Math.round(w * k), H = Math.round(h * k);
  const left = Math.round((W - w) * (0.3 + r() * 0.4)), top = Math.round((H - h) * (0.3 + r() * 0.4));
  const scene = await sharp({ create: { width: W, height: H, channels: 3, background: { r: bg[0], g: bg[1], b: bg[2] } } })
    .composite([{ input: inner, left, top }]).png().toBuffer().then((b) => sharp(b).removeAlpha().raw().toBuffer());
  const d = new Uint8Array(scene);
  const gx = (r() - 0.5) * 0.5, gy = (r() - 0.5) * 0.5; // light falls off across the frame
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const f = 1 + gx * (x / W - 0.5) + gy * (y / H - 0.5);
    for (let c = 0; c < 3; c++) { const i = (y * W + x) * 3 + c; d[i] = clamp(d[i]! * f + (r() - 0.5) * 6); }
  }
  return encode({ data: d, width: W, height: H }).resize(outWidth, null).blur(0.5 + r() * 1.0).jpeg({ quality: 70 + Math.floor(r() * 20) }).toBuffer();
}

/** A printed photo of the capture, re-photographed. */
export async function simulatePrint(photo: Buffer, seed: number): Promise<Buffer> {
  const r = prng(seed * 13 + 1);
  const src = await raw(photo);
  const up = 3; // print resolution relative to the capture
  const p = await raw(await sharp(photo).removeAlpha().resize(src.width * up, null, { kernel: 'cubic' }).png().toBuffer());
  const black = 20 + r() * 25, white = 210 + r() * 30, sat = 0.65 + r() * 0.25;
  const period = 3 + r() * 2; // halftone cell (print pixels)
  const angles = [15, 75, 0].map((a) => ((a + r() * 10) * Math.PI) / 180); // C, M, Y screens
  const out = new Uint8Array(p.data.length);
  for (let y = 0; y < p.height; y++) for (let x = 0; x < p.width; x++) {
    const i = (y * p.width + x) * 3;
    const R = p.data[i]!, G = p.data[i + 1]!, B = p.data[i + 2]!;
    const L = 0.299 * R + 0.587 * G + 0.114 * B;
    for (let c = 0; c < 3; c++) {
      const v = L + ((c === 0 ? R : c === 1 ? G : B) - L) * sat; // reduced gamut
      const ink = 1 - v / 255; // CMY coverage
      const a = angles[c]!, u = (x * Math.cos(a) + y * Math.sin(a)) / period, w = (-x * Math.sin(a) + y * Math.cos(a)) / period;
      const dot = (Math.cos(2 * Math.PI * u) + Math.cos(2 * Math.PI * w) + 2) / 4; // clustered dot 0..1
      const on = ink > dot ? 1 : 0;
      out[i + c] = clamp(white - on * (white - black) + (r() - 0.5) * 10);
    }
  }
  const printed = await encode({ data: out, width: p.width, height: p.height }).blur(0.6 + r() * 0.5).resize(src.width, null).png().toBuffer();
  const paper: [number, number, number] = [230 + r() * 20, 228 + r() * 20, 220 + r() * 20].map(Math.round) as [number, number, number];
  const bordered = await sharp(printed).extend({ top: 8, bottom: 8, left: 8, right: 8, background: { r: paper[0], g: paper[1], b: paper[2] } }).png().toBuffer();
  const desk: [number, number, number] = [60 + r() * 120, 50 + r() * 110, 40 + r() * 100].map(Math.round) as [number, number, number];
  return rephotograph(bordered, src.width + 16, src.height + 16, 1.15 + r() * 0.25, desk, r, src.width);
}

/** The capture shown on a phone/monitor screen, re-photographed. */
export async function simulateReplay(photo: Buffer, seed: number): Promise<Buffer> {
  const r = prng(seed * 17 + 5);
  const src = await raw(photo);
  const up = 3; // each image pixel → 3×3 display sub-pixels (R | G | B columns, dark row gap)
  const gamma = 0.8 + r() * 0.4, tint = [0.92 + r() * 0.05, 0.97 + r() * 0.03, 1.0];
  const W = src.width * up, H = src.height * up;
  const out = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const si = (Math.floor(y / up) * src.width + Math.floor(x / up)) * 3, sub = x % up, rowGap = y % up === up - 1 ? 0.55 : 1;
    for (let c = 0; c < 3; c++) {
      const v = 255 * Math.pow(src.data[si + c]! / 255, gamma) * tint[c]!;
      out[(y * W + x) * 3 + c] = clamp((c === sub ? v * 1.6 : v * 0.35) * rowGap);
    }
  }
  // glare: a soft bright ellipse
  const gx = W * (0.2 + r() * 0.6), gy = H * (0.15 + r() * 0.5), gr = W * (0.15 + r() * 0.25), ga = 0.25 + r() * 0.35;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const d2 = ((x - gx) ** 2 + ((y - gy) * 1.6) ** 2) / (gr * gr);
    if (d2 > 4) continue;
    const a = ga * Math.exp(-d2);
    for (let c = 0; c < 3; c++) { const i = (y * W + x) * 3 + c; out[i] = clamp(out[i]! * (1 - a) + 255 * a); }
  }
  // non-integer camera sampling of the pixel grid → moiré
  const shown = await encode({ data: out, width: W, height: H }).resize(Math.round(src.width * (1.05 + r() * 0.4)), null, { kernel: 'linear' }).png().toBuffer();
  const m = await sharp(shown).metadata();
  const bez = Math.round(Math.max(m.width!, m.height!) * (0.04 + r() * 0.05));
  const bezeled = await sharp(shown).extend({ top: bez, bottom: bez, left: bez, right: bez, background: { r: 12, g: 12, b: 14 } }).png().toBuffer();
  const room: [number, number, number] = [80 + r() * 120, 80 + r() * 110, 70 + r() * 110].map(Math.round) as [number, number, number];
  return rephotograph(bezeled, m.width! + 2 * bez, m.height! + 2 * bez, 1.1 + r() * 0.2, room, r, src.width);
}
