// Small greyscale image operations on typed arrays (row-major, width*height): blur, gradients, integral
// images, Otsu, Laplacian. Shared by quality, contour, perspective, receipt and QR preprocessing.
import { boxMean as boxMeanF } from './box-mean.js';
import type { Scratch } from './scratch.js';

export interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

/** 8-bit grey pixels as decoded (one byte per pixel, row-major). */
export interface Grey8 {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Float32 copy of 8-bit pixels; into `scratch` when given (then valid until its next 'grey' request). */
export function greyFromU8(u8: Uint8Array, width: number, height: number, scratch?: Scratch): Grey {
  const data = scratch ? scratch.get('f32', 'grey', width * height) : new Float32Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = u8[i]!;
  return { data, width, height };
}

/** Rec. 601 luma from interleaved RGB(A). */
export function lumaFromRgb(rgb: Uint8Array, width: number, height: number, channels: number): Grey {
  const n = width * height;
  const data = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) data[i] = 0.299 * rgb[p]! + 0.587 * rgb[p + 1]! + 0.114 * rgb[p + 2]!;
  return { data, width, height };
}

export function toU8(g: Grey): Uint8Array {
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) {
    const v = g.data[i]!;
    out[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  return out;
}

function kernel1d(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(sigma * 3));
  const k = new Float32Array(2 * r + 1);
  let s = 0;
  for (let i = -r; i <= r; i++) {
    const v = Math.exp(-(i * i) / (2 * sigma * sigma));
    k[i + r] = v;
    s += v;
  }
  for (let i = 0; i < k.length; i++) k[i]! /= s;
  return k;
}

/** Box sizes of three successive box blurs approximating a Gaussian of this sigma. */
function boxesForGauss(sigma: number, n = 3): number[] {
  const wIdeal = Math.sqrt((12 * sigma * sigma) / n + 1);
  let wl = Math.floor(wIdeal);
  if (wl % 2 === 0) wl--;
  const wu = wl + 2;
  const mIdeal = (12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4);
  const m = Math.round(mIdeal);
  return Array.from({ length: n }, (_, i) => (i < m ? wl : wu));
}

/** One horizontal + vertical box blur of radius r with clamped edges (running sums, O(n) for any r). */
function boxBlurPass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number, tmp: Float32Array = new Float32Array(w * h)): void {
  const inv = 1 / (2 * r + 1);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let acc = 0;
    for (let i = -r; i <= r; i++) acc += src[row + Math.min(w - 1, Math.max(0, i))]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = acc * inv;
      acc += src[row + Math.min(w - 1, x + r + 1)]! - src[row + Math.max(0, x - r)]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let acc = 0;
    for (let i = -r; i <= r; i++) acc += tmp[Math.min(h - 1, Math.max(0, i)) * w + x]!;
    for (let y = 0; y < h; y++) {
      dst[y * w + x] = acc * inv;
      acc += tmp[Math.min(h - 1, y + r + 1) * w + x]! - tmp[Math.max(0, y - r) * w + x]!;
    }
  }
}

/**
 * Gaussian blur with edge clamping: exact separable kernel for small sigma, three box blurs above 2.5. With a
 * `scratch`, the result and the intermediate planes are its arrays (the result is valid until the scratch's next
 * 'blur.*' request); without, fresh arrays.
 */
export function gaussianBlur(g: Grey, sigma: number, scratch?: Scratch): Grey {
  const { width: w, height: h } = g;
  const plane = (name: string): Float32Array => (scratch ? scratch.get('f32', name, w * h) : new Float32Array(w * h));
  if (sigma <= 0.01) return { data: g.data.slice(), width: w, height: h };
  if (sigma > 2.5) {
    let cur = g.data;
    const tmp = plane('blur.tmp');
    let pass = 0;
    for (const b of boxesForGauss(sigma)) {
      const next = plane(pass++ % 2 === 0 ? 'blur.a' : 'blur.b');
      boxBlurPass(cur, next, w, h, (b - 1) >> 1, tmp);
      cur = next;
    }
    return { data: cur, width: w, height: h };
  }
  const out = plane('blur.out');
  gaussExact(g.data, out, plane('blur.tmp'), w, h, kernel1d(sigma));
  return { data: out, width: w, height: h };
}

