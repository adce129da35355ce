// The steps of the receipt optimisation (src/tasks/receipt.ts runs them in order, timing each; docs/image.md#receipt)
// and the measurements they use. Each step reads what the earlier ones left in the context and adds its own.
import sharp from 'sharp';
import { checkImage, checkAspect, decodeChecked, toBuffer, type Checked, type DecodeOptions } from './lib/image-io.js';
import { badInput } from './lib/task-error.js';
import { gaussianBlur, greyFromU8, histogram, otsu, percentile as percentileOf, sauvola, type Grey } from './lib/gray.js';
import { convexHull, type Pt } from './lib/geometry.js';
import { encodePng1 } from './lib/png1.js';
import { forEachComponent } from './lib/components.js';

export interface ReceiptInput extends DecodeOptions {
  image: Uint8Array;
  /** output width in pixels; default 945 (80 mm at 300 dpi) */
  targetWidth?: number;
}

/** Smallest side and largest side ratio of a receipt photo (long till receipts included). */
export const RECEIPT_MIN_SIDE = 64, RECEIPT_MAX_ASPECT = 20;

const ANALYSIS = 800;
const DEG = Math.PI / 180;
export const SAUVOLA_K = 0.2;

/** The pipeline's shared state; each step fills in what the next ones read. */
export interface ReceiptCtx {
  in: ReceiptInput;
  /** the human-readable step log (`steps` in the output) */
  steps: string[];
  checked?: Checked;
  /** the decoded grey image: W x H */
  full: Uint8Array;
  W: number;
  H: number;
  /** analysis copy (longer side <= 800): scale, size, grey */
  scale: number;
  aw: number;
  ah: number;
  g?: Grey;
  paperFound: boolean;
  /** the paper's pixels in the analysis copy (when found) */
  inside?: Uint8Array;
  angle: number;
  angleSource: 'paper-edge+text' | 'text';
  /** paper corners in the analysis copy, then (fullCorners) in input pixels */
  corners: Pt[];
  fullCorners: Pt[];
  cropBox: [number, number, number, number];
  crop: Uint8Array;
  tw: number;
  th: number;
  sized: Uint8Array;
  flat: Float32Array;
  window: number;
  bin: Uint8Array;
  png: Uint8Array;
}

export function newReceiptCtx(input: ReceiptInput): ReceiptCtx {
  const none = new Uint8Array(0);
  return {
    in: input, steps: [], full: none, W: 0, H: 0, scale: 1, aw: 0, ah: 0, paperFound: false, angle: 0,
    angleSource: 'paper-edge+text', corners: [], fullCorners: [], cropBox: [0, 0, 0, 0], crop: none, tw: 0, th: 0,
    sized: none, flat: new Float32Array(0), window: 0, bin: none, png: none,
  };
}

/** The header: at least RECEIPT_MIN_SIDE on each side (thinner cannot show a readable receipt and is thinner than
 * the analysis windows), at most RECEIPT_MAX_ASPECT long. */
export async function check(c: ReceiptCtx): Promise<void> {
  const k = await checkImage(c.in.image, c.in);
  if (Math.min(k.width, k.height) < RECEIPT_MIN_SIDE) {
    throw badInput(k.field, `The image in ${k.field} is ${k.width}x${k.height}; a receipt photo must be at least ${RECEIPT_MIN_SIDE} pixels on each side`);
  }
  checkAspect(k, RECEIPT_MAX_ASPECT, 'a receipt photo');
  c.checked = k;
}

/** Grey pixels (longer side at most 4000). */
export async function decode(c: ReceiptCtx): Promise<void> {
  const full = await decodeChecked(c.checked!, 1, 4000);
  c.full = full.data;
  c.W = full.width;
  c.H = full.height;
}

/** Analysis copy (longer side 800): blur, Otsu, the largest bright 4-connected component = the paper, if it is a
 * separate region (not the whole frame, not touching much of the border). */
