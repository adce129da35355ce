// Turned and cut views of an image for the face detector's second looks, and the way back: a view is a raster plus
// the affine matrix taking view pixels to image pixels, so faces found in it (box, landmarks, 5 points) map back
// to the image; alignment then warps the face upright from the original pixels (no resampling twice).
import { boxArea, containment, warpAffine, cropResize, type Box, type Point, type RgbImage } from './raster.js';

export interface View { img: RgbImage; /** view (u, v) → image: [a, b, c, d, e, f], x = a·u + b·v + c, y = d·u + e·v + f */ toImage: number[] }

/**
 * The image turned anticlockwise by `deg` degrees as seen upright in the view (a face rolled `deg` degrees clockwise
 * in the image is upright here). The view holds the whole turned image; corners outside are mid-grey.
 */
export function turnedView(img: RgbImage, deg: number): View {
  const t = (deg * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  const right = Math.abs(deg % 90) === 0;
  const cs = right ? Math.round(c) : c, sn = right ? Math.round(s) : s;
  const W = Math.round(Math.abs(cs) * img.width + Math.abs(sn) * img.height);
  const H = Math.round(Math.abs(sn) * img.width + Math.abs(cs) * img.height);
  // image point = R(−deg)·(view point − view centre) + image centre; pixel centres: (W−1)/2
  const ucx = (W - 1) / 2, ucy = (H - 1) / 2, icx = (img.width - 1) / 2, icy = (img.height - 1) / 2;
  const m = [cs, -sn, 0, sn, cs, 0];
  m[2] = icx - m[0]! * ucx - m[1]! * ucy;
  m[5] = icy - m[3]! * ucx - m[4]! * ucy;
  return { img: warpAffine(img, m, W, H, 128) as RgbImage, toImage: m };
}

/** A 1:1 cut (x, y, w, h) of the image as a view. */
export function cutView(img: RgbImage, x: number, y: number, w: number, h: number): View {
  return { img: cropResize(img, x, y, w, h, w, h) as RgbImage, toImage: [1, 0, x, 0, 1, y] };
}

export const mapPoint = (m: number[], p: Point): Point => [m[0]! * p[0] + m[1]! * p[1] + m[2]!, m[3]! * p[0] + m[4]! * p[1] + m[5]!];

/** A box of the view in image pixels: the same size around the mapped centre (a 90° turn swaps its sides), clipped. */
export function mapBox(m: number[], b: Box, W: number, H: number): Box {
  const [cx, cy] = mapPoint(m, [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]);
  const k = Math.hypot(m[0]!, m[3]!); // the view's pixel size in image pixels
  const w = (b[2] - b[0]) * k, h = (b[3] - b[1]) * k;
  const swap = Math.abs(m[1]!) > Math.abs(m[0]!);
  const [hw, hh] = swap ? [h / 2, w / 2] : [w / 2, h / 2];
  return [Math.max(0, cx - hw), Math.max(0, cy - hh), Math.min(W, cx + hw), Math.min(H, cy + hh)];
}

/**
 * A side×side cut centred on (cx, cy), turned by `deg` degrees (a face rolled `deg` degrees, eye line, is upright in
 * it), sampled at `out`×`out` pixels (default side; smaller caps the work: a 20000-px strip's turned view would be
 * 20000² pixels).
 */
export function rolledCut(img: RgbImage, cx: number, cy: number, side: number, deg: number, out = side): View {
  const t = (deg * Math.PI) / 180, k = side / out, c = Math.cos(t) * k, s = Math.sin(t) * k;
  const h = (out - 1) / 2;
  // image point = k·R(deg)·(view point − view centre) + (cx, cy)
  const m = [c, -s, cx - c * h + s * h, s, c, cy - s * h - c * h];
  return { img: warpAffine(img, m, out, out, 128) as RgbImage, toImage: m };
}

/** The largest side of a rolled view (whole-image second looks: the detector sees 320×240 of it anyway). */
export const ROLLED_VIEW_MAX = 1280;

interface Placed { box: Box; landmarks: Point[]; keypoints5: Point[] }

/** A face found in a view, in image pixels. The 5 points keep the face's own order (its left eye first), so the
 * alignment turns the face upright whatever the view's turn. */
export function mapFace<F extends Placed>(f: F, m: number[], W: number, H: number): F {
  return { ...f, box: mapBox(m, f.box, W, H), landmarks: f.landmarks.map((p) => mapPoint(m, p)), keypoints5: f.keypoints5.map((p) => mapPoint(m, p)) };
}

/** Turns tried when the first look finds no face: a photo on its side (90°, 270°), upside down, rolled ±30°. */
export const SECOND_LOOK_TURNS = [90, 270, 180, 30, -30];
/** Tiles for small faces: the detector sees 320×240, so a 1600-px photo's 20–30 px face is 4–6 px to it; in a
 * 480×360 tile it is 13–20 px (UltraFace's smallest anchors are 10 px). */
export const TILE = { w: 480, h: 360, overlap: 0.25, minSide: 800, minShort: 200 };

/**
 * The second looks for an image where the first found no face: turned views, then (images larger than
 * TILE.minSide) overlapping tiles. The right-angle turn whose largest face confirms best wins; the rolled views and the tiles only when no turn found a face; faces are mapped to image pixels.
 */
export async function secondLooks<F extends Placed & { score: number; confirmScore: number }>(img: RgbImage, detect: (v: RgbImage, tile: boolean) => Promise<F[]>): Promise<F[]> {
  // all three right-angle turns: a face upside down in one of them can pass as a face (measured: a photo turned
  // 270° was first found in the 90° view, eyes swapped, cosine −0.09 with its owner); the upright one confirms best
  let best: F[] = [];
  for (const deg of SECOND_LOOK_TURNS) {
    if (best.length && Math.abs(deg) % 90 !== 0) break;
    const side = Math.round(Math.hypot(img.width, img.height));
    const v = Math.abs(deg) % 90 === 0 ? turnedView(img, deg) : rolledCut(img, (img.width - 1) / 2, (img.height - 1) / 2, side, deg, Math.min(side, ROLLED_VIEW_MAX));
    const found = (await detect(v.img, false)).map((f) => mapFace(f, v.toImage, img.width, img.height));
    if (found.length && (!best.length || found[0]!.confirmScore > best[0]!.confirmScore)) best = found;
  }
  if (best.length) return best;
  // tiles only where a small face is plausible: a large photo, not a strip (a 20000×10 strip made 42 tiles)
  if (Math.max(img.width, img.height) < TILE.minSide || Math.min(img.width, img.height) < TILE.minShort) return [];
  const all: F[] = [];
  for (const [x, y] of tileOrigins(img.width, img.height)) {
    const v = cutView(img, x, y, Math.min(TILE.w, img.width - x), Math.min(TILE.h, img.height - y));
    for (const f of await detect(v.img, true)) all.push(mapFace(f, v.toImage, img.width, img.height));
  }
  // a face on a tile seam is found twice: keep the higher-scoring box of each overlapping pair
  all.sort((a, b) => b.score - a.score);
  const kept: F[] = [];
  for (const f of all) if (!kept.some((k) => overlap(k.box, f.box) > 0.3)) kept.push(f);
  return kept.sort((a, b) => boxArea(b.box) - boxArea(a.box));
}

export function tileOrigins(W: number, H: number): Array<[number, number]> {
  const steps = (n: number, t: number) => {
    if (n <= t) return [0];
    const k = Math.ceil((n - t) / (t * (1 - TILE.overlap))) + 1;
    return Array.from({ length: k }, (_, i) => Math.round((i * (n - t)) / (k - 1)));
  };
  const out: Array<[number, number]> = [];
  for (const y of steps(H, TILE.h)) for (const x of steps(W, TILE.w)) out.push([x, y]);
  return out;
}

/** intersection over the smaller box: the larger share of either box lying in the other */
const overlap = (a: Box, b: Box): number => Math.max(containment(a, b), containment(b, a));