/**
 * The separable convolution with the (float32) kernel k, edges clamped. Each output is the sum over the taps in
 * order (left to right, top to bottom) of input × tap, in double precision, stored as float32 — the arithmetic of
 * the plain per-pixel loop, so the result is bit for bit the same. Only the order of the work differs: the interior
 * of a row, and every row of the vertical pass, accumulate a whole row of outputs tap by tap (independent sums side
 * by side instead of one chain of dependent additions per pixel, and no clamping in the inner loop).
 */
function gaussExact(src: Float32Array, out: Float32Array, tmp: Float32Array, w: number, h: number, k32: Float32Array): void {
  const k = Float64Array.from(k32);
  const n = k.length;
  const r = (n - 1) >> 1;
  const acc = new Float64Array(w);
  const clampedAt = (row: number, x: number): number => {
    let s = 0;
    for (let i = -r; i <= r; i++) {
      let xx = x + i;
      if (xx < 0) xx = 0;
      else if (xx >= w) xx = w - 1;
      s += src[row + xx]! * k[i + r]!;
    }
    return s;
  };
  const x0 = Math.min(r, w), x1 = Math.max(x0, w - r); // interior [x0, x1): every tap inside the row
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < x0; x++) tmp[row + x] = clampedAt(row, x);
    for (let x = x1; x < w; x++) tmp[row + x] = clampedAt(row, x);
    if (x1 > x0) {
      acc.fill(0, x0, x1);
      for (let j = 0; j < n; j++) {
        const kj = k[j]!;
        const b = row - r + j;
        for (let x = x0; x < x1; x++) acc[x] += src[b + x]! * kj;
      }
      for (let x = x0; x < x1; x++) tmp[row + x] = acc[x]!;
    }
  }
  for (let y = 0; y < h; y++) {
    acc.fill(0);
    for (let j = 0; j < n; j++) {
      let yy = y + j - r;
      if (yy < 0) yy = 0;
      else if (yy >= h) yy = h - 1;
      const o = yy * w;
      const kj = k[j]!;
      for (let x = 0; x < w; x++) acc[x] += tmp[o + x]! * kj;
    }
    const o = y * w;
    for (let x = 0; x < w; x++) out[o + x] = acc[x]!;
  }
}

/** Sobel gradients (into the scratch's 'sobel.*' arrays when given: valid until its next such request). */
export function sobel(g: Grey, scratch?: Scratch): { gx: Float32Array; gy: Float32Array; mag: Float32Array } {
  const { width: w, height: h, data: d } = g;
  const plane = (name: string): Float32Array => (scratch ? scratch.get('f32', name, w * h) : new Float32Array(w * h));
  const gx = plane('sobel.gx');
  const gy = plane('sobel.gy');
  const mag = plane('sobel.mag');
  for (let y = 0; y < h; y++) {
    const y0 = (y > 0 ? y - 1 : 0) * w;
    const y1 = y * w;
    const y2 = (y < h - 1 ? y + 1 : h - 1) * w;
    for (let x = 0; x < w; x++) {
      const x0 = x > 0 ? x - 1 : 0;
      const x2 = x < w - 1 ? x + 1 : w - 1;
      const a = d[y0 + x0]!, b = d[y0 + x]!, c = d[y0 + x2]!;
      const dd = d[y1 + x0]!, f = d[y1 + x2]!;
      const gg = d[y2 + x0]!, hh = d[y2 + x]!, ii = d[y2 + x2]!;
      const sx = c + 2 * f + ii - a - 2 * dd - gg;
      const sy = gg + 2 * hh + ii - a - 2 * b - c;
      gx[y1 + x] = sx;
      gy[y1 + x] = sy;
      mag[y1 + x] = Math.sqrt(sx * sx + sy * sy);
    }
  }
  return { gx, gy, mag };
}

/** Variance of the 4-neighbour Laplacian (interior pixels), of 8-bit pixels (exact integers: the same figure as
 * from their Float32 copy, without making one). */
export function laplacianVariance(g: Grey8): number {
  const { width: w, height: h, data: d } = g;
  let s = 0, s2 = 0, n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const l = d[i - 1]! + d[i + 1]! + d[i - w]! + d[i + w]! - 4 * d[i]!;
      s += l;
      s2 += l * l;
      n++;
    }
  }
  if (n === 0) return 0;
  const m = s / n;
  return s2 / n - m * m;
}

