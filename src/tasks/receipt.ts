// Receipt optimisation for OCR. Steps, top to bottom (docs/image.md#receipt):
//   findPaper    analysis copy (longer side 800): blur, Otsu, largest bright component = the paper
//   skew         minimum-area rectangle of the paper's hull over -45..45°, refined by the text-line
//                projection profile (or the profile alone when no paper edge is visible)
//   deskew+crop  rotate the full image, crop to the paper (inset 1%)
//   resize       to 300-dpi width of 80 mm paper (945 px) unless the crop is narrower than half of that
//   flatten      divide by a heavily blurred background estimate (uneven lighting, shadows)
//   threshold    Sauvola (window ~ 1/24 of the width, k 0.2)
//   despeckle    remove dark specks smaller than ~ (width/500)^2 pixels
//   encode       1-bit PNG with 300 dpi
import sharp from 'sharp';
import { checkImage, checkAspect, decodeChecked, toBuffer, type DecodeOptions } from './lib/image-io.js';
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

export interface ReceiptOutput {
  png: Uint8Array;
  width: number;
  height: number;
  /** detected skew of the receipt in degrees (positive = rotated clockwise); the image was rotated by -angle */
  angle: number;
  angleSource: 'paper-edge+text' | 'text';
  paperFound: boolean;
  /** paper corners (TL, TR, BR, BL) in input pixels */
  paperCorners: Pt[];
  /** crop applied in the deskewed frame: [x, y, width, height] */
  cropBox: [number, number, number, number];
  threshold: { method: 'sauvola'; window: number; k: number };
  dpi: number;
  steps: string[];
  inputWidth: number;
  inputHeight: number;
}

const ANALYSIS = 800;
const DEG = Math.PI / 180;

