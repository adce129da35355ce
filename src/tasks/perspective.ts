// ID-card perspective crop: find the card's four corners (or take them), warp to output_width x output_height
// (default 1280x807, the ID-1 ratio 85.6 x 54 mm). Pipeline (docs/image.md#perspective):
//   analysis copy (longer side 800) → Canny → edge components → convex hull → largest inscribed quad →
//   score (edge support along the sides, area, convexity) → refine each side by a line fit to its edge pixels
//   → corners = intersections of adjacent lines → homography → bilinear warp of the full-resolution image.
import { checkImage, decodeChecked, encodeJpeg, type DecodeOptions, type Raw } from './lib/image-io.js';
import { badInput } from './lib/task-error.js';
import { lumaFromRgb, type Grey } from './lib/gray.js';
import { canny, hysteresis, quantile, sortedMaxima } from './lib/canny.js';
import { convexHull, polygonArea, orderCorners, fitLine, intersect, homography, warp, dist, type Pt } from './lib/geometry.js';
import { forEachComponent } from './lib/components.js';
import { maxQuad, longestEdgesQuad } from './lib/quad.js';

export const ID1_RATIO = 85.6 / 54;
const ANALYSIS_SIDE = 800;

export interface PerspectiveInput extends DecodeOptions {
  image: Uint8Array;
  /** four [x,y] points in original pixels, any order; auto-detected when omitted */
  corners?: Pt[];
  outputWidth?: number;
  outputHeight?: number;
  /** JPEG quality of the crop (default 92) */
  quality?: number;
}

export interface Detection {
  found: boolean;
  /** TL, TR, BR, BL in the input image's pixels */
  corners: [Pt, Pt, Pt, Pt];
  /** 0..1 */
  confidence: number;
  /** degrees, angle of the top edge against the horizontal (positive = clockwise in image coordinates) */
  rotationAngle: number;
  /** measured aspect ratio of the quad (long side / short side, averaged) */
  aspect: number;
  edgeSupport: number;
  areaFraction: number;
}

export interface PerspectiveOutput extends Detection {
  source: 'auto' | 'given';
  cardType: string;
  jpeg: Uint8Array;
  outputWidth: number;
  outputHeight: number;
  inputWidth: number;
  inputHeight: number;
}

/** Label 8-connected components of non-zero pixels; returns the pixel lists of components with >= minSize pixels. */
function components(mask: Uint8Array, w: number, h: number, minSize: number): Int32Array[] {
  const out: Int32Array[] = [];
  forEachComponent(mask, w, h, (pix) => {
    if (pix.length >= minSize) out.push(pix.slice());
  });
  return out;
}

/** Hits and samples along the segment a→b: sample points with an edge pixel within r pixels. */
function segmentHits(a: Pt, b: Pt, edges: Uint8Array, w: number, h: number, r: number): [number, number] {
  let hit = 0, total = 0;
  const steps = Math.max(8, Math.round(dist(a, b) / 2));
  for (let t = 1; t < steps; t++) {
    const x = Math.round(a[0] + ((b[0] - a[0]) * t) / steps), y = Math.round(a[1] + ((b[1] - a[1]) * t) / steps);
    total++;
    if (edgeNear(edges, w, h, x, y, r)) hit++;
  }
  return [hit, total];
}

/** Is there an edge pixel within the (2r+1)² window around (x, y)? */
function edgeNear(edges: Uint8Array, w: number, h: number, x: number, y: number, r: number): boolean {
  for (let dy = -r; dy <= r; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= h) continue;
    for (let dx = -r; dx <= r; dx++) {
      const xx = x + dx;
      if (xx >= 0 && xx < w && edges[yy * w + xx]) return true;
    }
  }
  return false;
}

/** Fraction of points sampled along the quad's sides that have an edge pixel within r pixels. */
function edgeSupport(quad: Pt[], edges: Uint8Array, w: number, h: number, r = 2): number {
  let hit = 0, total = 0;
  for (let s = 0; s < 4; s++) {
    const [hh, tt] = segmentHits(quad[s]!, quad[(s + 1) % 4]!, edges, w, h, r);
    hit += hh;
    total += tt;
  }
  return total ? hit / total : 0;
}

/** Probability that a random point has an edge pixel within r (to discount support found by chance). */
function chanceHit(edges: Uint8Array, w: number, h: number, r: number): number {
  let hit = 0;
  const n = 400;
  for (let k = 0; k < n; k++) {
    // low-discrepancy grid of sample points
    const x = Math.floor(((k * 0.6180339887) % 1) * w), y = Math.floor(((k + 0.5) / n) * h);
    if (edgeNear(edges, w, h, x, y, r)) hit++;
  }
  return Math.min(0.9, hit / n);
}

