// Candidate QR regions in a larger scene: finder patterns (dark-light-dark-light-dark runs in the ratio
// 1:1:3:1:1) found on rows of a locally thresholded image, confirmed on the column through their centre,
// merged into finders, and finders of similar module size at QR-like distances grouped into codes. Used by
// qr-recognize when the full frame does not decode: each region is cropped, upscaled and read again.
export interface Finder {
  x: number; y: number; module: number; hits: number;
  /** how far the candidate is from a finder pattern in every direction (lib/qr-finder-quality.ts; 0 = perfect),
   * added to a triple's shape error when set */
  err?: number;
}
export interface QrRegion {
  /** square crop in the input's pixels (clipped to the image) */
  x: number; y: number; width: number; height: number;
  /** estimated module size in pixels */
  module: number;
  finders: number;
  /** the finder patterns the region was made from (input pixels) */
  group: Finder[];
}

/**
 * Dark/light by a local threshold without a binarised copy of the image: the image is summed in blocks of B px,
 * and a pixel is dark when it is below the mean of the (2R+1)² blocks around its block (window ≈ 1/12 of the
 * short side, as a sliding window would be) by a small margin. One pass over the pixels; the scan then compares
 * each pixel it visits with its block's threshold.
 */
export interface DarkView { grey: Uint8Array; w: number; h: number; thr: Int16Array; bw: number; shift: number }

export function darkView(grey: Uint8Array, w: number, h: number): DarkView {
  const shift = 3, B = 1 << shift;
  const bw = (w + B - 1) >> shift, bh = (h + B - 1) >> shift;
  // block sums: B rows added column by column (sequential), then each block's B columns
  const sum = new Float64Array(bw * bh), cnt = new Float64Array(bw * bh), col = new Int32Array(w);
  for (let by = 0; by < bh; by++) {
    col.fill(0);
    const y0 = by << shift, y1 = y0 + B < h ? y0 + B : h;
    for (let y = y0; y < y1; y++) {
      const row = y * w;
      for (let x = 0; x < w; x++) col[x]! += grey[row + x]!;
    }
    const o = by * bw;
    for (let x = 0; x < w; x++) sum[o + (x >> shift)]! += col[x]!;
    for (let bx = 0; bx < bw; bx++) cnt[o + bx] = (Math.min(w, (bx + 1) << shift) - (bx << shift)) * (y1 - y0);
  }
  // window of blocks: integral over the block grid (small), then mean - 3 per block
  const R = Math.max(1, Math.round(Math.max(8, Math.round(Math.min(w, h) / 24)) / B));
  const W = bw + 1, S = new Float64Array(W * (bh + 1)), N = new Float64Array(W * (bh + 1));
  for (let y = 0; y < bh; y++) {
    let rs = 0, rn = 0;
    for (let x = 0; x < bw; x++) {
      rs += sum[y * bw + x]!; rn += cnt[y * bw + x]!;
      S[(y + 1) * W + x + 1] = S[y * W + x + 1]! + rs; N[(y + 1) * W + x + 1] = N[y * W + x + 1]! + rn;
    }
  }
  const thr = new Int16Array(bw * bh);
  for (let y = 0; y < bh; y++) {
    const ya = y > R ? y - R : 0, yb = y + R + 1 < bh ? y + R + 1 : bh;
    for (let x = 0; x < bw; x++) {
      const xa = x > R ? x - R : 0, xb = x + R + 1 < bw ? x + R + 1 : bw;
      const s = S[yb * W + xb]! - S[ya * W + xb]! - S[yb * W + xa]! + S[ya * W + xa]!;
      const n = N[yb * W + xb]! - N[ya * W + xb]! - N[yb * W + xa]! + N[ya * W + xa]!;
      // dark: grey < mean - 3, i.e. grey <= ceil(mean - 3) - 1; stored as the first light value
      thr[y * bw + x] = Math.ceil(s / n - 3);
    }
  }
  return { grey, w, h, thr, bw, shift };
}