function largestComponent(mask: Uint8Array, w: number, h: number): { pixels: Int32Array; touches: number } {
  const label = new Uint8Array(w * h);
  let best: number[] = [];
  let bestTouch = 0;
  const stack: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || label[i]) continue;
    const pix: number[] = [];
    let touch = 0;
    label[i] = 1;
    stack.push(i);
    while (stack.length) {
      const j = stack.pop()!;
      pix.push(j);
      const x = j % w, y = (j - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) touch++;
      if (x > 0 && mask[j - 1] && !label[j - 1]) { label[j - 1] = 1; stack.push(j - 1); }
      if (x < w - 1 && mask[j + 1] && !label[j + 1]) { label[j + 1] = 1; stack.push(j + 1); }
      if (y > 0 && mask[j - w] && !label[j - w]) { label[j - w] = 1; stack.push(j - w); }
      if (y < h - 1 && mask[j + w] && !label[j + w]) { label[j + w] = 1; stack.push(j + w); }
    }
    if (pix.length > best.length) {
      best = pix;
      bestTouch = touch;
    }
  }
  return { pixels: Int32Array.from(best), touches: bestTouch };
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
function despeckle(bin: Uint8Array, w: number, h: number, minSize: number): number {
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

/** Smallest side and largest side ratio of a receipt photo (long till receipts included). */
export const RECEIPT_MIN_SIDE = 64, RECEIPT_MAX_ASPECT = 20;

export default async function receipt(input: ReceiptInput): Promise<ReceiptOutput> {
  const steps: string[] = [];
  const c = await checkImage(input.image, input);
  // thinner images cannot show a readable receipt and are thinner than the analysis windows
  if (Math.min(c.width, c.height) < RECEIPT_MIN_SIDE) {
    throw badInput(c.field, `The image in ${c.field} is ${c.width}x${c.height}; a receipt photo must be at least ${RECEIPT_MIN_SIDE} pixels on each side`);
  }
  checkAspect(c, RECEIPT_MAX_ASPECT, 'a receipt photo');
  const full = await decodeChecked(c, 1, 4000);
  const W = full.width, H = full.height;

  // ---- findPaper (analysis copy)
  const scale = Math.min(1, ANALYSIS / Math.max(W, H));
  const aw = Math.max(1, Math.round(W * scale)), ah = Math.max(1, Math.round(H * scale));
  const small = scale < 1 ? await resizeGrey(full.data, W, H, aw, ah) : full.data;
  const g = greyFromU8(small, aw, ah);
  const blurred = gaussianBlur(g, 2);
  const thr = otsu(histogram(blurred));
  const mask = new Uint8Array(aw * ah);
  for (let i = 0; i < mask.length; i++) mask[i] = blurred.data[i]! > thr ? 1 : 0;
  const comp = largestComponent(mask, aw, ah);
  const frac = comp.pixels.length / (aw * ah);
  // paper visible as a separate bright region (not the whole frame, not touching much of the border)
  const paperFound = frac > 0.05 && frac < 0.92 && comp.touches < 0.25 * (aw + ah);
  let angle: number;
  let corners: Pt[];
  let inside: Uint8Array | undefined;
  if (paperFound) {
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
    angle = rect.angle;
    corners = rect.corners;
    inside = new Uint8Array(aw * ah);
    for (const j of comp.pixels) inside[j] = 1;
    steps.push(`findPaper: bright region ${(frac * 100).toFixed(1)}% of the image (Otsu ${thr})`);
  } else {
    angle = 0;
    corners = [[0, 0], [aw, 0], [aw, ah], [0, ah]];
    steps.push('findPaper: no separate paper region; the whole image is treated as the receipt');
  }

  // ---- skew: refine with the text-line projection profile
  const ink = inkPixels(g, inside);
  let angleSource: ReceiptOutput['angleSource'] = 'paper-edge+text';
  if (ink.length > 200) {
    if (paperFound) angle = searchAngle(ink, aw, ah, angle, 2, 0.1);
    else {
      angleSource = 'text';
      const coarse = searchAngle(ink, aw, ah, 0, 45, 1);
      angle = searchAngle(ink, aw, ah, coarse, 1, 0.1);
    }
  } else if (!paperFound) angleSource = 'text';
  angle = Math.round(angle * 10) / 10;
  steps.push(`skew: ${angle}° (${angleSource})`);

  // ---- deskew + crop (full resolution)
  // fill the corners opened by the rotation with the image's median grey (no artificial border edge)
  const med = percentileOf(histogram(g), 0.5);
  const rot = await sharp(toBuffer(full.data), { raw: { width: W, height: H, channels: 1 } })
    .rotate(-angle, { background: { r: med, g: med, b: med, alpha: 1 } })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const RW = rot.info.width, RH = rot.info.height;
  const rd = rot.info.channels === 1 ? rot.data : Uint8Array.from({ length: RW * RH }, (_, i) => rot.data[i * rot.info.channels]!);
  // paper corners → full-res → rotated frame
  const fullCorners: Pt[] = corners.map(([x, y]) => [x / scale, y / scale]);
  const a = -angle * DEG, ca = Math.cos(a), sa = Math.sin(a);
  const rc = fullCorners.map(([x, y]) => {
    const dx = x - W / 2, dy = y - H / 2;
    return [dx * ca - dy * sa + RW / 2, dx * sa + dy * ca + RH / 2] as Pt;
  });
  let x0 = Math.min(...rc.map((p) => p[0])), x1 = Math.max(...rc.map((p) => p[0]));
  let y0 = Math.min(...rc.map((p) => p[1])), y1 = Math.max(...rc.map((p) => p[1]));
  if (paperFound) {
    const ix = (x1 - x0) * 0.01, iy = (y1 - y0) * 0.01;
    x0 += ix; x1 -= ix; y0 += iy; y1 -= iy;
  } else {
    // no paper edge: crop to the text (robust 0.5–99.5 % extent of the ink in the deskewed frame) plus a margin
    const box = await inkBox(rd, RW, RH);
    if (box) [x0, y0, x1, y1] = box;
  }
  const cx = Math.max(0, Math.floor(x0)), cy = Math.max(0, Math.floor(y0));
  const cw = Math.max(1, Math.min(RW, Math.ceil(x1)) - cx), chh = Math.max(1, Math.min(RH, Math.ceil(y1)) - cy);
  const crop = new Uint8Array(cw * chh);
  for (let y = 0; y < chh; y++) crop.set(rd.subarray((cy + y) * RW + cx, (cy + y) * RW + cx + cw), y * cw);
  steps.push(`deskew+crop: rotated by ${-angle}°, cropped to ${cw}x${chh} at (${cx},${cy})`);

  // ---- resize to the 300-dpi width
  const target = input.targetWidth ?? 945;
  const tw = cw < target / 2 ? cw * 2 : target;
  const th = Math.max(1, Math.round((chh * tw) / cw));
  const sized = await resizeGrey(crop, cw, chh, tw, th);
  steps.push(`resize: ${tw}x${th} (${tw === target ? '80 mm at 300 dpi' : 'upscaled x2'})`);

  // ---- flatten lighting: divide by the background (blurred at 1/8 size)
  const bw = Math.max(1, Math.round(tw / 8)), bh = Math.max(1, Math.round(th / 8));
  const bgSmall = await sharp(toBuffer(sized), { raw: { width: tw, height: th, channels: 1 } })
    .resize({ width: bw, height: bh, fit: 'fill' })
    .median(5)
    .blur(Math.max(1, bw / 30))
    .resize({ width: tw, height: th, fit: 'fill', kernel: 'cubic' })
    .greyscale()
    .raw()
    .toBuffer();
  const flat = new Float32Array(tw * th);
  for (let i = 0; i < flat.length; i++) flat[i] = Math.min(255, (sized[i]! / Math.max(8, bgSmall[i]!)) * 235);
  steps.push('flatten: divided by the blurred background (uneven lighting removed)');

  // ---- Sauvola threshold + despeckle
  const window = Math.max(15, Math.round(tw / 24) | 1);
  const k = 0.2;
  const bin = sauvola({ data: flat, width: tw, height: th }, (window - 1) >> 1, k, 128);
  // specks: a few pixels at 945 px width (commas and dots of receipt print are larger)
  const speck = Math.max(2, Math.round((tw / 945) ** 2 * 4));
  const removed = despeckle(bin, tw, th, speck);
  steps.push(`threshold: Sauvola window ${window} k ${k}`, `despeckle: ${removed} pixels in specks <= ${speck} px removed`);

  const png = encodePng1(tw, th, bin, { threshold: 128, dpi: 300 });
  return {
    png,
    width: tw,
    height: th,
    angle,
    angleSource,
    paperFound,
    paperCorners: fullCorners.map(([x, y]) => [Math.round(x), Math.round(y)] as Pt),
    cropBox: [cx, cy, cw, chh],
    threshold: { method: 'sauvola', window, k },
    dpi: 300,
    steps,
    inputWidth: W,
    inputHeight: H,
  };
}
