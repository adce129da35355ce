// Face pipeline: UltraFace boxes → confirmed by BlazeFace + 68-landmark agreement → 5 points → ArcFace alignment → embedding.
import { run, tensor, modelTag } from './models.js';
import { rolledCut, mapFace, secondLooks } from './face-turn.js';
import { centreOffset2 } from './face-subject.js';
import { boxArea, containment, cropResize, iou, nms, similarityTransform, invertAffine, warpAffine, toGrey, toPlanar, type Box, type Point, type Raster, type RgbImage } from './raster.js';

export interface Face {
  /** [x1, y1, x2, y2] in image pixels */
  box: Box;
  /** detector score 0..1 (UltraFace) */
  score: number;
  /** 68 iBUG points in image coordinates */
  landmarks: Point[];
  /** image-left eye, image-right eye, nose tip, image-left mouth corner, image-right mouth corner */
  keypoints5: Point[];
  /** the second signal: BlazeFace score on a crop around the box (0..1) */
  confirmScore: number;
}

export interface DetectOptions {
  /** UltraFace score threshold (default 0.45: low on purpose, every box must also pass the confirmation) */
  minScore?: number;
  /** BlazeFace confirmation threshold (default 0.6) */
  minConfirm?: number;
  /** ignore boxes whose shorter side is below this many pixels (default 12) */
  minSize?: number;
  /** at most this many faces (largest first; default 32) */
  maxFaces?: number;
  /** skip the second signal (diagnostics only) */
  unconfirmed?: boolean;
  /** do not retry on a mirror-padded image when the largest face is not framed as in a selfie (see firstLook) */
  noPadRetry?: boolean;
  /** the first look only: no turned or tiled second look when it finds no face (A/B benches) */
  noRescue?: boolean;
}

export const FACE_MODELS = { detector: modelTag('detect'), confirm: modelTag('blaze'), landmarks: modelTag('landmark'), embedding: modelTag('feature') };

// ---------------------------------------------------------------- UltraFace (RFB-320)
async function ultraface(img: RgbImage, minScore: number): Promise<Array<{ box: Box; score: number }>> {
  const small = cropResize(img, 0, 0, img.width, img.height, 320, 240);
  const input = toPlanar(small, 1 / 128, -127 / 128);
  const out = await run('detect', { input: tensor(input, [1, 3, 240, 320]) });
  const scores = out.scores!.data as Float32Array;
  const boxes = out.boxes!.data as Float32Array;
  const cand: Box[] = [];
  const sc: number[] = [];
  const n = scores.length / 2;
  for (let i = 0; i < n; i++) {
    const s = scores[i * 2 + 1]!;
    if (s < minScore) continue;
    const b: Box = [
      Math.max(0, boxes[i * 4]! * img.width),
      Math.max(0, boxes[i * 4 + 1]! * img.height),
      Math.min(img.width, boxes[i * 4 + 2]! * img.width),
      Math.min(img.height, boxes[i * 4 + 3]! * img.height),
    ];
    if (b[2] - b[0] < 2 || b[3] - b[1] < 2) continue;
    cand.push(b);
    sc.push(s);
  }
  return nms(cand, sc, 0.4).map((i) => ({ box: cand[i]!, score: sc[i]! }));
}

// ---------------------------------------------------------------- BlazeFace (back, 256) as the confirming detector
let anchors: Float32Array | null = null;
function blazeAnchors(): Float32Array {
  if (anchors) return anchors;
  const a: number[] = [];
  // stride 16: 16×16 cells × 2 anchors; strides 32,32,32 merged: 8×8 cells × 6 anchors
  for (const [grid, per] of [[16, 2], [8, 6]] as const) {
    for (let y = 0; y < grid; y++) for (let x = 0; x < grid; x++) for (let k = 0; k < per; k++) a.push((x + 0.5) / grid, (y + 0.5) / grid);
  }
  anchors = Float32Array.from(a);
  return anchors;
}

interface BlazeHit { score: number; box: Box; kp: Point[] }

