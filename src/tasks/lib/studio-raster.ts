// Pixel primitives of the photo studio (pure, synchronous, no sharp): regions of interest, float planes,
// polygon fill, Gaussian-like blur with finite support, the guided filter and sRGB <-> CIE Lab.
// Everything works on a rectangular region of interest (ROI) so that the cost follows the face, not the photo.
import { boxMean } from './box-mean.js';

export type Pt = [number, number];

/** Interleaved 8-bit RGB of the whole photo. */
export interface Rgb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A rectangle of the photo: x, y of the top-left pixel, width, height (all integers, inside the photo). */
export interface Roi {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The ROI that covers the given points plus a margin, clipped to the photo. */
export function roiAround(points: Pt[], margin: number, width: number, height: number): Roi {
  let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
  for (const [x, y] of points) {
    if (x < x1) x1 = x;
    if (y < y1) y1 = y;
    if (x > x2) x2 = x;
    if (y > y2) y2 = y;
  }
  const x = Math.max(0, Math.floor(x1 - margin));
  const y = Math.max(0, Math.floor(y1 - margin));
  const xe = Math.min(width, Math.ceil(x2 + margin) + 1);
  const ye = Math.min(height, Math.ceil(y2 + margin) + 1);
  return { x, y, w: Math.max(0, xe - x), h: Math.max(0, ye - y) };
}

/** The three colour planes of an ROI as floats 0..255 (R, G, B). */
export function extractPlanes(img: Rgb, r: Roi): [Float32Array, Float32Array, Float32Array] {
  const n = r.w * r.h;
  const R = new Float32Array(n), G = new Float32Array(n), B = new Float32Array(n);
  for (let y = 0; y < r.h; y++) {
    let s = ((r.y + y) * img.width + r.x) * 3;
    let d = y * r.w;
    for (let x = 0; x < r.w; x++, s += 3, d++) {
      R[d] = img.data[s]!;
      G[d] = img.data[s + 1]!;
      B[d] = img.data[s + 2]!;
    }
  }
  return [R, G, B];
}

const clamp8 = (v: number): number => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/**
 * Write planes back into the photo, blended with weight `w` (0..1 per ROI pixel): out = in + w (planes - in).
 * Pixels whose weight is 0 are not written at all, so they stay bit-identical.
 */
export function blendPlanes(img: Rgb, r: Roi, planes: [Float32Array, Float32Array, Float32Array], w: Float32Array): void {
  const [R, G, B] = planes;
  for (let y = 0; y < r.h; y++) {
    let s = ((r.y + y) * img.width + r.x) * 3;
    let d = y * r.w;
    for (let x = 0; x < r.w; x++, s += 3, d++) {
      const a = w[d]!;
      if (a <= 0) continue;
      const k = a >= 1 ? 1 : a;
      img.data[s] = clamp8(img.data[s]! + k * (R[d]! - img.data[s]!));
      img.data[s + 1] = clamp8(img.data[s + 1]! + k * (G[d]! - img.data[s + 1]!));
      img.data[s + 2] = clamp8(img.data[s + 2]! + k * (B[d]! - img.data[s + 2]!));
    }
  }
}

/** Fill a polygon (even-odd, pixel centres) into a mask of the ROI's size, ROI-relative coordinates. */
export function fillPolygon(mask: Float32Array, w: number, h: number, poly: Pt[], value = 1): Float32Array {
  const n = poly.length;
  if (n < 3) return mask;
  let ymin = Infinity, ymax = -Infinity;
  for (const p of poly) {
    ymin = Math.min(ymin, p[1]);
    ymax = Math.max(ymax, p[1]);
  }
  const y0 = Math.max(0, Math.ceil(ymin - 0.5));
  const y1 = Math.min(h - 1, Math.floor(ymax - 0.5));
  const xs: number[] = [];
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5;
    xs.length = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const [xi, yi] = poly[i]!;
      const [xj, yj] = poly[j]!;
      if ((yi > cy) !== (yj > cy)) xs.push(xi + ((cy - yi) / (yj - yi)) * (xj - xi));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const xa = Math.max(0, Math.ceil(xs[k]! - 0.5));
      const xb = Math.min(w - 1, Math.floor(xs[k + 1]! - 0.5));
      for (let x = xa; x <= xb; x++) mask[y * w + x] = value;
    }
  }
  return mask;
}

/** One horizontal + vertical box blur of radius r (zero outside the plane: finite support, no wrap). */
function boxBlurZero(src: Float32Array, w: number, h: number, r: number, tmp: Float32Array, dst: Float32Array): void {
  const k = 1 / (2 * r + 1);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let acc = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) acc += src[o + x]!;
    for (let x = 0; x < w; x++) {
      tmp[o + x] = acc * k;
      const add = x + r + 1;
      const sub = x - r;
      if (add < w) acc += src[o + add]!;
      if (sub >= 0) acc -= src[o + sub]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let acc = 0;
    for (let y = 0; y <= Math.min(r, h - 1); y++) acc += tmp[y * w + x]!;
    for (let y = 0; y < h; y++) {
      dst[y * w + x] = acc * k;
      const add = y + r + 1;
      const sub = y - r;
      if (add < h) acc += tmp[add * w + x]!;
      if (sub >= 0) acc -= tmp[sub * w + x]!;
    }
  }
}

/**
 * Approximate Gaussian blur of standard deviation sigma: three box passes (support 3r+1 pixels each side),
 * values outside the plane count as 0. Used for masks, which are 0 at the ROI border by construction.
 */
