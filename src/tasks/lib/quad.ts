// Candidate quadrilaterals for a card outline from the convex hull of its edge pixels (tasks/perspective.ts scores
// them): the largest-area quad on the hull, and the quad of the hull's four longest sides after simplification
// (a card whose corners are rounded or cut off by the frame still has its four long sides).
import { intersect, dist, cross, type Pt } from './geometry.js';

/** Largest-area quadrilateral with vertices on the hull (O(n^3) over diagonals). */
export function maxQuad(hull: Pt[]): Pt[] | undefined {
  const n = hull.length;
  if (n < 4) return undefined;
  let best = -1;
  let q: Pt[] | undefined;
  const tri = (a: Pt, b: Pt, c: Pt): number => Math.abs(cross(a, b, c)) / 2;
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      let b1 = -1, k1 = -1;
      for (let k = i + 1; k < j; k++) {
        const a = tri(hull[i]!, hull[j]!, hull[k]!);
        if (a > b1) { b1 = a; k1 = k; }
      }
      let b2 = -1, k2 = -1;
      for (let k = j + 1; k < n + i; k++) {
        const a = tri(hull[i]!, hull[j]!, hull[k % n]!);
        if (a > b2) { b2 = a; k2 = k % n; }
      }
      if (k1 < 0 || k2 < 0) continue;
      if (b1 + b2 > best) {
        best = b1 + b2;
        q = [hull[i]!, hull[k1]!, hull[j]!, hull[k2]!];
      }
    }
  }
  return q;
}

/** Douglas–Peucker simplification of a closed polygon. */
function simplifyClosed(poly: Pt[], eps: number): Pt[] {
  if (poly.length <= 4) return poly;
  // split at the two farthest-apart vertices
  let a = 0, b = 0, far = -1;
  for (let i = 0; i < poly.length; i++) for (let j = i + 1; j < poly.length; j++) {
    const d = dist(poly[i]!, poly[j]!);
    if (d > far) { far = d; a = i; b = j; }
  }
  const dp = (pts: Pt[]): Pt[] => {
    if (pts.length <= 2) return pts;
    const p0 = pts[0]!, p1 = pts[pts.length - 1]!;
    const L = Math.max(1e-9, dist(p0, p1));
    let idx = -1, dmax = -1;
    for (let i = 1; i < pts.length - 1; i++) {
      const d = Math.abs(cross(p0, p1, pts[i]!)) / L;
      if (d > dmax) { dmax = d; idx = i; }
    }
    if (dmax <= eps) return [p0, p1];
    const left = dp(pts.slice(0, idx + 1)), right = dp(pts.slice(idx));
    return left.slice(0, -1).concat(right);
  };
  const first = dp(poly.slice(a, b + 1));
  const second = dp(poly.slice(b).concat(poly.slice(0, a + 1)));
  return first.slice(0, -1).concat(second.slice(0, -1));
}

/**
 * Quad from the four longest edges of the simplified hull, extended to meet: recovers a corner that is cut off
 * (low contrast at one corner makes the outline a pentagon: four sides plus a short diagonal).
 */
export function longestEdgesQuad(hull: Pt[]): Pt[] | undefined {
  let per = 0;
  for (let i = 0; i < hull.length; i++) per += dist(hull[i]!, hull[(i + 1) % hull.length]!);
  const poly = simplifyClosed(hull, per * 0.012);
  if (poly.length < 5) return undefined;
  const edges = poly.map((p, i) => ({ i, a: p, b: poly[(i + 1) % poly.length]!, len: dist(p, poly[(i + 1) % poly.length]!) }));
  const top = [...edges].sort((x, y) => y.len - x.len).slice(0, 4).sort((x, y) => x.i - y.i);
  const out: Pt[] = [];
  for (let k = 0; k < 4; k++) {
    const e1 = top[(k + 3) % 4]!, e2 = top[k]!;
    const l1 = { p: e1.a, d: [(e1.b[0] - e1.a[0]) / e1.len, (e1.b[1] - e1.a[1]) / e1.len] as Pt };
    const l2 = { p: e2.a, d: [(e2.b[0] - e2.a[0]) / e2.len, (e2.b[1] - e2.a[1]) / e2.len] as Pt };
    const x = intersect(l1, l2);
    if (!x) return undefined;
    out.push(x);
  }
  return out;
}