/** Run BlazeFace on a square region of the image (x, y, side); returns hits in image coordinates. */
async function blazeface(img: RgbImage, x: number, y: number, side: number): Promise<BlazeHit[]> {
  const crop = cropResize(img, x, y, side, side, 256, 256);
  const n = 256 * 256;
  const input = new Float32Array(n * 3);
  for (let i = 0; i < n * 3; i++) input[i] = crop.data[i]! / 127.5 - 1;
  const out = await run('blaze', { 'input:0': tensor(input, [1, 256, 256, 3]) });
  const s16 = out['Identity:0']!.data as Float32Array;
  const s32 = out['Identity_1:0']!.data as Float32Array;
  const r16 = out['Identity_2:0']!.data as Float32Array;
  const r32 = out['Identity_3:0']!.data as Float32Array;
  const A = blazeAnchors();
  const hits: BlazeHit[] = [];
  const k = side / 256;
  for (let i = 0; i < 896; i++) {
    const logit = i < 512 ? s16[i]! : s32[i - 512]!;
    const score = 1 / (1 + Math.exp(-Math.max(-100, Math.min(100, logit))));
    if (score < 0.3) continue;
    const r = i < 512 ? r16.subarray(i * 16, i * 16 + 16) : r32.subarray((i - 512) * 16, (i - 512) * 16 + 16);
    const ax = A[i * 2]! * 256, ay = A[i * 2 + 1]! * 256;
    const cx = r[0]! + ax, cy = r[1]! + ay, w = r[2]!, h = r[3]!;
    const box: Box = [x + (cx - w / 2) * k, y + (cy - h / 2) * k, x + (cx + w / 2) * k, y + (cy + h / 2) * k];
    const kp: Point[] = [];
    for (let j = 0; j < 6; j++) kp.push([x + (r[4 + j * 2]! + ax) * k, y + (r[5 + j * 2]! + ay) * k]);
    hits.push({ score, box, kp });
  }
  const keep = nms(hits.map((h) => h.box), hits.map((h) => h.score), 0.3);
  return keep.map((i) => hits[i]!);
}

// ---------------------------------------------------------------- 68 landmarks
export async function landmarks68(img: Raster, box: Box): Promise<Point[]> {
  const [x1, y1, x2, y2] = box;
  const w = x2 - x1, h = y2 - y1;
  const grey = toGrey(cropResize(img, x1, y1, w, h, 64, 64));
  const input = new Float32Array(64 * 64);
  for (let i = 0; i < input.length; i++) input[i] = grey.data[i]! / 256;
  const out = await run('landmark', { input: tensor(input, [1, 1, 64, 64]) });
  const o = out.output!.data as Float32Array;
  const pts: Point[] = [];
  for (let i = 0; i < 68; i++) pts.push([o[i * 2]! * w + x1, o[i * 2 + 1]! * h + y1]);
  return pts;
}

/**
 * A second landmark pass on the box the first pass implies. The detector's box is sometimes much tighter than
 * the face (faces filling the frame); the landmark model expects the detector's usual framing, measured on 27
 * good faces here: x1 = lx1 − 0.015·lw, y1 = ly1 − 0.26·lh, x2 = lx2 + 0.015·lw, y2 = ly2 − 0.024·lh.
 */
export async function refineLandmarks(img: Raster, lm: Point[]): Promise<Point[]> {
  const xs = lm.map((p) => p[0]), ys = lm.map((p) => p[1]);
  const lx1 = Math.min(...xs), lx2 = Math.max(...xs), ly1 = Math.min(...ys), ly2 = Math.max(...ys);
  const lw = lx2 - lx1, lh = ly2 - ly1;
  if (lw < 4 || lh < 4) return lm;
  return landmarks68(img, [lx1 - 0.015 * lw, ly1 - 0.26 * lh, lx2 + 0.015 * lw, ly2 - 0.024 * lh]);
}

const mean = (pts: Point[]): Point => [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];