/** 1 = dark, 0 = light, -1 outside (x, y integers). */
export function darkAt(v: DarkView, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= v.w || y >= v.h) return -1;
  return v.grey[y * v.w + x]! < v.thr[(y >> v.shift) * v.bw + (x >> v.shift)]! ? 1 : 0;
}

/** The whole dark/light image (tests and inspection; the scan itself never builds it). */
export function binarise(grey: Uint8Array, w: number, h: number): Uint8Array {
  const v = darkView(grey, w, h), out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = darkAt(v, x, y);
  return out;
}

/** Five runs (dark, light, dark, light, dark) in the ratio 1:1:3:1:1 within tolerance; the module size or 0. */
function ratioOk(r: number[]): number {
  const total = r[0]! + r[1]! + r[2]! + r[3]! + r[4]!;
  if (total < 7) return 0;
  const m = total / 7, tol = m * 0.7;
  if (Math.abs(r[0]! - m) > tol || Math.abs(r[1]! - m) > tol || Math.abs(r[3]! - m) > tol || Math.abs(r[4]! - m) > tol) return 0;
  if (Math.abs(r[2]! - 3 * m) > 1.6 * m) return 0;
  // the centre is the widest run: even stripes (1:1:1:1:1, within the tolerances above) are not finders
  if (r[2]! <= r[1]! || r[2]! <= r[3]! || r[2]! < r[0]! || r[2]! < r[4]!) return 0;
  return m;
}

/**
 * The three runs (dark, light, dark) from (x, y) along (dx, dy), into out[at..at+2]; false when a run exceeds
 * maxRun or the image ends before the third run has begun.
 */
function sideRuns(v: DarkView, x: number, y: number, dx: number, dy: number, maxRun: number, out: Int32Array, at: number): boolean {
  out[at] = 0; out[at + 1] = 0; out[at + 2] = 0;
  let k = 0, want = 1;
  while (k < 3) {
    const c = darkAt(v, x, y);
    if (c === -1) return k === 2 && out[at + 2]! > 0;
    if (c === want) { if (++out[at + k]! > maxRun) return false; x += dx; y += dy; }
    else { k++; want = 1 - want; }
  }
  return true;
}

const fwd = new Int32Array(3), back = new Int32Array(3), cross = [0, 0, 0, 0, 0];
/**
 * Runs along a line through (x, y) with step (dx, dy): the centre dark run plus two runs each way, into `cross`;
 * answers the offset of the centre run's middle along the line, or NaN.
 */
function crossRuns(v: DarkView, x: number, y: number, dx: number, dy: number, maxRun: number): number {
  if (darkAt(v, x, y) !== 1) return NaN;
  if (!sideRuns(v, x, y, dx, dy, maxRun, fwd, 0) || !sideRuns(v, x, y, -dx, -dy, maxRun, back, 0)) return NaN;
  // the centre run is counted from 0 in both directions
  cross[0] = back[2]!; cross[1] = back[1]!; cross[2] = back[0]! + fwd[0]! - 1; cross[3] = fwd[1]!; cross[4] = fwd[2]!;
  return (fwd[0]! - back[0]!) / 2;
}

