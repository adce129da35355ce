// A QR code read off its module grid: from three located finder patterns (and the alignment pattern, found near
// where the three predict it), the grid of modules is mapped onto the photo (affine, or a homography when the
// alignment pattern is found), each module's centre is sampled, thresholded against the modules around it and
// the result redrawn as a clean code (4 px per module, quiet zone, the fixed patterns drawn as the standard has
// them) for zxing to read. For codes zxing's own detector loses: heavy blur, small modules, uneven light.
import { homography, applyH, type Mat3, type Pt } from './geometry.js';
import { homographyFrom } from './qr-homography.js';

export interface GridFinder { x: number; y: number; module: number }
export interface GridCode {
  /** the redrawn code: PX px per module, a quiet zone of QUIET modules */
  data: Uint8Array; width: number; height: number;
  /** redrawn pixel → source pixel */
  toSource: (x: number, y: number) => Pt;
}
export const PX = 4, QUIET = 4;

/** Bilinear grey at (x, y) (pixel centres at integer + 0.5), clamped to the image. */
export function at(g: Uint8Array, w: number, h: number, x: number, y: number): number {
  let fx = x - 0.5, fy = y - 0.5;
  fx = fx < 0 ? 0 : fx > w - 1.001 ? w - 1.001 : fx;
  fy = fy < 0 ? 0 : fy > h - 1.001 ? h - 1.001 : fy;
  const x0 = fx | 0, y0 = fy | 0, ax = fx - x0, ay = fy - y0, i = y0 * w + x0;
  const top = g[i]! + (g[i + 1]! - g[i]!) * ax, bot = g[i + w]! + (g[i + w + 1]! - g[i + w]!) * ax;
  return top + (bot - top) * ay;
}

/** The corner finder first, then the one along the rows (top-right), then the one down the columns. The corner is
 * the finder opposite the longest side unless `corner` (an index into t) says otherwise. */
export function orient(t: GridFinder[], corner = longestOpposite(t)): [GridFinder, GridFinder, GridFinder] {
  const k = corner;
  const A = t[k]!, B0 = t[(k + 1) % 3]!, C0 = t[(k + 2) % 3]!;
  const cross = (B0.x - A.x) * (C0.y - A.y) - (B0.y - A.y) * (C0.x - A.x);
  return cross > 0 ? [A, B0, C0] : [A, C0, B0];
}

const dist = (a: GridFinder, b: GridFinder): number => Math.hypot(a.x - b.x, a.y - b.y);
/** The finder opposite the longest side (the corner of a code seen square-on). */
function longestOpposite(t: GridFinder[]): number {
  const [p, q, r] = t as [GridFinder, GridFinder, GridFinder];
  const sides = [dist(q, r), dist(p, r), dist(p, q)];
  return sides.indexOf(Math.max(...sides));
}
/** Corner choices for a triple: opposite the longest side first, then the other two (under strong perspective
 * the side between the two outer finders need not be the longest). */
export function corners(t: GridFinder[]): number[] {
  const k = longestOpposite(t);
  return [k, (k + 1) % 3, (k + 2) % 3];
}

/** Versions worth trying for three finders: from their distance in modules (centres are size − 7 apart), each
 * side measured in the modules of the two finders it joins (under perspective the finders' sizes differ). */
export function versionsFor(t: GridFinder[], corner?: number): number[] {
  const [A, B, C] = orient(t, corner);
  const span = (dist(A, B) / ((A.module + B.module) / 2) + dist(A, C) / ((A.module + C.module) / 2)) / 2;
  const v = Math.round((span + 7 - 17) / 4);
  const out: number[] = [];
  for (const dv of [0, 1, -1, 2, -2]) if (v + dv >= 1 && v + dv <= 40) out.push(v + dv);
  return out;
}

/** Centre of the (last) alignment pattern of version v: module coordinates. */
const alignCentre = (n: number): number => n - 6.5;

