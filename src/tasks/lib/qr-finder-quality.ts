// How much a finder candidate looks like a QR finder pattern in every direction, not only along the row, column and
// diagonal it was found on (session 16). The finder is three concentric squares (7, 5 and 3 modules), so any ray
// from its centre crosses the dark→light, light→dark and dark→light edges at distances in the ratio
// 1.5 : 2.5 : 3.5 whatever the code's rotation (the scale changes with the direction, the ratio does not), and the
// separator keeps the next dark edge beyond 4.5 (ratio 4.5 / 3.5). Texture (stripes, letters, noise blobs) passes
// the three-line test of qr-locate.ts often on a phone frame (up to 200 candidate triples on the camera tuning
// seeds) but fails on most of 16 rays; the true finders fail on few. Ranking triples by shape alone put the true
// triple outside the top three of every pass on 10 of 24 camera tuning frames. No library scores finder
// candidates this way (zxing's FinderPatternFinder checks the row, column and diagonals with a fixed tolerance and
// keeps no score).
import { darkAt, type DarkView } from './qr-locate.js';

/** rays from the centre */
const RAYS = 16;
const DIRS: [number, number][] = Array.from({ length: RAYS }, (_, k) => [Math.cos((2 * Math.PI * k) / RAYS), Math.sin((2 * Math.PI * k) / RAYS)]);
/** error of a ray that finds no pattern: the most a ray can count */
const MISS = 1;

const dark = (v: DarkView, x: number, y: number): number => darkAt(v, Math.round(x), Math.round(y));

/** One ray's error: the three edges' distances against 1.5 : 2.5 : 3.5, plus a penalty when the next dark edge
 * comes sooner than the separator allows. */
function rayError(v: DarkView, cx: number, cy: number, dx: number, dy: number, maxLen: number): number {
  const edges: number[] = [];
  let want = 0; // the centre is dark: the first edge is to light
  for (let t = 0.5; t <= maxLen && edges.length < 4; t += 0.5) {
    const c = dark(v, cx + t * dx, cy + t * dy);
    if (c === -1) break;
    if (c === want) { edges.push(t); want = 1 - want; }
  }
  if (edges.length < 3) return MISS;
  const [d1, d2, d3] = edges as [number, number, number];
  let e = Math.abs(d1 / d3 - 1.5 / 3.5) + Math.abs(d2 / d3 - 2.5 / 3.5);
  if (edges.length === 4 && edges[3]! / d3 < 1.15) e += 0.3;
  return Math.min(MISS, e);
}

/** Mean ray error of a finder candidate at (x, y) with module size `module` (0 = a perfect finder; texture
 * ≈ 0.3–1). The centre must be dark on the view. */
export function finderError(v: DarkView, x: number, y: number, module: number): number {
  if (dark(v, x, y) !== 1) return MISS;
  const maxLen = module * 7;
  let sum = 0;
  for (const [dx, dy] of DIRS) sum += rayError(v, x, y, dx, dy, maxLen);
  return sum / RAYS;
}
