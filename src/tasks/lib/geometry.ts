// Plane geometry for perspective work: homographies, bilinear warps, convex hulls, line fits.
import type { Raw } from './image-io.js';

export type Pt = [number, number];
export type Mat3 = Float64Array; // row-major 3x3

/** Solve A x = b (n x n, Gaussian elimination with partial pivoting). */
export function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[p]![c]!)) p = r;
    if (Math.abs(M[p]![c]!) < 1e-12) throw new Error('singular system');
    [M[c], M[p]] = [M[p]!, M[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / M[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((r, i) => r[n]! / r[i]!);
}

/** Homography H with H * src[i] ~ dst[i] for four point pairs. */
export function homography(src: Pt[], dst: Pt[]): Mat3 {
  const A: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = src[i]!;
    const [u, v] = dst[i]!;
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  const h = solve(A, b);
  return Float64Array.from([...h, 1]);
}

export function applyH(H: Mat3, x: number, y: number): Pt {
  const w = H[6]! * x + H[7]! * y + H[8]!;
  return [(H[0]! * x + H[1]! * y + H[2]!) / w, (H[3]! * x + H[4]! * y + H[5]!) / w];
}

/**
 * Warp: output pixel (u,v) samples the source at H_inv(u,v) where H_inv maps output → source.
 * Bilinear; outside the source → `bg` (per channel).
 */
export function warp(src: Raw, Hinv: Mat3, outW: number, outH: number, bg: number[] = [255, 255, 255, 255]): Raw {
  const ch = src.channels;
  const out = new Uint8Array(outW * outH * ch);
  const { width: w, height: h, data: d } = src;
  for (let v = 0; v < outH; v++) {
    for (let u = 0; u < outW; u++) {
      const X = Hinv[0]! * (u + 0.5) + Hinv[1]! * (v + 0.5) + Hinv[2]!;
      const Y = Hinv[3]! * (u + 0.5) + Hinv[4]! * (v + 0.5) + Hinv[5]!;
      const Z = Hinv[6]! * (u + 0.5) + Hinv[7]! * (v + 0.5) + Hinv[8]!;
      const fx = X / Z - 0.5, fy = Y / Z - 0.5;
      const o = (v * outW + u) * ch;
      if (!(fx >= -0.5 && fy >= -0.5 && fx <= w - 0.5 && fy <= h - 0.5)) {
        for (let c = 0; c < ch; c++) out[o + c] = bg[c] ?? 255;
        continue;
      }
      const x0 = Math.max(0, Math.min(w - 1, Math.floor(fx))), y0 = Math.max(0, Math.min(h - 1, Math.floor(fy)));
      const x1 = Math.min(w - 1, x0 + 1), y1 = Math.min(h - 1, y0 + 1);
      const ax = Math.max(0, Math.min(1, fx - x0)), ay = Math.max(0, Math.min(1, fy - y0));
      const i00 = (y0 * w + x0) * ch, i01 = (y0 * w + x1) * ch, i10 = (y1 * w + x0) * ch, i11 = (y1 * w + x1) * ch;
      for (let c = 0; c < ch; c++) {
        const top = d[i00 + c]! * (1 - ax) + d[i01 + c]! * ax;
        const bot = d[i10 + c]! * (1 - ax) + d[i11 + c]! * ax;
        out[o + c] = Math.round(top * (1 - ay) + bot * ay);
      }
    }
  }
  return { data: out, width: outW, height: outH, channels: ch };
}

export function invert3(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m as unknown as number[];
  const A = e! * i! - f! * h!, B = -(d! * i! - f! * g!), C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  if (Math.abs(det) < 1e-15) throw new Error('singular matrix');
  const inv = [A, -(b! * i! - c! * h!), b! * f! - c! * e!, B, a! * i! - c! * g!, -(a! * f! - c! * d!), C, -(a! * h! - b! * g!), a! * e! - b! * d!];
  return Float64Array.from(inv.map((v) => v / det));
}

export function cross(o: Pt, a: Pt, b: Pt): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in image coordinates (y down → appears clockwise). */
export function convexHull(points: Pt[]): Pt[] {
  const pts = [...points].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length <= 2) return pts;
  const lower: Pt[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Pt[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

export function polygonArea(p: Pt[]): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i]!, b = p[(i + 1) % p.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(s) / 2;
}

/** Order four points as top-left, top-right, bottom-right, bottom-left. */
export function orderCorners(p: Pt[]): [Pt, Pt, Pt, Pt] {
  const cx = p.reduce((s, q) => s + q[0], 0) / p.length;
  const cy = p.reduce((s, q) => s + q[1], 0) / p.length;
  const sorted = [...p].sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
  // angles from -pi: roughly TL(-3pi/4), TR(-pi/4), BR(pi/4), BL(3pi/4) in image coordinates (y down)
  // start from the point with the smallest x+y
  let start = 0;
  for (let i = 1; i < 4; i++) if (sorted[i]![0] + sorted[i]![1] < sorted[start]![0] + sorted[start]![1]) start = i;
  const o = [0, 1, 2, 3].map((k) => sorted[(start + k) % 4]!) as [Pt, Pt, Pt, Pt];
  return o;
}

/** Total least-squares line through points: returns point on line and unit direction. */
export function fitLine(pts: Pt[], weights?: number[]): { p: Pt; d: Pt } {
  let sw = 0, mx = 0, my = 0;
  for (let i = 0; i < pts.length; i++) {
    const w = weights ? weights[i]! : 1;
    sw += w;
    mx += w * pts[i]![0];
    my += w * pts[i]![1];
  }
  mx /= sw;
  my /= sw;
  let sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < pts.length; i++) {
    const w = weights ? weights[i]! : 1;
    const dx = pts[i]![0] - mx, dy = pts[i]![1] - my;
    sxx += w * dx * dx;
    sxy += w * dx * dy;
    syy += w * dy * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { p: [mx, my], d: [Math.cos(theta), Math.sin(theta)] };
}

export function intersect(a: { p: Pt; d: Pt }, b: { p: Pt; d: Pt }): Pt | undefined {
  const den = a.d[0] * b.d[1] - a.d[1] * b.d[0];
  if (Math.abs(den) < 1e-9) return undefined;
  const t = ((b.p[0] - a.p[0]) * b.d[1] - (b.p[1] - a.p[1]) * b.d[0]) / den;
  return [a.p[0] + t * a.d[0], a.p[1] + t * a.d[1]];
}

export const dist = (a: Pt, b: Pt): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