/** A module grid: anchors in module coordinates (src) and pixels (dst), their homography and its fit. */
export interface Grid {
  n: number; src: Pt[]; dst: Pt[]; module: number; H: Mat3; fit: number;
  /** one module along the rows and down the columns, as the three finders put it (pixels) */
  axes: [Pt, Pt];
}

/**
 * The module grid (module coordinates → pixels) for version v: affine from the three finders, a homography when
 * an alignment pattern is found near the predicted place (versions ≥ 2); `fit` = contrast of the fixed patterns.
 */
export function gridFor(g: Uint8Array, w: number, h: number, t: GridFinder[], v: number, corner?: number): Grid {
  const [A, B, C] = orient(t, corner);
  const n = 17 + 4 * v, k = n - 7;
  const ex: Pt = [(B.x - A.x) / k, (B.y - A.y) / k], ey: Pt = [(C.x - A.x) / k, (C.y - A.y) / k];
  const P = (u: number, vv: number): Pt => [A.x + (u - 3.5) * ex[0] + (vv - 3.5) * ey[0], A.y + (u - 3.5) * ex[1] + (vv - 3.5) * ey[1]];
  const src: Pt[] = [[3.5, 3.5], [n - 3.5, 3.5], [3.5, n - 3.5]];
  const dst: Pt[] = [[A.x, A.y], [B.x, B.y], [C.x, C.y]];
  let D: Pt = P(n - 3.5, n - 3.5);
  let Dm: Pt = [n - 3.5, n - 3.5];
  if (v >= 2) {
    const a = alignCentre(n), found = findAlignment(g, w, h, P(a, a), ex, ey, Math.max(4, n * ALIGN_RADIUS));
    if (found) { D = found; Dm = [a, a]; }
  }
  src.push(Dm);
  dst.push(D);
  const H = homography(src, dst);
  return { n, src, dst, module: Math.hypot(ex[0], ex[1]), H, fit: fitness(g, w, h, H, fixedList(n)), axes: [ex, ey] };
}

/**
 * The fourth anchor moved to where the whole grid's fixed patterns fit best, on a coarse lattice of CORNER_STEP
 * modules within CORNER_RADIUS of the code's width around where the three finders put the alignment pattern:
 * under strong perspective it lies far from that affine prediction, and the alignment pattern alone (5×5
 * modules) is too weak a cue at that distance. The grid as it was when nothing fits better.
 */
export function widen(g: Uint8Array, w: number, h: number, grid: Grid): Grid {
  const { n, src, dst, axes: [ex, ey] } = grid;
  if (n < 25) return grid;
  // the lattice is scored on every third fixed module (cheap), the best point then on all of them
  const fx = fixedList(n), coarse = coarseList(n), a = alignCentre(n), A = dst[0]!;
  const near: Pt = [A[0] + (a - 3.5) * (ex[0] + ey[0]), A[1] + (a - 3.5) * (ex[1] + ey[1])];
  const s4: Pt[] = [...src.slice(0, 3), [a, a]];
  let bestD: Pt | undefined, bestFit = -Infinity;
  const R = Math.max(2, Math.round((n * CORNER_RADIUS) / CORNER_STEP)), Hof = homographyFrom(s4), d4 = [...dst.slice(0, 3), near];
  for (let j = -R; j <= R; j++) for (let i = -R; i <= R; i++) {
    const D: Pt = [near[0] + CORNER_STEP * (i * ex[0] + j * ey[0]), near[1] + CORNER_STEP * (i * ex[1] + j * ey[1])];
    d4[3] = D;
    const H = Hof(d4);
    if (!H) continue;
    const f = fitness(g, w, h, H, coarse);
    if (f > bestFit) { bestFit = f; bestD = D; }
  }
  if (!bestD) return grid;
  d4[3] = bestD;
  const H = Hof(d4)!, fit = fitness(g, w, h, H, fx);
  return fit > grid.fit ? { ...grid, src: s4, dst: d4, H, fit } : grid;
}

