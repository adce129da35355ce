// Face regions from the 68 iBUG landmarks (image coordinates): the face outline with a forehead, eyes, brows,
// lips, cheeks and the jaw line, plus the face's own axes (so tilted faces work too).
//
// iBUG-68: 0-16 jaw (0 = image-left), 8 chin; 17-21 / 22-26 brows; 27-30 nose bridge, 31-35 nose base;
// 36-41 / 42-47 eyes; 48-59 outer lips, 60-67 inner lips.
import { centroid, dist, lerp, scaleAbout, type Pt } from './studio-raster.js';

export interface FaceGeom {
  lm: Pt[];
  /** face width: jaw point 0 to jaw point 16 */
  W: number;
  /** face length: nose bridge (27) to chin (8) */
  L: number;
  /** unit vector pointing down the face (27 -> 8) */
  down: Pt;
  /** unit vector pointing to the image-right side of the face (perpendicular to down) */
  right: Pt;
  /** a point on the face's vertical axis (27) */
  axis: Pt;
}

export function faceGeom(lm: Pt[]): FaceGeom {
  if (lm.length !== 68) throw new Error(`expected 68 landmarks, got ${lm.length}`);
  const W = dist(lm[0]!, lm[16]!);
  const L = dist(lm[27]!, lm[8]!);
  const dx = lm[8]![0] - lm[27]![0], dy = lm[8]![1] - lm[27]![1];
  const len = Math.hypot(dx, dy) || 1;
  const down: Pt = [dx / len, dy / len];
  const right: Pt = [down[1], -down[0]];
  return { lm, W: Math.max(W, 1), L: Math.max(L, 1), down, right, axis: lm[27]! };
}

const range = (lm: Pt[], a: number, b: number): Pt[] => lm.slice(a, b + 1);
const add = (p: Pt, v: Pt, k: number): Pt => [p[0] + v[0] * k, p[1] + v[1] * k];

/** Signed distance of p from the face axis along `right` (negative: image-left half). */
export function axisOffset(g: FaceGeom, p: Pt): number {
  return (p[0] - g.axis[0]) * g.right[0] + (p[1] - g.axis[1]) * g.right[1];
}

/** Face outline: the jaw (0..16) and a forehead arc raised above the brows (26..17). */
export function facePolygon(g: FaceGeom, foreheadRatio = 0.42): Pt[] {
  const { lm } = g;
  const up: Pt = [-g.down[0], -g.down[1]];
  const jaw = range(lm, 0, 16);
  const brows = range(lm, 17, 26).reverse();
  const mid = centroid(range(lm, 17, 26));
  const forehead = brows.map((p) => {
    // raise more in the middle than at the temples (a dome, not a flat band)
    const t = 1 - Math.min(1, Math.abs(axisOffset(g, p)) / (g.W / 2));
    return add(lerp(p, mid, 0), up, g.L * foreheadRatio * (0.55 + 0.45 * t));
  });
  // connect the jaw ends to the forehead at brow height, slightly outside the brows
  return [...jaw, ...forehead];
}

export const eyePolygon = (g: FaceGeom, side: 0 | 1, sx = 1.7, sy = 2.6): Pt[] => scaleAbout(range(g.lm, side ? 42 : 36, side ? 47 : 41), sx, sy);

/** A band around the brow line (the 5 brow points trace its middle), a little larger than the brow. */
export function browPolygon(g: FaceGeom, side: 0 | 1): Pt[] {
  const pts = range(g.lm, side ? 22 : 17, side ? 26 : 21);
  const up: Pt = [-g.down[0], -g.down[1]];
  const top = pts.map((p) => add(p, up, 0.035 * g.W));
  const bottom = pts.map((p) => add(p, g.down, 0.045 * g.W)).reverse();
  return scaleAbout([...top, ...bottom], 1.15, 1);
}

export const outerLips = (g: FaceGeom, s = 1): Pt[] => scaleAbout(range(g.lm, 48, 59), s, s);
export const innerLips = (g: FaceGeom): Pt[] => range(g.lm, 60, 67);

/** Polygon area (shoelace, absolute). */
export function polyArea(p: Pt[]): number {
  let a = 0;
  for (let i = 0, j = p.length - 1; i < p.length; j = i++) a += (p[j]![0] + p[i]![0]) * (p[j]![1] - p[i]![1]);
  return Math.abs(a / 2);
}

/** Cheek-apple centres (image-left, image-right): between the face edge, the nose base and the lower eyelid. */
export function cheekCentres(g: FaceGeom): [Pt, Pt] {
  const { lm } = g;
  return [centroid([lm[1]!, lm[31]!, lm[41]!, lm[2]!]), centroid([lm[15]!, lm[35]!, lm[46]!, lm[14]!])];
}

/** Segments shading the hollow under each cheekbone: from near the ear toward the mouth corner. */
export function cheekHollows(g: FaceGeom): Array<[Pt, Pt]> {
  const { lm } = g;
  const inL: Pt = g.right, inR: Pt = [-g.right[0], -g.right[1]];
  return [
    [add(lerp(lm[1]!, lm[2]!, 0.6), inL, 0.05 * g.W), lerp(lerp(lm[2]!, lm[3]!, 0.5), lm[48]!, 0.5)],
    [add(lerp(lm[15]!, lm[14]!, 0.6), inR, 0.05 * g.W), lerp(lerp(lm[14]!, lm[13]!, 0.5), lm[54]!, 0.5)],
  ];
}

/** Distance from p to the segment a-b. */
export function segDist(p: Pt, a: Pt, b: Pt): number {
  const vx = b[0] - a[0], vy = b[1] - a[1];
  const l2 = vx * vx + vy * vy || 1e-9;
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / l2));
  return Math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy);
}

/** Distance from p to a polyline. */
export function polylineDist(p: Pt, line: Pt[]): number {
  let d = Infinity;
  for (let i = 0; i + 1 < line.length; i++) d = Math.min(d, segDist(p, line[i]!, line[i + 1]!));
  return d;
}

export { dist };