export async function findPaper(c: ReceiptCtx): Promise<void> {
  const { W, H } = c;
  c.scale = Math.min(1, ANALYSIS / Math.max(W, H));
  const aw = (c.aw = Math.max(1, Math.round(W * c.scale))), ah = (c.ah = Math.max(1, Math.round(H * c.scale)));
  const small = c.scale < 1 ? await resizeGrey(c.full, W, H, aw, ah) : c.full;
  const g = (c.g = greyFromU8(small, aw, ah));
  const blurred = gaussianBlur(g, 2);
  const thr = otsu(histogram(blurred));
  const mask = new Uint8Array(aw * ah);
  for (let i = 0; i < mask.length; i++) mask[i] = blurred.data[i]! > thr ? 1 : 0;
  const comp = largestComponent(mask, aw, ah);
  const frac = comp.pixels.length / (aw * ah);
  c.paperFound = frac > 0.05 && frac < 0.92 && comp.touches < 0.25 * (aw + ah);
  if (!c.paperFound) {
    c.corners = [[0, 0], [aw, 0], [aw, ah], [0, ah]];
    c.steps.push('findPaper: no separate paper region; the whole image is treated as the receipt');
    return;
  }
  const rowMin = new Map<number, number>(), rowMax = new Map<number, number>();
  for (const j of comp.pixels) {
    const x = j % aw, y = (j - x) / aw;
    if (!rowMin.has(y) || x < rowMin.get(y)!) rowMin.set(y, x);
    if (!rowMax.has(y) || x > rowMax.get(y)!) rowMax.set(y, x);
  }
  const pts: Pt[] = [];
  for (const [y, x] of rowMin) pts.push([x, y + 0.5]);
  for (const [y, x] of rowMax) pts.push([x + 1, y + 0.5]);
  const rect = minAreaRect(convexHull(pts));
  c.angle = rect.angle;
  c.corners = rect.corners;
  c.inside = new Uint8Array(aw * ah);
  for (const j of comp.pixels) c.inside[j] = 1;
  c.steps.push(`findPaper: bright region ${(frac * 100).toFixed(1)}% of the image (Otsu ${thr})`);
}

/** Refines the paper edge's angle with the text-line projection profile (or finds it from the text alone). */
export function skew(c: ReceiptCtx): void {
  const { aw, ah } = c;
  const ink = inkPixels(c.g!, c.inside);
  let angle = c.angle;
  if (ink.length > 200) {
    if (c.paperFound) angle = searchAngle(ink, aw, ah, angle, 2, 0.1);
    else {
      c.angleSource = 'text';
      const coarse = searchAngle(ink, aw, ah, 0, 45, 1);
      angle = searchAngle(ink, aw, ah, coarse, 1, 0.1);
    }
  } else if (!c.paperFound) c.angleSource = 'text';
  c.angle = Math.round(angle * 10) / 10;
  c.steps.push(`skew: ${c.angle}° (${c.angleSource})`);
}