const coarseCache = new Map<number, Int16Array>();
/** Every third fixed module of an n-module code (the lattice search's cheap score). */
function coarseList(n: number): Int16Array {
  let c = coarseCache.get(n);
  if (!c) {
    const fx = fixedList(n), out: number[] = [];
    for (let k = 0; k < fx.length; k += 9) out.push(fx[k]!, fx[k + 1]!, fx[k + 2]!);
    coarseCache.set(n, (c = Int16Array.from(out)));
  }
  return c;
}

/** alignment pattern search radius around its affine prediction, as a share of the code's width in modules */
const ALIGN_RADIUS = 0.25;
/** the whole-grid search for the fourth anchor: radius (share of the width) and lattice step (modules) */
const CORNER_RADIUS = 0.3, CORNER_STEP = 1.5;

/** The fixed modules of an n-module code used to fit the grid: [row, col, dark] (finders, separators, timing, and
 * the bottom-right alignment pattern from version 2). */
const fixedCache = new Map<number, Int16Array>();
function fixedList(n: number): Int16Array {
  const hit = fixedCache.get(n);
  if (hit) return hit;
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let f = fixedModule(n, i, j);
    if (n >= 25) {
      const r = Math.max(Math.abs(i - (n - 7)), Math.abs(j - (n - 7)));
      if (r <= 2) f = r === 1 ? 0 : 1;
    }
    if (f >= 0) out.push(i, j, f);
  }
  const list = Int16Array.from(out);
  fixedCache.set(n, list);
  return list;
}

/** Contrast of the fixed modules under the grid (mean light − mean dark sample). */
function fitness(g: Uint8Array, w: number, h: number, H: Mat3, fx: Int16Array): number {
  let dark = 0, light = 0, nd = 0, nl = 0;
  for (let k = 0; k < fx.length; k += 3) {
    const u = fx[k + 1]! + 0.5, v = fx[k]! + 0.5;
    const z = H[6]! * u + H[7]! * v + H[8]!;
    const val = at(g, w, h, (H[0]! * u + H[1]! * v + H[2]!) / z, (H[3]! * u + H[4]! * v + H[5]!) / z);
    if (fx[k + 2]) { dark += val; nd++; } else { light += val; nl++; }
  }
  return light / nl - dark / nd;
}

/** The four anchor points moved (coordinate descent, steps of ½, ¼ and ⅛ module) to fit the fixed patterns. */
export function refine(g: Uint8Array, w: number, h: number, grid: Grid): Grid {
  const { n, src, module } = grid, fx = fixedList(n);
  const H = homographyFrom(src);
  let cur = grid.dst.map((p) => [...p] as Pt), best = grid.fit, bestH = grid.H;
  for (let step = module * 0.5; step >= module * 0.12; step /= 2) {
    for (let pass = 0, moved = true; moved && pass < 4; pass++) {
      moved = false;
      for (let p = 0; p < 4; p++) for (let c = 0; c < 2; c++) for (const sgn of [1, -1]) {
        const next = cur.map((q) => [...q] as Pt);
        next[p]![c]! += sgn * step;
        const Hn = H(next);
        if (!Hn) continue;
        const f = fitness(g, w, h, Hn, fx);
        if (f > best) { best = f; cur = next; bestH = Hn; moved = true; }
      }
    }
  }
  return { ...grid, dst: cur, H: bestH, fit: best };
}

/** The best alignment-pattern centre within ±radius modules of `near` (5×5: dark ring, light ring, dark centre). */
function findAlignment(g: Uint8Array, w: number, h: number, near: Pt, ex: Pt, ey: Pt, radius: number): Pt | undefined {
  // whole-module steps over the window, then half-module steps around the best
  let best = alignScore(g, w, h, near, ex, ey, 0, 0), ba = 0, bb = 0;
  for (let b = -Math.round(radius); b <= radius; b++) for (let a = -Math.round(radius); a <= radius; a++) {
    const s = alignScore(g, w, h, near, ex, ey, a, b);
    if (s > best) { best = s; ba = a; bb = b; }
  }
  const a0 = ba, b0 = bb;
  for (const db of [-0.5, 0, 0.5]) for (const da of [-0.5, 0, 0.5]) {
    const s = alignScore(g, w, h, near, ex, ey, a0 + da, b0 + db);
    if (s > best) { best = s; ba = a0 + da; bb = b0 + db; }
  }
  return best > 8 ? [near[0] + ba * ex[0] + bb * ey[0], near[1] + ba * ex[1] + bb * ey[1]] : undefined;
}

