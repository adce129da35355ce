// Four-point homographies for the QR grid searches (session 17). The grid reader solves thousands of them per
// frame with the same module-space points and moving image points (the fourth-anchor lattice of qr-grid.ts's
// `widen`, the anchor descents of `refine` and qr-bend.ts's `fitBent`): geometry.ts's `homography` builds and
// solves an 8 × 8 system by elimination each time (arrays per call: on the tuning seeds it and the garbage it left
// were a third of the grid reader's CPU). Here the closed form instead (Heckbert 1989: the unit square onto each
// quad, H = Q_dst · Q_src⁻¹), the source side inverted once per search. Written here, not taken from a library:
// it is twenty lines and the packages that do it solve the general (n-point) system.
import { invert3, type Mat3, type Pt } from './geometry.js';

/** The projective map of the unit square's corners (0,0), (1,0), (1,1), (0,1) onto a, b, c, d (row-major 3 × 3),
 * written into `out` (a search reuses one: typed arrays are slow to allocate), or undefined when three of them are
 * collinear. */
function squareTo(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number, out = new Float64Array(9)): Mat3 | undefined {
  const sx = ax - bx + cx - dx, sy = ay - by + cy - dy;
  const dx1 = bx - cx, dx2 = dx - cx, dy1 = by - cy, dy2 = dy - cy;
  const den = dx1 * dy2 - dx2 * dy1;
  if (Math.abs(den) < 1e-12) return undefined;
  const g = (sx * dy2 - dx2 * sy) / den, h = (dx1 * sy - sx * dy1) / den;
  out[0] = bx - ax + g * bx; out[1] = dx - ax + h * dx; out[2] = ax;
  out[3] = by - ay + g * by; out[4] = dy - ay + h * dy; out[5] = ay;
  out[6] = g; out[7] = h; out[8] = 1;
  return out;
}

/**
 * Homographies from the four fixed points `src` (in the grid's anchor order: top-left, top-right, bottom-left,
 * bottom-right, any four points in general position) to four moving points: H · src[i] ~ dst[i], scaled so that
 * H[8] = 1 as geometry.ts's `homography` gives it; undefined when either quad is degenerate.
 */
export function homographyFrom(src: readonly Pt[]): (dst: readonly Pt[]) => Mat3 | undefined {
  const S = squareTo(src[0]![0], src[0]![1], src[1]![0], src[1]![1], src[3]![0], src[3]![1], src[2]![0], src[2]![1]);
  const Si = S && inverseOrNone(S), scratch = new Float64Array(9);
  return (dst) => {
    if (!Si) return undefined;
    const Q = squareTo(dst[0]![0], dst[0]![1], dst[1]![0], dst[1]![1], dst[3]![0], dst[3]![1], dst[2]![0], dst[2]![1], scratch);
    if (!Q) return undefined;
    const H = new Float64Array(9);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) H[r * 3 + c] = Q[r * 3]! * Si[c]! + Q[r * 3 + 1]! * Si[3 + c]! + Q[r * 3 + 2]! * Si[6 + c]!;
    const z = H[8]!;
    if (Math.abs(z) < 1e-12) return undefined;
    for (let k = 0; k < 9; k++) H[k]! /= z;
    return H;
  };
}

/** geometry.ts's inverse, or undefined for a singular matrix (a degenerate source quad: no homography) */
function inverseOrNone(m: Mat3): Mat3 | undefined {
  try {
    return invert3(m);
  } catch {
    return undefined;
  }
}
