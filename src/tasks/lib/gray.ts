// Small greyscale image operations on typed arrays (row-major, width*height): blur, gradients, integral
// images, Otsu, Laplacian. Shared by quality, contour, perspective, receipt and QR preprocessing.
import { boxMean as boxMeanF } from './box-mean.js';

export interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

export function greyFromU8(u8: Uint8Array, width: number, height: number): Grey {
  const data = new Float32Array(width * height);
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
function boxBlurPass(src: Float32Array, dst: Float32Array, w: number, h: number, r: number): void {
  const tmp = new Float32Array(w * h);
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

/** Gaussian blur with edge clamping: exact separable kernel for small sigma, three box blurs above 2.5. */
export function gaussianBlur(g: Grey, sigma: number): Grey {
  if (sigma <= 0.01) return { data: g.data.slice(), width: g.width, height: g.height };
  if (sigma > 2.5) {
    let cur = g.data;
    for (const b of boxesForGauss(sigma)) {
      const next = new Float32Array(g.width * g.height);
      boxBlurPass(cur, next, g.width, g.height, (b - 1) >> 1);
      cur = next;
    }
    return { data: cur, width: g.width, height: g.height };
  }
  const { width: w, height: h } = g;
  const k = kernel1d(sigma);
  const r = (k.length - 1) >> 1;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const src = g.data;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) {
        let xx = x + i;
        if (xx < 0) xx = 0;
        else if (xx >= w) xx = w - 1;
        s += src[row + xx]! * k[i + r]!;
      }
      tmp[row + x] = s;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = -r; i <= r; i++) {
        let yy = y + i;
        if (yy < 0) yy = 0;
        else if (yy >= h) yy = h - 1;
        s += tmp[yy * w + x]! * k[i + r]!;
      }
      out[y * w + x] = s;
    }
  }
  return { data: out, width: w, height: h };
}

/** Sobel gradients. */
export function sobel(g: Grey): { gx: Float32Array; gy: Float32Array; mag: Float32Array } {
  const { width: w, height: h, data: d } = g;
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  const mag = new Float32Array(w * h);
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

/** Variance of the 4-neighbour Laplacian (interior pixels). */
export function laplacianVariance(g: Grey): number {
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