/** Contrast of an alignment pattern (5×5: dark ring, light ring, dark centre) at `near` + (a, b) modules,
 * discounted by the distance from the prediction (a near match beats a far one); -Infinity outside the image. */
function alignScore(g: Uint8Array, w: number, h: number, near: Pt, ex: Pt, ey: Pt, a: number, b: number): number {
  const cx = near[0] + a * ex[0] + b * ey[0], cy = near[1] + a * ex[1] + b * ey[1];
  if (cx < 0 || cy < 0 || cx >= w || cy >= h) return -Infinity;
  let dark = 0, light = 0;
  for (let j = -2; j <= 2; j++) for (let i = -2; i <= 2; i++) {
    const val = at(g, w, h, cx + i * ex[0] + j * ey[0], cy + i * ex[1] + j * ey[1]);
    if (Math.max(Math.abs(i), Math.abs(j)) === 1) light += val; else dark += val;
  }
  return (light / 8 - dark / 17) / (1 + 0.02 * (a * a + b * b));
}

/** Sampled module values (n × n): the mean of five points around each module's centre. */
export function sampleModules(g: Uint8Array, w: number, h: number, H: Mat3, n: number): Float32Array {
  return sampleGrid(g, w, h, n, (u, v) => applyH(H, u, v));
}

/** Sampled module values (n × n) through any grid map (module coordinates → image point): the mean of five points
 *  around each module's centre (the flat grid above, the bent grid of qr-bend.ts). */
export function sampleGrid(g: Uint8Array, w: number, h: number, n: number, map: (u: number, v: number) => readonly [number, number]): Float32Array {
  const s = new Float32Array(n * n);
  const o = 0.12;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let acc = 0;
    for (const [du, dv] of [[0, 0], [-o, 0], [o, 0], [0, -o], [0, o]] as const) {
      const [x, y] = map(j + 0.5 + du, i + 0.5 + dv);
      acc += at(g, w, h, x, y);
    }
    s[i * n + j] = acc / 5;
  }
  return s;
}

/**
 * Dark modules: each sample against the mean of the modules within `r` around it; `sharpen` first subtracts that
 * share of the four neighbours' difference (undoes blur that spills one module into the next).
 */
export function threshold(s: Float32Array, n: number, r: number, sharpen: number): Uint8Array {
  return thresholdMargin(s, n, r, sharpen).dark;
}

/** threshold()'s dark modules and each module's margin: |value − local mean| (small: undecided, an erasure
 *  candidate for lib/qr-erasure.ts). */
export function thresholdMargin(s: Float32Array, n: number, r: number, sharpen: number): { dark: Uint8Array; margin: Float32Array } {
  let t = s;
  if (sharpen > 0) {
    t = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const c = s[i * n + j]!;
      const nb = (s[Math.max(0, i - 1) * n + j]! + s[Math.min(n - 1, i + 1) * n + j]! + s[i * n + Math.max(0, j - 1)]! + s[i * n + Math.min(n - 1, j + 1)]!) / 4;
      t[i * n + j] = c + sharpen * (c - nb);
    }
  }
  const dark = new Uint8Array(n * n), margin = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let acc = 0, cnt = 0;
    for (let y = Math.max(0, i - r); y <= Math.min(n - 1, i + r); y++) for (let x = Math.max(0, j - r); x <= Math.min(n - 1, j + r); x++) { acc += t[y * n + x]!; cnt++; }
    dark[i * n + j] = t[i * n + j]! < acc / cnt ? 1 : 0;
    margin[i * n + j] = Math.abs(t[i * n + j]! - acc / cnt);
  }
  return { dark, margin };
}

