// Canny edge detection: Gaussian blur, Sobel gradient, non-maximum suppression, hysteresis.
// Thresholds are automatic when not given: high = the `highPercentile` of the non-zero suppressed gradient
// magnitudes (texture gives many weak maxima, object outlines few strong ones), low = 0.4 * high.
import { gaussianBlur, sobel, type Grey } from './gray.js';
import type { Scratch } from './scratch.js';

export interface CannyOptions {
  sigma?: number;
  low?: number;
  high?: number;
  /** 0..1, default 0.85 */
  highPercentile?: number;
  lowRatio?: number;
}

export interface CannyResult {
  /** 255 on edges, 0 elsewhere */
  edges: Uint8Array;
  width: number;
  height: number;
  low: number;
  high: number;
  /** gradient direction per pixel (radians) of the blurred image, for callers fitting lines */
  gx: Float32Array;
  gy: Float32Array;
  mag: Float32Array;
  /** non-maximum-suppressed magnitudes (reuse with hysteresis() for other thresholds) */
  nms: Float32Array;
}

/**
 * With a `scratch`, every plane (and the returned edges, gradients and maxima) is one of its arrays, valid until
 * the next canny (or blur, sobel) on that scratch: for a caller that is done with them before then (contour).
 */
export function canny(g: Grey, opts: CannyOptions = {}, scratch?: Scratch): CannyResult {
  const { width: w, height: h } = g;
  const blurred = gaussianBlur(g, opts.sigma ?? 1.4, scratch);
  const { gx, gy, mag } = sobel(blurred, scratch);
  const nms = scratch ? scratch.get('f32', 'canny.nms', w * h).fill(0) : new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const m = mag[i]!;
      if (m === 0) continue;
      const ax = gx[i]!, ay = gy[i]!;
      // quantise the direction to 0, 45, 90, 135 degrees without atan2 (tan 22.5° = 0.4142, tan 67.5° = 2.4142)
      const absx = ax < 0 ? -ax : ax, absy = ay < 0 ? -ay : ay;
      let n1: number, n2: number;
      if (absy <= 0.41421356 * absx) {
        n1 = mag[i - 1]!;
        n2 = mag[i + 1]!;
      } else if (absy >= 2.41421356 * absx) {
        n1 = mag[i - w]!;
        n2 = mag[i + w]!;
      } else if ((ax > 0) === (ay > 0)) {
        n1 = mag[i - w - 1]!;
        n2 = mag[i + w + 1]!;
      } else {
        n1 = mag[i - w + 1]!;
        n2 = mag[i + w - 1]!;
      }
      if (m >= n1 && m > n2) nms[i] = m;
    }
  }
  let high = opts.high;
  if (high === undefined) high = Math.max(20, maximaQuantile(nms, opts.highPercentile ?? 0.85, scratch));
  const low = opts.low ?? high * (opts.lowRatio ?? 0.4);
  const edges = hysteresis(nms, w, h, high, low, scratch);
  return { edges, width: w, height: h, low, high, gx, gy, mag, nms };
}

/** Non-zero suppressed magnitudes, sorted ascending (for percentile thresholds). */
export function sortedMaxima(nms: Float32Array, scratch?: Scratch): Float32Array {
  let n = 0;
  for (let i = 0; i < nms.length; i++) if (nms[i]! > 0) n++;
  const v = scratch ? scratch.get('f32', 'canny.sorted', n) : new Float32Array(n);
  n = 0;
  for (let i = 0; i < nms.length; i++) if (nms[i]! > 0) v[n++] = nms[i]!;
  return v.sort();
}

/**
 * `quantile(sortedMaxima(nms), p)` without the sort: the same element, found by selection (O(n); sorting the
 * ~10⁵ maxima of a 1024² image was a tenth of contour's time).
 */
export function maximaQuantile(nms: Float32Array, p: number, scratch?: Scratch): number {
  let n = 0;
  for (let i = 0; i < nms.length; i++) if (nms[i]! > 0) n++;
  if (n === 0) return 1;
  const v = scratch ? scratch.get('f32', 'canny.sorted', n) : new Float32Array(n);
  n = 0;
  for (let i = 0; i < nms.length; i++) if (nms[i]! > 0) v[n++] = nms[i]!;
  return select(v, Math.min(n - 1, Math.floor(n * p)));
}

/** The k-th smallest value of a (0-based; a is reordered): Wirth's selection with a median-of-three pivot. */
export function select(a: Float32Array, k: number): number {
  let l = 0, r = a.length - 1;
  while (l < r) {
    const p = a[l]!, q = a[k]!, s = a[r]!;
    const x = p < q ? (q < s ? q : p < s ? s : p) : p < s ? p : q < s ? s : q;
    let i = l, j = r;
    do {
      while (a[i]! < x) i++;
      while (x < a[j]!) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) l = i;
    if (k < i) r = j;
  }
  return a[k]!;
}

export function quantile(sorted: Float32Array, p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 1;
}

/** Hysteresis: keep maxima >= high and the maxima >= low connected to them (8-neighbours). */
export function hysteresis(nms: Float32Array, w: number, h: number, high: number, low: number, scratch?: Scratch): Uint8Array {
  const edges = scratch ? scratch.get('u8', 'canny.edges', w * h).fill(0) : new Uint8Array(w * h);
  const stack: number[] = [];
  for (let i = 0; i < nms.length; i++) {
    if (nms[i]! >= high && edges[i] === 0) {
      edges[i] = 255;
      stack.push(i);
      while (stack.length) {
        const j = stack.pop()!;
        const jx = j % w, jy = (j - jx) / w;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = jy + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = jx + dx;
            if (xx < 0 || xx >= w) continue;
            const k = yy * w + xx;
            if (edges[k] === 0 && nms[k]! >= low) {
              edges[k] = 255;
              stack.push(k);
            }
          }
        }
      }
    }
  }
  return edges;
}