/** 68 → 5: eye centres (36–41, 42–47), nose tip (30), mouth corners (48/60, 54/64). */
export function fivePoints(l: Point[]): Point[] {
  return [
    mean([l[36]!, l[37]!, l[38]!, l[39]!, l[40]!, l[41]!]),
    mean([l[42]!, l[43]!, l[44]!, l[45]!, l[46]!, l[47]!]),
    l[30]!,
    mean([l[48]!, l[60]!]),
    mean([l[54]!, l[64]!]),
  ];
}

const dist = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Geometric sanity of a 68-point set: eyes above nose above mouth, eyes apart, roughly upright. */
function plausible(k5: Point[], box: Box): boolean {
  const [le, re, nose, ml, mr] = k5 as [Point, Point, Point, Point, Point];
  const w = box[2] - box[0];
  const eyeDist = dist(le, re);
  if (eyeDist < 0.15 * w || eyeDist > 0.8 * w) return false;
  const eyeY = (le[1] + re[1]) / 2, mouthY = (ml[1] + mr[1]) / 2;
  if (!(nose[1] > eyeY && mouthY > nose[1])) return false;
  if (mr[0] <= ml[0] || re[0] <= le[0]) return false;
  return true;
}

// ---------------------------------------------------------------- detectFaces (public)
/**
 * Faces, largest first (subjectFace in face-subject.ts picks the one a selfie or ID photo is of). When the largest face
 * is not framed as in such a photo (none; over 30 % of the image, or under 10 %, or off to a side; scoring < 0.8),
 * detection is retried on the image mirror-padded by 15 % per side: UltraFace frames faces filling the frame too
 * tightly (measured: people/leonard5 0.48 and a box cutting the face → 0.97 and a whole-face box), and can miss a
 * face cut by the frame's edge.
 */
export async function detectFaces(img: RgbImage, opts: DetectOptions = {}): Promise<Face[]> {
  const faces = await firstLook(img, opts);
  if (faces.length || opts.noRescue) return faces;
  // nothing at all: a photo turned without its EXIF tag, a strongly rolled face, a face too small for 320×240.
  // Each second look is a whole first look, with the padded retry that upright faces filling the frame take (turned
  // photos looked at without it: FNMR 10.6–14.4 % against 5.8 % upright on the report half; bench/RESULTS.md face26)
  // (tiles without it: a tile's face is small, and padding each of 25 empty tiles would double the tiles' cost)
  return (await secondLooks(img, (v, tile) => firstLook(v, tile ? { ...opts, noPadRetry: true } : opts))).filter((f) => boxArea(f.box) > 0);
}

/**
 * One look: the detector on the image, and on the mirror-padded image when the face found is not what a selfie or an
 * ID photo holds (none, one filling the frame or scoring < 0.8, one small or off to a side: the subject's face may be
 * the one missed, cut by the frame's edge, while a bystander was found). The two looks' faces are merged.
 */
async function firstLook(img: RgbImage, opts: DetectOptions): Promise<Face[]> {
  const faces = await detectCore(img, opts);
  const top = faces[0];
  if (opts.noPadRetry || (top && top.score >= 0.8 && framed(top.box, img.width, img.height))) return faces;
  const p = retryPad(img.width, img.height);
  const padded = padMirror(img, p);
  const frame: Box = [p, p, p + img.width, p + img.height];
  // faces found in the mirrored border are reflections: keep boxes lying mostly inside the real image
  const again = (await detectCore(padded, opts)).filter((f) => containment(f.box, frame) >= 0.6).map((f) => shiftFace(f, -p, img.width, img.height)).filter((f) => boxArea(f.box) > 0);
  const best = again[0];
  // the better-scoring look's boxes win where both found the same face (the padded one frames a face at the edge whole)
  return best && (!top || best.score > top.score) ? mergeLooks(again, faces) : mergeLooks(faces, again);
}

/** A face as a selfie or an ID photo frames it: 10–30 % of the image, its centre within a quarter of the middle. */
function framed(box: Box, width: number, height: number): boolean {
  const share = boxArea(box) / (width * height);
  return share >= 0.1 && share <= 0.3 && centreOffset2(box, width, height) <= 0.25 * 0.25;
}