/** Refine each side with a line fit to the edge pixels near it (away from the rounded corners). */
export function refine(quad: Pt[], edges: Uint8Array, w: number, h: number, band: number): Pt[] {
  const lines: Array<{ p: Pt; d: Pt } | undefined> = [];
  for (let s = 0; s < 4; s++) {
    const a = quad[s]!, b = quad[(s + 1) % 4]!;
    const len = dist(a, b);
    const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
    const nx = -uy, ny = ux;
    const pts: Pt[] = [];
    const acr: number[] = [];
    const x0 = Math.max(0, Math.floor(Math.min(a[0], b[0]) - band)), x1 = Math.min(w - 1, Math.ceil(Math.max(a[0], b[0]) + band));
    const y0 = Math.max(0, Math.floor(Math.min(a[1], b[1]) - band)), y1 = Math.min(h - 1, Math.ceil(Math.max(a[1], b[1]) + band));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        if (!edges[y * w + x]) continue;
        const dx = x - a[0], dy = y - a[1];
        const along = dx * ux + dy * uy;
        const across = dx * nx + dy * ny;
        if (along < len * 0.15 || along > len * 0.85 || Math.abs(across) > band) continue;
        pts.push([x + 0.5, y + 0.5]); // pixel centres
        acr.push(across);
      }
    }
    if (pts.length < 10) {
      lines.push(undefined);
      continue;
    }
    // the side is the densest offset parallel to the chord (robust against text and texture inside the band)
    const bins = new Float64Array(2 * band + 3);
    for (const v of acr) bins[Math.round(v) + band + 1]! += 1;
    let mode = 0, bestCount = -1;
    for (let i = 1; i < bins.length - 1; i++) {
      const c = bins[i - 1]! + bins[i]! + bins[i + 1]!;
      if (c > bestCount) { bestCount = c; mode = i - band - 1; }
    }
    const near = pts.filter((_, i) => Math.abs(acr[i]! - mode) <= 2.5);
    if (near.length < 10) {
      lines.push(undefined);
      continue;
    }
    let l = fitLine(near);
    const resid = (p: Pt, L: { p: Pt; d: Pt }): number => Math.abs((p[0] - L.p[0]) * -L.d[1] + (p[1] - L.p[1]) * L.d[0]);
    const keep = near.filter((p) => resid(p, l) < 1.5);
    if (keep.length >= 10) l = fitLine(keep);
    lines.push(l);
  }
  const out: Pt[] = [];
  for (let s = 0; s < 4; s++) {
    const prev = lines[(s + 3) % 4], cur = lines[s];
    const p = prev && cur ? intersect(prev, cur) : undefined;
    // a corner hidden by low contrast is recovered from its two sides' lines (bounded by a share of the sides)
    const reach = Math.max(band * 3, 0.25 * Math.min(dist(quad[s]!, quad[(s + 1) % 4]!), dist(quad[s]!, quad[(s + 3) % 4]!)));
    out.push(p && dist(p, quad[s]!) < reach ? p : quad[s]!);
  }
  return out;
}