/** Finder pattern centres: row scan, column and diagonal confirmation, merged by distance. */
export function findFinders(v: DarkView, rowStep = 1): Finder[] {
  const { grey, w, h, thr, bw, shift } = v;
  const raw: Finder[] = [];
  const runs = [0, 0, 0, 0, 0];
  for (let y = 0; y < h; y += rowStep) {
    const row = y * w, trow = (y >> shift) * bw;
    let r0 = 0, r1 = 0, r2 = 0, r3 = 0, n = 0, x = 0;
    while (x < w) {
      // one run: a tight loop to its end
      const cur = grey[row + x]! < thr[trow + (x >> shift)]! ? 1 : 0, start = x;
      x++;
      if (cur === 1) while (x < w && grey[row + x]! < thr[trow + (x >> shift)]!) x++;
      else while (x < w && grey[row + x]! >= thr[trow + (x >> shift)]!) x++;
      const len = x - start;
      // a run of colour cur ended at x - 1; the last five runs are r0..r3, len
      if (cur === 1 && n >= 4) {
        runs[0] = r0; runs[1] = r1; runs[2] = r2; runs[3] = r3; runs[4] = len;
        const m = ratioOk(runs);
        if (m > 0) {
          const cx = Math.round(x - len - r3 - r2 / 2);
          const maxRun = Math.ceil(m * 6);
          const colShift = crossRuns(v, cx, y, 0, 1, maxRun);
          const mv = Number.isNaN(colShift) ? 0 : ratioOk(cross);
          if (mv > 0 && mv < m * 2.2 && m < mv * 2.2) {
            const cy = Math.round(y + colShift);
            if (!Number.isNaN(crossRuns(v, cx, cy, 1, 1, maxRun)) && ratioOk(cross) > 0) raw.push({ x: cx, y: cy, module: (m + mv) / 2, hits: 1 });
          }
        }
      }
      r0 = r1; r1 = r2; r2 = r3; r3 = len; n++;
    }
  }
  // merge hits of the same finder
  const out: Finder[] = [];
  for (const p of raw) {
    const f = out.find((q) => Math.abs(q.x / q.hits - p.x) < 2.5 * p.module && Math.abs(q.y / q.hits - p.y) < 3.5 * p.module);
    if (f) { f.x += p.x; f.y += p.y; f.module += p.module; f.hits++; } else out.push({ ...p });
  }
  return out.map((f) => ({ x: f.x / f.hits, y: f.y / f.hits, module: f.module / f.hits, hits: f.hits }));
}

/**
 * Regions likely to hold a QR code: finders grouped when their module sizes agree (ratio ≤ 2) and their distance
 * is 10–180 modules (versions 1–40); groups of three first, then pairs, then strong single finders.
 */
export function qrRegions(grey: Uint8Array, w: number, h: number, max = 3): QrRegion[] {
  // every second row on large frames: a finder's centre run spans ≥ 3 rows even at 1 px modules
  const all = findFinders(darkView(grey, w, h), w * h > 1_000_000 ? 2 : 1);
  if (all.length === 0) return [];
  const finders = all.filter((f) => f.hits >= 2);
  const n = finders.length;
  const parent = finders.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const near = (a: Finder, c: Finder): boolean => {
    const ratio = a.module / c.module;
    if (ratio > 2 || ratio < 0.5) return false;
    const d = Math.hypot(a.x - c.x, a.y - c.y) / ((a.module + c.module) / 2);
    return d >= 10 && d <= 185;
  };
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (near(finders[i]!, finders[j]!)) parent[find(i)] = find(j);
  const groups = new Map<number, Finder[]>();
  finders.forEach((f, i) => { const r = find(i); groups.set(r, [...(groups.get(r) ?? []), f]); });
  const ranked = [
    // three finders in a right isosceles triangle (any hit count) first: specific even among textures
    ...triples(all).map((g) => ({ g, score: 1e6 + g.reduce((s, f) => s + f.hits, 0) })),
    ...[...groups.values()].filter((g) => g.length <= 6).map((g) => ({ g, score: Math.min(g.length, 3) * 1000 + g.reduce((s, f) => s + f.hits, 0) })),
  ].sort((a, c) => c.score - a.score);
  const out: QrRegion[] = [];
  for (const { g } of ranked) {
    if (out.length >= max) break;
    // skip a region that mostly repeats one already taken
    if (out.some((o) => Math.abs(o.x + o.width / 2 - cxOf(g)) < o.width / 4 && Math.abs(o.y + o.height / 2 - cyOf(g)) < o.height / 4)) continue;
    const m = g.reduce((s, f) => s + f.module, 0) / g.length;
    const cx = g.reduce((s, f) => s + f.x, 0) / g.length, cy = g.reduce((s, f) => s + f.y, 0) / g.length;
    let dmax = 0;
    for (const a of g) for (const c of g) dmax = Math.max(dmax, Math.hypot(a.x - c.x, a.y - c.y));
    // a single finder: the code may extend up to ~40 modules (version 5) on either side
    const half = g.length === 1 ? 40 * m : dmax * 1.1 + 8 * m;
    const x0 = Math.max(0, Math.floor(cx - half)), y0 = Math.max(0, Math.floor(cy - half));
    const x1 = Math.min(w, Math.ceil(cx + half)), y1 = Math.min(h, Math.ceil(cy + half));
    if (x1 - x0 < 21 || y1 - y0 < 21) continue;
    out.push({ x: x0, y: y0, width: x1 - x0, height: y1 - y0, module: m, finders: g.length, group: g });
  }
  return out;
}