/** Rotates the full image by -angle and crops to the paper (inset 1 %) or, without one, to the text. */
export async function deskewCrop(c: ReceiptCtx): Promise<void> {
  const { W, H, angle, scale } = c;
  // fill the corners opened by the rotation with the image's median grey (no artificial border edge)
  const med = percentileOf(histogram(c.g!), 0.5);
  const rot = await sharp(toBuffer(c.full), { raw: { width: W, height: H, channels: 1 } })
    .rotate(-angle, { background: { r: med, g: med, b: med, alpha: 1 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const RW = rot.info.width, RH = rot.info.height;
  const rd = rot.info.channels === 1 ? rot.data : Uint8Array.from({ length: RW * RH }, (_, i) => rot.data[i * rot.info.channels]!);
  // paper corners → full-res → rotated frame
  c.fullCorners = c.corners.map(([x, y]) => [x / scale, y / scale]);
  const a = -angle * DEG, ca = Math.cos(a), sa = Math.sin(a);
  const rc = c.fullCorners.map(([x, y]) => {
    const dx = x - W / 2, dy = y - H / 2;
    return [dx * ca - dy * sa + RW / 2, dx * sa + dy * ca + RH / 2] as Pt;
  });
  let x0 = Math.min(...rc.map((p) => p[0])), x1 = Math.max(...rc.map((p) => p[0]));
  let y0 = Math.min(...rc.map((p) => p[1])), y1 = Math.max(...rc.map((p) => p[1]));
  if (c.paperFound) {
    const ix = (x1 - x0) * 0.01, iy = (y1 - y0) * 0.01;
    x0 += ix; x1 -= ix; y0 += iy; y1 -= iy;
  } else {
    // no paper edge: crop to the text (robust 0.5–99.5 % extent of the ink in the deskewed frame) plus a margin
    const box = await inkBox(rd, RW, RH);
    if (box) [x0, y0, x1, y1] = box;
  }
  const cx = Math.max(0, Math.floor(x0)), cy = Math.max(0, Math.floor(y0));
  const cw = Math.max(1, Math.min(RW, Math.ceil(x1)) - cx), chh = Math.max(1, Math.min(RH, Math.ceil(y1)) - cy);
  c.crop = new Uint8Array(cw * chh);
  for (let y = 0; y < chh; y++) c.crop.set(rd.subarray((cy + y) * RW + cx, (cy + y) * RW + cx + cw), y * cw);
  c.cropBox = [cx, cy, cw, chh];
  c.steps.push(`deskew+crop: rotated by ${-angle}°, cropped to ${cw}x${chh} at (${cx},${cy})`);
}

/** To the 300-dpi width of 80 mm paper (945 px) unless the crop is narrower than half of that (then x2). */
export async function resize(c: ReceiptCtx): Promise<void> {
  const [, , cw, chh] = c.cropBox;
  const target = c.in.targetWidth ?? 945;
  c.tw = cw < target / 2 ? cw * 2 : target;
  c.th = Math.max(1, Math.round((chh * c.tw) / cw));
  c.sized = await resizeGrey(c.crop, cw, chh, c.tw, c.th);
  c.steps.push(`resize: ${c.tw}x${c.th} (${c.tw === target ? '80 mm at 300 dpi' : 'upscaled x2'})`);
}

/** Divides by the background (median + blur at 1/8 size): uneven lighting and shadows removed. */
export async function flatten(c: ReceiptCtx): Promise<void> {
  const { tw, th, sized } = c;
  const bw = Math.max(1, Math.round(tw / 8)), bh = Math.max(1, Math.round(th / 8));
  const bgSmall = await sharp(toBuffer(sized), { raw: { width: tw, height: th, channels: 1 } })
    .resize({ width: bw, height: bh, fit: 'fill' })
    .median(5)
    .blur(Math.max(1, bw / 30))
    .resize({ width: tw, height: th, fit: 'fill', kernel: 'cubic' })
    .greyscale()
    .raw()
    .toBuffer();
  c.flat = new Float32Array(tw * th);
  for (let i = 0; i < c.flat.length; i++) c.flat[i] = Math.min(255, (sized[i]! / Math.max(8, bgSmall[i]!)) * 235);
  c.steps.push('flatten: divided by the blurred background (uneven lighting removed)');
}

/** Sauvola (window ~ 1/24 of the width, k 0.2). */
export function threshold(c: ReceiptCtx): void {
  c.window = Math.max(15, Math.round(c.tw / 24) | 1);
  c.bin = sauvola({ data: c.flat, width: c.tw, height: c.th }, (c.window - 1) >> 1, SAUVOLA_K, 128);
  c.steps.push(`threshold: Sauvola window ${c.window} k ${SAUVOLA_K}`);
}

/** Removes dark specks of a few pixels at 945 px width (commas and dots of receipt print are larger). */
export function despeckle(c: ReceiptCtx): void {
  const speck = Math.max(2, Math.round((c.tw / 945) ** 2 * 4));
  const removed = removeSpecks(c.bin, c.tw, c.th, speck);
  c.steps.push(`despeckle: ${removed} pixels in specks <= ${speck} px removed`);
}

/** 1-bit PNG at 300 dpi. */
export function encode(c: ReceiptCtx): void {
  c.png = encodePng1(c.tw, c.th, c.bin, { threshold: 128, dpi: 300 });
}

// ---- measurements

/** The largest 4-connected component of the mask and how many of its pixels lie on the image border. */
function largestComponent(mask: Uint8Array, w: number, h: number): { pixels: Int32Array; touches: number } {
  let best = new Int32Array(0);
  forEachComponent(mask, w, h, (pix) => { if (pix.length > best.length) best = pix.slice(); }, { connectivity: 4 });
  let touches = 0;
  for (const j of best) {
    const x = j % w, y = (j - x) / w;
    if (x === 0 || y === 0 || x === w - 1 || y === h - 1) touches++;
  }
  return { pixels: best, touches };
}

/** Angle in (-45, 45] of the minimum-area bounding rectangle of the points, and that rectangle's corners. */
function minAreaRect(hull: Pt[]): { angle: number; corners: Pt[] } {
  let best = { area: Infinity, angle: 0, box: [0, 0, 0, 0] as number[] };
  for (let a = -45; a <= 45; a += 0.25) {
    const c = Math.cos(a * DEG), s = Math.sin(a * DEG);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const [x, y] of hull) {
      // rotate by -a
      const u = x * c + y * s, v = -x * s + y * c;
      if (u < x0) x0 = u;
      if (u > x1) x1 = u;
      if (v < y0) y0 = v;
      if (v > y1) y1 = v;
    }
    const area = (x1 - x0) * (y1 - y0);
    if (area < best.area - 1e-6) best = { area, angle: a, box: [x0, y0, x1, y1] };
  }
  const c = Math.cos(best.angle * DEG), s = Math.sin(best.angle * DEG);
  const [x0, y0, x1, y1] = best.box as [number, number, number, number];
  const back = (u: number, v: number): Pt => [u * c - v * s, u * s + v * c];
  return { angle: best.angle, corners: [back(x0, y0), back(x1, y0), back(x1, y1), back(x0, y1)] };
}

/** Text-line sharpness of dark pixels under a shear by angle a (degrees): sum of squared row counts. */
function profileScore(dark: Int32Array, w: number, a: number, rows: number): number {
  const t = Math.tan(a * DEG);
  const hist = new Float64Array(rows + 2 * w + 2);
  const off = w + 1;
  for (let k = 0; k < dark.length; k++) {
    const i = dark[k]!;
    const x = i % w, y = (i - x) / w;
    const yy = Math.round(y - x * t) + off;
    if (yy >= 0 && yy < hist.length) hist[yy]! += 1;
  }
  let s = 0;
  for (let i = 0; i < hist.length; i++) s += hist[i]! * hist[i]!;
  return s;
}

function searchAngle(dark: Int32Array, w: number, h: number, center: number, span: number, step: number): number {
  let best = center, bestScore = -1;
  for (let a = center - span; a <= center + span + 1e-9; a += step) {
    const sc = profileScore(dark, w, a, h);
    if (sc > bestScore) { bestScore = sc; best = a; }
  }
  return best;
}

/** Dark (ink) pixels of a grey image: darker than the local mean by a margin. */
function inkPixels(g: Grey, within?: Uint8Array): Int32Array {
  const bg = gaussianBlur(g, Math.max(4, g.width / 40));
  const out: number[] = [];
  for (let i = 0; i < g.data.length; i++) if ((!within || within[i]) && g.data[i]! < bg.data[i]! - 25) out.push(i);
  return Int32Array.from(out);
}

async function resizeGrey(data: Uint8Array, w: number, h: number, nw: number, nh: number): Promise<Uint8Array> {
  const { data: out } = await sharp(toBuffer(data), { raw: { width: w, height: h, channels: 1 } }).resize({ width: nw, height: nh, fit: 'fill', kernel: 'lanczos3' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return out;
}

/** Remove dark 8-connected specks smaller than minSize (set to white), in place. */
function removeSpecks(bin: Uint8Array, w: number, h: number, minSize: number): number {
  const dark = new Uint8Array(w * h);
  for (let i = 0; i < dark.length; i++) dark[i] = bin[i] === 0 ? 1 : 0;
  let removed = 0;
  // cap: components larger than minSize are only marked as seen, not collected
  forEachComponent(dark, w, h, (comp) => {
    if (comp.length <= minSize) {
      for (const j of comp) bin[j] = 255;
      removed += comp.length;
    }
  }, { cap: minSize });
  return removed;
}

/** Extent of the ink of a deskewed grey image (analysed at <= 800 px), with a 4 % margin; full-res coordinates. */
async function inkBox(rd: Uint8Array, RW: number, RH: number): Promise<[number, number, number, number] | undefined> {
  const sc = Math.min(1, ANALYSIS / Math.max(RW, RH));
  const sw = Math.max(1, Math.round(RW * sc)), sh = Math.max(1, Math.round(RH * sc));
  const small = sc < 1 ? await resizeGrey(rd, RW, RH, sw, sh) : rd;
  const ink = inkPixels(greyFromU8(small, sw, sh));
  if (ink.length < 200) return undefined;
  const xs = new Float64Array(ink.length), ys = new Float64Array(ink.length);
  for (let k = 0; k < ink.length; k++) {
    const i = ink[k]!;
    xs[k] = i % sw;
    ys[k] = (i - xs[k]!) / sw;
  }
  xs.sort();
  ys.sort();
  const q = (a: Float64Array, p: number): number => a[Math.min(a.length - 1, Math.floor(a.length * p))]!;
  let x0 = q(xs, 0.005), x1 = q(xs, 0.995) + 1, y0 = q(ys, 0.005), y1 = q(ys, 0.995) + 1;
  const mx = (x1 - x0) * 0.04 + 4, my = (y1 - y0) * 0.04 + 4;
  x0 = Math.max(0, x0 - mx); x1 = Math.min(sw, x1 + mx); y0 = Math.max(0, y0 - my); y1 = Math.min(sh, y1 + my);
  return [x0 / sc, y0 / sc, x1 / sc, y1 / sc];
}