/** The faces of `main`, then those of `more` not overlapping one of them (a share > 0.6 of either box), largest first. */
function mergeLooks(main: Face[], more: Face[]): Face[] {
  const out = [...main];
  for (const f of more) if (!main.some((m) => containment(f.box, m.box) > 0.6 || containment(m.box, f.box) > 0.6)) out.push(f);
  return out.sort((a, b) => boxArea(b.box) - boxArea(a.box));
}

/**
 * The mirrored border of the second look for a face filling the frame: 15 % of the image's longer side, never more
 * than its shorter side. At photo aspects (up to 6.7:1) the cap changes nothing; without it a 20000×10 strip was
 * padded to 26000×6010 (470 MB of pixels, tens of seconds of detection) for a face that cannot be in it.
 */
export function retryPad(width: number, height: number): number {
  return Math.min(Math.round(0.15 * Math.max(width, height)), Math.min(width, height));
}

function shiftFace(f: Face, d: number, W: number, H: number): Face {
  const mv = (q: Point): Point => [q[0] + d, q[1] + d];
  const b: Box = [Math.max(0, f.box[0] + d), Math.max(0, f.box[1] + d), Math.min(W, f.box[2] + d), Math.min(H, f.box[3] + d)];
  return { ...f, box: b, landmarks: f.landmarks.map(mv), keypoints5: f.keypoints5.map(mv) };
}

/** Mirror-pad (reflect without repeating the edge) by p pixels on every side. */
export function padMirror(img: RgbImage, p: number): RgbImage {
  const W = img.width + 2 * p, H = img.height + 2 * p;
  const out = new Uint8Array(W * H * 3);
  const refl = (v: number, n: number) => {
    if (n === 1) return 0;
    const period = 2 * (n - 1);
    let m = ((v % period) + period) % period;
    return m < n ? m : period - m;
  };
  for (let y = 0; y < H; y++) {
    const sy = refl(y - p, img.height);
    for (let x = 0; x < W; x++) {
      const sx = refl(x - p, img.width);
      const o = (y * W + x) * 3, i = (sy * img.width + sx) * 3;
      out[o] = img.data[i]!;
      out[o + 1] = img.data[i + 1]!;
      out[o + 2] = img.data[i + 2]!;
    }
  }
  return { data: out, width: W, height: H, channels: 3 };
}

async function detectCore(img: RgbImage, opts: DetectOptions): Promise<Face[]> {
  const minScore = opts.minScore ?? 0.45;
  const minSize = opts.minSize ?? 12;
  const maxFaces = opts.maxFaces ?? 32;
  let cands = (await ultraface(img, minScore)).filter((c) => Math.min(c.box[2] - c.box[0], c.box[3] - c.box[1]) >= minSize);
  cands.sort((a, b) => boxArea(b.box) - boxArea(a.box));
  cands = cands.slice(0, maxFaces * 2);
  const faces: Face[] = [];
  for (const c of cands) {
    if (faces.length >= maxFaces) break;
    // a box lying mostly inside an already accepted (larger) face is a part of that face
    if (faces.some((f) => containment(c.box, f.box) > 0.6)) continue;
    const face = await candidateFace(img, c.box, c.score, opts, true);
    if (face) faces.push(face);
  }
  return faces;
}

/** A face rolled more than this many degrees (eye line) gets its landmarks again on a view turned upright. */
export const ROLL_UPRIGHT_DEG = 20;

/**
 * Landmarks, plausibility and the BlazeFace confirmation of one detector box; null when it is not a face. When the
 * first landmarks show a face rolled beyond ROLL_UPRIGHT_DEG, the box is looked at again in a cut turned upright
 * (the 68-point model and BlazeFace are trained on upright faces: measured on roll 45°, 28 % FNMR before).
 */