export function gaussBlur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (sigma < 0.5) return Float32Array.from(src);
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  const a = new Float32Array(src.length), b = new Float32Array(src.length), tmp = new Float32Array(src.length);
  boxBlurZero(src, w, h, r, tmp, a);
  boxBlurZero(a, w, h, r, tmp, b);
  boxBlurZero(b, w, h, r, tmp, a);
  // remove tiny float noise so that "0 outside the support" stays exactly 0
  for (let i = 0; i < a.length; i++) if (a[i]! < 1e-4) a[i] = 0;
  return a;
}

export { boxMean } from './box-mean.js';

/**
 * Guided filter (He, Sun, Tang 2010), self-guided: an edge-preserving smoother. Flat regions (variance << eps)
 * are averaged over the (2r+1)^2 window, strong edges (variance >> eps) pass almost unchanged.
 */
export function guidedFilter(I: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = I.length;
  const mean = boxMean(I, w, h, r);
  const sq = new Float32Array(n);
  for (let i = 0; i < n; i++) sq[i] = I[i]! * I[i]!;
  const meanSq = boxMean(sq, w, h, r);
  const a = new Float32Array(n), b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const v = Math.max(0, meanSq[i]! - mean[i]! * mean[i]!);
    const ai = v / (v + eps);
    a[i] = ai;
    b[i] = mean[i]! - ai * mean[i]!;
  }
  const ma = boxMean(a, w, h, r);
  const mb = boxMean(b, w, h, r, sq);
  const q = new Float32Array(n);
  for (let i = 0; i < n; i++) q[i] = ma[i]! * I[i]! + mb[i]!;
  return q;
}

// ---------------------------------------------------------------- colour: sRGB (D65) <-> CIE L*a*b*
const LIN = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LIN[i] = c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
const Xn = 0.95047, Yn = 1.0, Zn = 1.08883;
const fLab = (t: number): number => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
const fInv = (t: number): number => (t > 0.206893 ? t * t * t : (t - 16 / 116) / 7.787);
const toLinear = (v: number): number => {
  if (v <= 0) return 0;
  if (v >= 255) return 1;
  const i = Math.floor(v), f = v - i;
  return LIN[i]! + f * (LIN[Math.min(255, i + 1)]! - LIN[i]!);
};
// linear 0..1 -> sRGB 0..255 through a 16k-entry table (linear interpolation; error < 0.01 of a level)
const SRGB_N = 16384;
const SRGB = new Float32Array(SRGB_N + 2);
for (let i = 0; i <= SRGB_N + 1; i++) {
  const l = Math.min(1, i / SRGB_N);
  SRGB[i] = (l <= 0.0031308 ? 12.92 * l : 1.055 * Math.pow(l, 1 / 2.4) - 0.055) * 255;
}
const toSrgb = (l: number): number => {
  if (l <= 0) return l * 12.92 * 255;
  if (l >= 1) return (1.055 * Math.pow(l, 1 / 2.4) - 0.055) * 255;
  const f = l * SRGB_N, i = f | 0;
  return SRGB[i]! + (f - i) * (SRGB[i + 1]! - SRGB[i]!);
};

/** sRGB 0..255 (float) -> [L 0..100, a, b]. */
export function rgbToLab(r: number, g: number, b: number, out: number[] | Float32Array = [0, 0, 0]): number[] | Float32Array {
  const R = toLinear(r), G = toLinear(g), B = toLinear(b);
  const X = (0.4124564 * R + 0.3575761 * G + 0.1804375 * B) / Xn;
  const Y = (0.2126729 * R + 0.7151522 * G + 0.072175 * B) / Yn;
  const Z = (0.0193339 * R + 0.119192 * G + 0.9503041 * B) / Zn;
  const fx = fLab(X), fy = fLab(Y), fz = fLab(Z);
  out[0] = 116 * fy - 16;
  out[1] = 500 * (fx - fy);
  out[2] = 200 * (fy - fz);
  return out;
}

/** [L, a, b] -> sRGB 0..255 (float, may fall outside; callers clamp). */
export function labToRgb(L: number, a: number, b: number, out: number[] | Float32Array = [0, 0, 0]): number[] | Float32Array {
  const fy = (L + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
  const X = fInv(fx) * Xn, Y = fInv(fy) * Yn, Z = fInv(fz) * Zn;
  const R = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
  const G = -0.969266 * X + 1.8760108 * Y + 0.041556 * Z;
  const B = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
  out[0] = toSrgb(R);
  out[1] = toSrgb(G);
  out[2] = toSrgb(B);
  return out;
}

/** Hue angle (degrees 0..360) and chroma of an sRGB colour in Lab. */
export function hueChroma(r: number, g: number, b: number): { hue: number; chroma: number; L: number } {
  const [L, A, B] = rgbToLab(r, g, b) as number[];
  const hue = (Math.atan2(B!, A!) * 180) / Math.PI;
  return { hue: hue < 0 ? hue + 360 : hue, chroma: Math.hypot(A!, B!), L: L! };
}

/** Smallest signed difference of two angles in degrees (-180..180]. */
export function angleDiff(a: number, b: number): number {
  let d = (a - b) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

export const lerp = (a: Pt, b: Pt, t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
export const dist = (a: Pt, b: Pt): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
export const centroid = (pts: Pt[]): Pt => [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
/** Scale points about their centroid (sx horizontally, sy vertically). */
export function scaleAbout(pts: Pt[], sx: number, sy = sx, c: Pt = centroid(pts)): Pt[] {
  return pts.map((p) => [c[0] + (p[0] - c[0]) * sx, c[1] + (p[1] - c[1]) * sy]);
}
export const shift = (pts: Pt[], r: Roi): Pt[] => pts.map((p) => [p[0] - r.x, p[1] - r.y]);
