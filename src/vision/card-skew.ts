// A card photographed a few degrees off straight whose edge the outline search did not find (a card on white
// paper): the angle of its text lines from the projection profile of its ink, and the card turned back by it.
// (Written here: the rotation is raster.ts warpAffine; the profile search is a few lines, as receipt-steps.ts has
// its own for paper, not shared because that one works on a grey full-page image and searches up to 45°.)
import { warpAffine, type RgbImage } from './raster.js';

/** Angles searched (degrees either way) and the least that is corrected: a straight card is left untouched. */
const MAX_SKEW = 10, MIN_SKEW = 0.8;
/** width of the copy the ink is found on */
const WORK_W = 640;

/** Ink pixels of the image at ≈ WORK_W wide: darker by 30 than the mean of their 31×31 neighbourhood. */
function inkPoints(img: RgbImage): { xs: Float32Array; ys: Float32Array } {
  const step = Math.max(1, Math.round(img.width / WORK_W));
  const w = Math.floor(img.width / step), h = Math.floor(img.height / step), C = img.channels;
  const g = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = (y * step * img.width + x * step) * C;
    g[y * w + x] = (img.data[o]! + img.data[o + 1]! + img.data[o + 2]!) / 3;
  }
  const I = new Float64Array((w + 1) * (h + 1)); // integral image
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) I[(y + 1) * (w + 1) + x + 1] = g[y * w + x]! + I[y * (w + 1) + x + 1]! + I[(y + 1) * (w + 1) + x]! - I[y * (w + 1) + x]!;
  const r = 15, xs: number[] = [], ys: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const x0 = Math.max(0, x - r), x1 = Math.min(w, x + r + 1), y0 = Math.max(0, y - r), y1 = Math.min(h, y + r + 1);
    const mean = (I[y1 * (w + 1) + x1]! - I[y0 * (w + 1) + x1]! - I[y1 * (w + 1) + x0]! + I[y0 * (w + 1) + x0]!) / ((x1 - x0) * (y1 - y0));
    if (g[y * w + x]! < mean - 30) { xs.push(x); ys.push(y); }
  }
  return { xs: Float32Array.from(xs), ys: Float32Array.from(ys) };
}

/** Sharpness of the ink's row profile along lines at `deg` (sum of squared bin counts). */
function profile(xs: Float32Array, ys: Float32Array, deg: number): number {
  const t = Math.tan((deg * Math.PI) / 180), bins = new Map<number, number>();
  for (let i = 0; i < xs.length; i++) { const k = Math.round(ys[i]! - xs[i]! * t); bins.set(k, (bins.get(k) ?? 0) + 1); }
  let s = 0;
  for (const v of bins.values()) s += v * v;
  return s;
}

/** The text lines' angle in degrees (clockwise, as they fall to the right), 0 below MIN_SKEW. */
export function skewAngle(img: RgbImage): number {
  const { xs, ys } = inkPoints(img);
  if (xs.length < 500) return 0;
  const search = (from: number, to: number, step: number) => {
    let best = from, score = -1;
    for (let a = from; a <= to + 1e-9; a += step) { const s = profile(xs, ys, a); if (s > score) { score = s; best = a; } }
    return best;
  };
  const coarse = search(-MAX_SKEW, MAX_SKEW, 0.5);
  const fine = search(coarse - 0.5, coarse + 0.5, 0.1);
  return Math.abs(fine) < MIN_SKEW ? 0 : Math.round(fine * 10) / 10;
}

/** The image turned back by `deg` about its centre (same size; the corners opened filled with its mean grey). */
export function turnBack(img: RgbImage, deg: number): RgbImage {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), cx = img.width / 2, cy = img.height / 2;
  let sum = 0;
  for (let i = 0; i < img.data.length; i += 97) sum += img.data[i]!;
  const fill = Math.round(sum / Math.ceil(img.data.length / 97));
  // output (u, v) takes the source pixel turned clockwise by deg about the centre
  const m = [c, -s, cx - cx * c + cy * s, s, c, cy - cx * s - cy * c];
  return { ...warpAffine(img, m, img.width, img.height, fill), channels: 3 } as RgbImage;
}

/** A point of the turned-back image at its place in the image before (for boxes mapped back to the source). */
export function unturnPoint(x: number, y: number, deg: number, w: number, h: number): [number, number] {
  const a = (deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a), cx = w / 2, cy = h / 2;
  return [cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c];
}