/** The fixed patterns of an n-module code (finders with separators, timing rows): 1 dark, 0 light, -1 data. */
export function fixedModule(n: number, i: number, j: number): number {
  for (const [fi, fj] of [[0, 0], [0, n - 7], [n - 7, 0]] as const) {
    const di = i - fi, dj = j - fj;
    if (di >= -1 && di <= 7 && dj >= -1 && dj <= 7) {
      if (di < 0 || di > 6 || dj < 0 || dj > 6) return 0;
      const r = Math.max(Math.abs(di - 3), Math.abs(dj - 3));
      return r === 2 ? 0 : 1;
    }
  }
  if (i === 6 && j >= 8 && j < n - 8) return j % 2 === 0 ? 1 : 0;
  if (j === 6 && i >= 8 && i < n - 8) return i % 2 === 0 ? 1 : 0;
  return -1;
}

/** The code redrawn from its dark modules, the fixed patterns as the standard draws them. */
export function render(dark: Uint8Array, n: number, H: Mat3): GridCode {
  const side = (n + 2 * QUIET) * PX;
  const data = new Uint8Array(side * side).fill(255);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const f = fixedModule(n, i, j);
    if (f === 0 || (f === -1 && !dark[i * n + j])) continue;
    for (let y = 0; y < PX; y++) data.fill(0, ((QUIET + i) * PX + y) * side + (QUIET + j) * PX, ((QUIET + i) * PX + y) * side + (QUIET + j + 1) * PX);
  }
  return { data, width: side, height: side, toSource: (x, y) => applyH(H, x / PX - QUIET, y / PX - QUIET) };
}

/** Unsharp mask against a (2r+1)² box mean, amount a (on a copy). */
export function unsharpBox(d: Uint8Array, w: number, h: number, r: number, a: number): Uint8Array {
  const W = w + 1, S = new Int32Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let rs = 0;
    for (let x = 0; x < w; x++) { rs += d[y * w + x]!; S[(y + 1) * W + x + 1] = S[y * W + x + 1]! + rs; }
  }
  const out = new Uint8Array(d.length);
  for (let y = 0; y < h; y++) {
    const ya = y > r ? y - r : 0, yb = y + r + 1 < h ? y + r + 1 : h;
    for (let x = 0; x < w; x++) {
      const xa = x > r ? x - r : 0, xb = x + r + 1 < w ? x + r + 1 : w;
      const m = (S[yb * W + xb]! - S[ya * W + xb]! - S[yb * W + xa]! + S[ya * W + xa]!) / ((yb - ya) * (xb - xa));
      const v = (1 + a) * d[y * w + x]! - a * m;
      out[y * w + x] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  }
  return out;
}

/** The (2r+1)² box mean (on a copy). */
export const boxMean = (d: Uint8Array, w: number, h: number, r: number): Uint8Array => unsharpBox(d, w, h, r, -1);

/** The image divided by its (2r+1)² box mean, scaled to a mean of 128: evens out shadows and light gradients. */
export function flatten(d: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const b = boxMean(d, w, h, r), out = new Uint8Array(d.length);
  for (let i = 0; i < d.length; i++) { const v = (d[i]! * 128) / (b[i]! > 8 ? b[i]! : 8); out[i] = v > 255 ? 255 : Math.round(v); }
  return out;
}

/** Bilinear upscale by an integer factor (finder search on tiny frames). */
export function upscale(d: Uint8Array, w: number, h: number, k: number): Uint8Array {
  const W = w * k, out = new Uint8Array(W * h * k);
  for (let y = 0; y < h * k; y++) for (let x = 0; x < W; x++) out[y * W + x] = Math.round(at(d, w, h, (x + 0.5) / k, (y + 0.5) / k));
  return out;
}
