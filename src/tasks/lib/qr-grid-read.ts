// Reading a code off its module grid (lib/qr-grid.ts) for every plausible finder triple of an image: finders are
// searched on the image as it is, a sharpened, a flattened and a smoothed copy (PASSES), tiny frames upscaled
// first; triples may be oblique (strong perspective); for each triple the nearest versions are fitted (square-on
// first, then every corner with a wide search for the fourth anchor), sampled and thresholded with three strengths
// of the module-level sharpening (heavy blur spills each module into its neighbours), then the best version's grid
// bent to follow bowed paper (lib/qr-bend.ts) and read the same way, then once more corrected with its least
// certain modules as Reed–Solomon erasures (lib/qr-erasure.ts); each redrawn code read by zxing as a pure code
// (cheap: no detector). The caller's reader decides what counts as a decode.
import { darkView, findFinders, scoredTriples, type TripleTolerance } from './qr-locate.js';
import { fitBent, sampleBent } from './qr-bend.js';
import { threadCpuMs } from './thread-cpu.js';
import { finderError } from './qr-finder-quality.js';
import { boxMean, corners, flatten, gridFor, widen, refine, render, sampleModules, thresholdMargin, unsharpBox, upscale, versionsFor, type Grid, type GridCode, type GridFinder } from './qr-grid.js';
import { correctSymbol } from './qr-erasure.js';
import type { Mat3 } from './geometry.js';

/** A sampled grid's redrawn codes: thresholded with each SHARPEN strength, then the ERASE_AT one corrected with its
 *  least certain modules as erasures (lib/qr-erasure.ts: a logo over an H code, a glare spot), when it corrects. */
function* readSamples(smp: Float32Array, n: number, H: Mat3): Generator<GridCode> {
  const ts = SHARPEN.map((sh) => thresholdMargin(smp, n, WINDOW, sh));
  for (const t of ts) yield render(t.dark, n, H);
  const t = ts[ERASE_AT]!, fixed = correctSymbol(t.dark, t.margin, n);
  if (fixed) yield render(fixed, n, H);
}
/** The thresholding corrected with erasures (one: each correction that fails costs 0.5–1.5 ms): the middle
 *  strength; tuning logo, cylinder, camera, shadow-glare 5200..5223 read 77 / 78 / 77 with all three, the middle
 *  one, the weakest (main 66). */
const ERASE_AT = 1;

export interface GridImage { data: Uint8Array; width: number; height: number }
/** module-level sharpening tried per fitted grid, weakest first */
const SHARPEN = [0.6, 2.5, 5];
/** triples per finder search and versions per triple */
const MAX_TRIPLES = 3, MAX_VERSIONS = 2;
/** threshold window: the mean of the modules within this many modules (wide enough to balance heavy blur) */
const WINDOW = 4;
/** frames with a shorter side are upscaled for the finder search (finders of 1–2 px modules are lost otherwise) */
const UPSCALE_BELOW = 200;

/**
 * The images the finders are searched on, in order: as it is; sharpened (blur smears the finders' inner light
 * ring); flattened (divided by a wide box mean: a shadow edge or a light gradient across the code breaks the
 * local threshold's runs) and sharpened; smoothed 3×3 (sensor noise on low-contrast codes breaks the runs).
 */
export const PASSES: ((d: Uint8Array, w: number, h: number) => Uint8Array)[] = [
  (d) => d,
  (d, w, h) => unsharpBox(d, w, h, 3, 3),
  (d, w, h) => unsharpBox(flatten(d, w, h, Math.round(Math.min(w, h) / 8)), w, h, 3, 3),
  (d, w, h) => boxMean(d, w, h, 1),
];
/** Finder triples under strong perspective: one finder may look up to 3× the size of another, and the triangle
 * stray far from a right isosceles one (the fitted grid decides which triple is a code). */
const OBLIQUE: TripleTolerance = { sides: 0.7, hypotenuse: 0.4, module: 3 };
/** Finder candidates scored in 16 directions (lib/qr-finder-quality.ts) before triples are formed: those above
 * `max` dropped (tuning seeds 5100..5123: 95–100 % of the true finders of camera, shadow-glare and combined
 * frames are below 0.35, half the texture is above), the rest's error × `weight` added to each triple's shape
 * error (the true triple ranked by shape alone was outside the top three of every pass on 10 of 24 camera
 * frames). With `pool` a pass's triples with an error ≤ `sure` are read at once and the rest after every pass of
 * the group, best first (true triples on the tuning seeds: median error 0.7–1.15, texture triples' 10th percentile 1.0–1.3). */
export const FINDER_SCORE = { max: 0.35, weight: 2, pool: true, sure: 0.9 };