/** Summed-area tables of values and squares (Float64, (w+1)*(h+1)). */
export function integral(g: Grey, squares = false): { sum: Float64Array; sq?: Float64Array } {
  const { width: w, height: h, data: d } = g;
  const W = w + 1;
  const sum = new Float64Array(W * (h + 1));
  const sq = squares ? new Float64Array(W * (h + 1)) : undefined;
  for (let y = 0; y < h; y++) {
    let rs = 0, rq = 0;
    for (let x = 0; x < w; x++) {
      const v = d[y * w + x]!;
      rs += v;
      sum[(y + 1) * W + x + 1] = sum[y * W + x + 1]! + rs;
      if (sq) {
        rq += v * v;
        sq[(y + 1) * W + x + 1] = sq[y * W + x + 1]! + rq;
      }
    }
  }
  return { sum, sq };
}

/** Mean over a (2r+1)^2 window clipped to the image (see box-mean.ts). */
export function boxMean(g: Grey, r: number): Float32Array {
  return boxMeanF(Float32Array.from(g.data), g.width, g.height, r);
}

/** Sauvola threshold: T = m * (1 + k * (s / R - 1)); returns 255 (white) / 0 (black). */
export function sauvola(g: Grey, r: number, k = 0.2, R = 128): Uint8Array {
  const { width: w, height: h, data: d } = g;
  const { sum, sq } = integral(g, true);
  const W = w + 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r), y1 = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const x0 = Math.max(0, x - r), x1 = Math.min(w, x + r + 1);
      const n = (y1 - y0) * (x1 - x0);
      const s = sum[y1 * W + x1]! - sum[y0 * W + x1]! - sum[y1 * W + x0]! + sum[y0 * W + x0]!;
      const q = sq![y1 * W + x1]! - sq![y0 * W + x1]! - sq![y1 * W + x0]! + sq![y0 * W + x0]!;
      const m = s / n;
      const sd = Math.sqrt(Math.max(0, q / n - m * m));
      const t = m * (1 + k * (sd / R - 1));
      out[y * w + x] = d[y * w + x]! > t ? 255 : 0;
    }
  }
  return out;
}

/** Otsu threshold of a 256-bin histogram. */
export function otsu(hist: ArrayLike<number>): number {
  let total = 0, sumAll = 0;
  for (let i = 0; i < hist.length; i++) {
    total += hist[i]!;
    sumAll += i * hist[i]!;
  }
  let wB = 0, sumB = 0, best = 0, bestT = 0;
  for (let t = 0; t < hist.length; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB, mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) * (mB - mF);
    if (between > best) {
      best = between;
      bestT = t;
    }
  }
  return bestT;
}

export function histogram(g: Grey): Uint32Array {
  const h = new Uint32Array(256);
  for (let i = 0; i < g.data.length; i++) {
    const v = g.data[i]!;
    h[v < 0 ? 0 : v > 255 ? 255 : v | 0]!++;
  }
  return h;
}

/** Value below which `p` (0..1) of the histogram lies. */
export function percentile(hist: ArrayLike<number>, p: number): number {
  let total = 0;
  for (let i = 0; i < hist.length; i++) total += hist[i]!;
  const target = total * p;
  let acc = 0;
  for (let i = 0; i < hist.length; i++) {
    acc += hist[i]!;
    if (acc >= target) return i;
  }
  return hist.length - 1;
}

/** Bilinear resize of a grey image. */
export function resizeGrey(g: Grey, nw: number, nh: number): Grey {
  const out = new Float32Array(nw * nh);
  const sx = g.width / nw, sy = g.height / nh;
  for (let y = 0; y < nh; y++) {
    const fy = Math.min(g.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy), y1 = Math.min(g.height - 1, y0 + 1), wy = fy - y0;
    for (let x = 0; x < nw; x++) {
      const fx = Math.min(g.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx), x1 = Math.min(g.width - 1, x0 + 1), wx = fx - x0;
      const a = g.data[y0 * g.width + x0]!, b = g.data[y0 * g.width + x1]!;
      const c = g.data[y1 * g.width + x0]!, d = g.data[y1 * g.width + x1]!;
      out[y * nw + x] = (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy;
    }
  }
  return { data: out, width: nw, height: nh };
}