async function candidateFace(img: RgbImage, box: Box, score: number, opts: DetectOptions, mayTurn: boolean): Promise<Face | null> {
  const minConfirm = opts.minConfirm ?? 0.6;
  const lm = await refineLandmarks(img, await landmarks68(img, box));
  const k5 = fivePoints(lm);
  const roll = (Math.atan2(k5[1]![1] - k5[0]![1], k5[1]![0] - k5[0]![0]) * 180) / Math.PI;
  if (mayTurn && !opts.noRescue && Math.abs(roll) > ROLL_UPRIGHT_DEG) {
    const upright = await rolledFace(img, box, score, roll, opts);
    if (upright) return upright;
  }
  let confirmScore = 1;
  if (!opts.unconfirmed) {
    if (!plausible(k5, box)) return null;
    confirmScore = await confirm(img, box, k5);
    if (confirmScore < minConfirm) return null;
  }
  const face = { box, score, landmarks: lm, keypoints5: k5, confirmScore };
  if (!mayTurn || opts.noRescue || opts.unconfirmed || confirmScore >= UPSIDE_DOWN_BELOW) return face;
  // an upside-down face can pass as upright, barely: the turned view's face confirms better
  const turned = await rolledFace(img, box, score, 180, opts);
  return turned && turned.confirmScore > confirmScore ? turned : face;
}

/**
 * A face confirmed below this is looked at again turned 180°. Measured on the tune half's photos turned 180° without
 * the EXIF tag: the 3 upside-down faces the first look accepted confirmed 0.61, 0.64, 0.69; the 29 upright 0.79–0.93.
 */
export const UPSIDE_DOWN_BELOW = 0.75;

/** The box again in a square cut around it turned by `roll` degrees (upright), mapped back to the image. */
async function rolledFace(img: RgbImage, box: Box, score: number, roll: number, opts: DetectOptions): Promise<Face | null> {
  const w = box[2] - box[0], h = box[3] - box[1];
  const side = 2 * Math.max(w, h);
  // sampled at most 512 px: the landmark model sees 64×64 of the box, BlazeFace 256×256 of 2.2× it
  const out = Math.round(Math.min(side, 512)), k = out / side;
  const v = rolledCut(img, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, side, roll, out);
  const inView: Box = [(out - w * k) / 2, (out - h * k) / 2, (out + w * k) / 2, (out + h * k) / 2];
  const f = await candidateFace(v.img, inView, score, opts, false);
  return f && mapFace(f, v.toImage, img.width, img.height);
}

/** BlazeFace on a 2.2× square around the box: its best hit overlapping the box whose eyes land near the landmark eyes. */
async function confirm(img: RgbImage, box: Box, k5: Point[]): Promise<number> {
  const w = box[2] - box[0], h = box[3] - box[1];
  const side = 2.2 * Math.max(w, h);
  const cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
  const hits = await blazeface(img, cx - side / 2, cy - side / 2, side);
  const eyeDist = dist(k5[0]!, k5[1]!);
  let best = 0;
  for (const hit of hits) {
    if (iou(hit.box, box) < 0.25) continue;
    // BlazeFace keypoints 0/1 are the two eyes; both must land near the landmark eyes (either order)
    const [e0, e1] = hit.kp as [Point, Point];
    const d = Math.min(dist(e0, k5[0]!) + dist(e1, k5[1]!), dist(e1, k5[0]!) + dist(e0, k5[1]!)) / 2;
    if (d > 0.45 * eyeDist) continue;
    best = Math.max(best, hit.score);
  }
  return best;
}


// ---------------------------------------------------------------- alignment + embedding
/** The ArcFace 112×112 reference positions of the 5 points. */
export const ARCFACE_TEMPLATE: Point[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

/** Warp the face so that its 5 points land on the ArcFace template (similarity transform, least squares). */
export function alignFace(img: Raster, keypoints5: Point[]): Raster {
  const m = similarityTransform(keypoints5, ARCFACE_TEMPLATE);
  return warpAffine(img, invertAffine(m), 112, 112);
}

/** 512-d L2-normalised embedding of an aligned 112×112 RGB face. */
export async function embedAligned(aligned: Raster): Promise<Float32Array> {
  const input = toPlanar(aligned, 1 / 128, -127 / 128);
  const out = await run('feature', { input: tensor(input, [1, 3, 112, 112]) });
  const v = Float32Array.from(out.output!.data as Float32Array);
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export async function embedFace(img: RgbImage, face: Face): Promise<Float32Array> {
  return embedAligned(alignFace(img, face.keypoints5));
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