/**
 * Finder triples of the image: those found on each of `passes`' images, best first (shape and finder errors) over
 * all the passes when `FINDER_SCORE.pool` (the true triple is often best on the sharpened image and beaten by
 * texture on the plain one, whose triples were read first), else pass by pass, lazily; the same triple found
 * twice, also across calls sharing `seen`, is yielded once; no pass is started after `deadline` (ms of this
 * thread's CPU time, lib/thread-cpu.ts: the same work is done on a loaded machine as on an idle one).
 */
export function* gridTriples(g: GridImage, passes = PASSES, deadline = Infinity, seen: GridFinder[][] = []): Generator<GridFinder[]> {
  const { width: w, height: h } = g;
  const k = Math.min(3, Math.max(1, Math.ceil(UPSCALE_BELOW / Math.min(w, h))));
  let big: Uint8Array | undefined;
  const bw = w * k, bh = h * k, pooled: { g: GridFinder[]; err: number }[] = [];
  const fresh = function* (ts: { g: GridFinder[] }[]): Generator<GridFinder[]> {
    for (const t of ts) {
      const s = t.g.map((f) => ({ x: f.x / k, y: f.y / k, module: f.module / k }));
      if (seen.some((o) => o.every((f, i) => Math.hypot(f.x - s[i]!.x, f.y - s[i]!.y) < 1.5 * f.module))) continue;
      seen.push(s);
      yield s;
    }
  };
  for (const prepare of passes) {
    if (threadCpuMs() > deadline) break;
    big ??= k > 1 ? upscale(g.data, w, h, k) : g.data;
    const ts = passTriples(prepare(big, bw, bh), bw, bh);
    // a triple this good is read at once (no later pass is likely to beat it); the rest wait for the pool
    const sure = FINDER_SCORE.pool ? ts.filter((t) => t.err <= FINDER_SCORE.sure) : ts;
    yield* fresh(sure);
    if (FINDER_SCORE.pool) pooled.push(...ts.filter((t) => t.err > FINDER_SCORE.sure));
  }
  yield* fresh(pooled.sort((a, b) => a.err - b.err));
}

/** The best MAX_TRIPLES finder triples of one prepared image, candidates scored (FINDER_SCORE) first. */
function passTriples(src: Uint8Array, w: number, h: number): { g: GridFinder[]; err: number }[] {
  const view = darkView(src, w, h), found = findFinders(view);
  const scored = FINDER_SCORE.weight > 0 || FINDER_SCORE.max < 1
    ? found.map((f) => ({ ...f, err: finderError(view, f.x, f.y, f.module) })).filter((f) => f.err <= FINDER_SCORE.max).map((f) => ({ ...f, err: f.err * FINDER_SCORE.weight }))
    : found;
  return scoredTriples(scored, MAX_TRIPLES, OBLIQUE);
}

/**
 * The redrawn codes of the image, best guesses first (lazily: the caller stops at the first that reads). The
 * triples of the plain and sharpened images first, then those of the flattened and smoothed ones (or the
 * caller's triples); within each group every triple is read as seen square-on (the corner opposite the longest
 * side, the grid from the three finders and the alignment pattern near where they put it: cheap), then — for
 * codes seen obliquely — with every corner choice and the fourth anchor searched widely before the ranking (the
 * affine grid misranks them). Nothing new is started after `deadline` (threadCpuMs()).
 */
export function* gridCodes(g: GridImage, ts?: Iterable<GridFinder[]>, deadline = Infinity): Generator<GridCode> {
  const { data, width: w, height: h } = g, done: Grid[] = [], seen: GridFinder[][] = [];
  const read = function* (grids: Grid[]): Generator<GridCode> {
    for (const [rank, grid0] of grids.sort((a, b) => b.fit - a.fit).slice(0, MAX_VERSIONS).entries()) {
      const { n, H, src, dst } = refine(data, w, h, grid0);
      if (done.some((o) => o.n === n && Math.hypot(o.H[2]! - H[2]!, o.H[5]! - H[5]!) < grid0.module)) continue;
      done.push({ ...grid0, H });
      yield* readSamples(sampleModules(data, w, h, H, n), n, H);
      // bent paper: the best-fitting version's grid bent to follow the modules (lib/qr-bend.ts: ≈ 5–10 ms, more
      // than the flat fit), sampled and read again
      if (rank > 0) continue;
      yield* readSamples(sampleBent(data, w, h, fitBent(data, w, h, n, src, dst, grid0.module)), n, H);
    }
  };
  const groups = ts ? [ts] : [gridTriples(g, PASSES.slice(0, 2), deadline, seen), gridTriples(g, PASSES.slice(2), deadline, seen)];
  for (const group of groups) {
    const later: GridFinder[][] = [];
    for (const t of group) {
      later.push(t);
      yield* read(versionsFor(t).map((v) => gridFor(data, w, h, t, v)));
    }
    for (const t of later) {
      if (threadCpuMs() > deadline) return;
      yield* read(corners(t).flatMap((c) => versionsFor(t, c).map((v) => widen(data, w, h, gridFor(data, w, h, t, v, c)))));
    }
  }
}