function angleDeg(a: Pt, b: Pt): number {
  return (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
}

/** Put the long side on top and choose the rotation with the smallest angle. */
export function normaliseOrder(c: [Pt, Pt, Pt, Pt]): [Pt, Pt, Pt, Pt] {
  const [tl, tr, br, bl] = c;
  const top = (dist(tl, tr) + dist(bl, br)) / 2;
  const side = (dist(tr, br) + dist(tl, bl)) / 2;
  if (top >= side) return c;
  // portrait: rotate the labelling by one step; pick the direction with the smaller |angle|
  const a: [Pt, Pt, Pt, Pt] = [bl, tl, tr, br];
  const b: [Pt, Pt, Pt, Pt] = [tr, br, bl, tl];
  return Math.abs(angleDeg(a[0], a[1])) <= Math.abs(angleDeg(b[0], b[1])) ? a : b;
}

function quadAspect(c: Pt[]): number {
  const top = (dist(c[0]!, c[1]!) + dist(c[3]!, c[2]!)) / 2;
  const side = (dist(c[1]!, c[2]!) + dist(c[0]!, c[3]!)) / 2;
  return Math.max(top, side) / Math.max(1e-6, Math.min(top, side));
}

/** Detect the card in an RGB(A) raw image; corners in that image's pixels. */
export function detectCard(rgb: Raw): Detection {
  const { width: w, height: h } = rgb;
  const g: Grey = lumaFromRgb(rgb.data, w, h, rgb.channels);
  const diag = Math.hypot(w, h);
  const sigma = Math.max(1.4, diag / 500);
  const e = canny(g, { sigma, highPercentile: 0.8 });
  const sorted = sortedMaxima(e.nms);
  const r = Math.max(2, Math.round(sigma * 1.5));
  const band = Math.max(8, Math.round(diag / 60));
  let best: { quad: Pt[]; score: number; support: number; area: number; edges: Uint8Array } | undefined;
  // several hysteresis levels: at some level the card outline separates from texture and text
  for (const level of [0.5, 0.65, 0.75, 0.85, 0.92, 0.96, 0.985]) {
    const high = Math.max(20, quantile(sorted, level));
    const edges = hysteresis(e.nms, w, h, high, high * 0.5);
    const chance = chanceHit(edges, w, h, r);
    const comps = components(edges, w, h, Math.round(diag * 0.2));
    for (const comp of comps) {
      // hull from the extreme points of each row
      const rowMin = new Map<number, number>(), rowMax = new Map<number, number>();
      for (const j of comp) {
        const x = j % w, y = (j - x) / w;
        if (!rowMin.has(y) || x < rowMin.get(y)!) rowMin.set(y, x);
        if (!rowMax.has(y) || x > rowMax.get(y)!) rowMax.set(y, x);
      }
      const pts: Pt[] = [];
      for (const [y, x] of rowMin) pts.push([x, y]);
      for (const [y, x] of rowMax) pts.push([x, y]);
      let hull = convexHull(pts);
      if (hull.length > 60) {
        const step = hull.length / 60;
        hull = Array.from({ length: 60 }, (_, i) => hull[Math.floor(i * step)]!);
      }
      const cands = [maxQuad(hull), longestEdgesQuad(hull)];
      for (const q0 of cands) {
      if (!q0) continue;
      if (q0.some(([x, y]) => x < -0.1 * w || y < -0.1 * h || x > 1.1 * w || y > 1.1 * h)) continue;
      // hull vertices sit on the rounded corners: refine the sides by line fits before scoring
      const q = refine(orderCorners(q0), edges, w, h, band);
      const area = polygonArea(q) / (w * h);
      if (area < 0.03 || area > 0.98) continue;
      const raw = edgeSupport(q, edges, w, h, r);
      const support = Math.max(0, (raw - chance) / (1 - chance));
      const aspect = quadAspect(q);
      const aspectScore = Math.exp(-Math.abs(Math.log(aspect / ID1_RATIO)) * 1.5);
      const score = support * support * (0.6 + 0.4 * aspectScore) * Math.sqrt(area);
      if (!best || score > best.score) best = { quad: q, score, support, area, edges };
      }
    }
  }
  if (!best) {
    const c: [Pt, Pt, Pt, Pt] = [[0, 0], [w, 0], [w, h], [0, h]];
    return { found: false, corners: c, confidence: 0, rotationAngle: 0, aspect: w / h, edgeSupport: 0, areaFraction: 1 };
  }
  const quad = refine(orderCorners(best.quad), best.edges, w, h, Math.max(4, Math.round(sigma * 2)));
  const corners = normaliseOrder(orderCorners(quad));
  const chance = chanceHit(best.edges, w, h, 2);
  const support = Math.max(0, (edgeSupport(corners, best.edges, w, h, 2) - chance) / (1 - chance));
  // the weakest side: a quad that cuts across the card (a corner lost in low contrast) has one unsupported side
  let weakest = 1;
  for (let k = 0; k < 4; k++) {
    const [hh, tt] = segmentHits(corners[k]!, corners[(k + 1) % 4]!, best.edges, w, h, 2);
    weakest = Math.min(weakest, Math.max(0, (hh / Math.max(1, tt) - chance) / (1 - chance)));
  }
  const aspect = quadAspect(corners);
  const aspectScore = Math.exp(-Math.abs(Math.log(aspect / ID1_RATIO)) * 1.5);
  const confidence = Math.max(0, Math.min(1, (0.6 * support + 0.4 * weakest) * (0.7 + 0.3 * aspectScore)));
  return {
    found: confidence >= 0.35 && weakest >= 0.5,
    corners,
    confidence: Math.round(confidence * 1000) / 1000,
    rotationAngle: Math.round(angleDeg(corners[0], corners[1]) * 100) / 100,
    aspect: Math.round(aspect * 1000) / 1000,
    edgeSupport: Math.round(support * 1000) / 1000,
    areaFraction: Math.round((polygonArea(corners) / (w * h)) * 1000) / 1000,
  };
}

/** Warp the quad (TL, TR, BR, BL) of src to an outW x outH image. */
export function warpQuad(src: Raw, corners: [Pt, Pt, Pt, Pt], outW: number, outH: number): Raw {
  // homography from output → source (sample positions)
  const Hinv = homography([[0, 0], [outW, 0], [outW, outH], [0, outH]], corners);
  return warp(src, Hinv, outW, outH, [255, 255, 255, 255]);
}

function validCorners(c: unknown, w: number, h: number): [Pt, Pt, Pt, Pt] {
  const ok = Array.isArray(c) && c.length === 4 && c.every((p) => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'number' && Number.isFinite(v)));
  if (!ok) throw badInput('corners', `Expected four [x,y] number pairs for corners but received ${JSON.stringify(c)?.slice(0, 80)}`);
  const pts = c as Pt[];
  const margin = 0.05 * Math.max(w, h);
  for (const [x, y] of pts) {
    if (x < -margin || y < -margin || x > w + margin || y > h + margin) throw badInput('corners', `Expected corners inside the ${w}x${h} image but received the point [${x},${y}]`);
  }
  const o = orderCorners(pts);
  if (polygonArea(o) < 0.001 * w * h) throw badInput('corners', 'Expected corners enclosing an area but the four points are (nearly) collinear or coincide');
  return o;
}