const cxOf = (g: Finder[]): number => g.reduce((s, f) => s + f.x, 0) / g.length;
const cyOf = (g: Finder[]): number => g.reduce((s, f) => s + f.y, 0) / g.length;

/** How far a triple may stray from a right isosceles triangle: the two sides' difference and the third side's
 * error, as shares; the largest ratio of two finders' module sizes. */
export interface TripleTolerance { sides: number; hypotenuse: number; module: number }
/** a code seen nearly square-on (the scene locator: specific among textures) */
export const SQUARE_ON: TripleTolerance = { sides: 0.25, hypotenuse: 0.2, module: 1.6 };

/**
 * Triples of finders shaped like a QR code's: similar module sizes (ratio ≤ 1.6), two sides equal within 25 % and
 * the third √2 times as long within 20 %, the sides 10–185 modules. Best fitting first (shape error plus the
 * finders' own `err` when set).
 */
export function triples(f: Finder[], max = 8, tol: TripleTolerance = SQUARE_ON): Finder[][] {
  return scoredTriples(f, max, tol).map((t) => t.g);
}

/** triples() with each triple's error (shape plus the finders' own). */
export function scoredTriples(f: Finder[], max = 8, tol: TripleTolerance = SQUARE_ON): { g: Finder[]; err: number }[] {
  const out: { g: Finder[]; err: number; key: string }[] = [];
  const n = Math.min(f.length, 400);
  const sim = (a: Finder, c: Finder): boolean => a.module / c.module < tol.module && c.module / a.module < tol.module;
  const dist = (a: Finder, c: Finder): number => Math.hypot(a.x - c.x, a.y - c.y);
  for (let i = 0; i < n; i++) {
    const A = f[i]!; // the corner finder (top-left of the code)
    for (let j = 0; j < n; j++) {
      if (j === i || !sim(A, f[j]!)) continue;
      const dj = dist(A, f[j]!) / A.module;
      if (dj < 10 || dj > 185) continue;
      for (let k = j + 1; k < n; k++) {
        if (k === i || !sim(A, f[k]!) || !sim(f[j]!, f[k]!)) continue;
        const dk = dist(A, f[k]!) / A.module;
        if (Math.abs(dk - dj) > tol.sides * dj) continue;
        const hyp = dist(f[j]!, f[k]!) / A.module, want = Math.SQRT2 * (dj + dk) / 2;
        if (Math.abs(hyp - want) > tol.hypotenuse * want) continue;
        const quality = (A.err ?? 0) + (f[j]!.err ?? 0) + (f[k]!.err ?? 0);
        out.push({ g: [A, f[j]!, f[k]!], err: Math.abs(dk - dj) / dj + Math.abs(hyp - want) / want + quality, key: [i, j, k].sort((a, b) => a - b).join() });
      }
    }
  }
  // the same three finders can pass with two of them as the corner (loose tolerances): the best reading only
  const seen = new Set<string>();
  return out.sort((a, c) => a.err - c.err).filter((t) => !seen.has(t.key) && !!seen.add(t.key)).slice(0, max);
}