export default async function perspective(input: PerspectiveInput): Promise<PerspectiveOutput> {
  const outW = input.outputWidth ?? 1280;
  const outH = input.outputHeight ?? 807;
  if (!Number.isInteger(outW) || outW < 16 || outW > 4096) throw badInput('output_width', `Expected an integer from 16 to 4096 for output_width but received ${outW}`);
  if (!Number.isInteger(outH) || outH < 16 || outH > 4096) throw badInput('output_height', `Expected an integer from 16 to 4096 for output_height but received ${outH}`);
  const c = await checkImage(input.image, input);
  const full = await decodeChecked(c, 3);
  let det: Detection;
  let source: 'auto' | 'given';
  if (input.corners) {
    source = 'given';
    const corners = normaliseOrder(validCorners(input.corners, full.width, full.height));
    det = { found: true, corners, confidence: 1, rotationAngle: Math.round(angleDeg(corners[0], corners[1]) * 100) / 100, aspect: quadAspect(corners), edgeSupport: 1, areaFraction: polygonArea(corners) / (full.width * full.height) };
  } else {
    source = 'auto';
    const scale = Math.min(1, ANALYSIS_SIDE / Math.max(full.width, full.height));
    let small: Raw = full;
    if (scale < 1) {
      const { default: sharp } = await import('sharp');
      const sw = Math.max(1, Math.round(full.width * scale)), sh = Math.max(1, Math.round(full.height * scale));
      const { data } = await sharp(Buffer.from(full.data.buffer, full.data.byteOffset, full.data.byteLength), { raw: { width: full.width, height: full.height, channels: 3 } })
        .resize({ width: sw, height: sh, fit: 'fill', kernel: 'lanczos3' })
        .raw()
        .toBuffer({ resolveWithObject: true });
      small = { data, width: sw, height: sh, channels: 3 };
    }
    det = detectCard(small);
    const sx = full.width / small.width, sy = full.height / small.height;
    det.corners = det.corners.map(([x, y]) => [x * sx, y * sy]) as [Pt, Pt, Pt, Pt];
  }
  const out = warpQuad(full, det.corners, outW, outH);
  const jpeg = await encodeJpeg(out, input.quality ?? 92);
  const round = (p: Pt): Pt => [Math.round(p[0] * 10) / 10, Math.round(p[1] * 10) / 10];
  return {
    ...det,
    corners: det.corners.map(round) as [Pt, Pt, Pt, Pt],
    source,
    cardType: det.found && Math.abs(Math.log(det.aspect / ID1_RATIO)) < 0.15 ? 'id-1' : 'unknown',
    jpeg,
    outputWidth: outW,
    outputHeight: outH,
    inputWidth: full.width,
    inputHeight: full.height,
  };
}
