// OCR engine: PP-OCRv4 mobile text detection (DB) + PP-OCRv3 Korean recognition (CTC) for every line, PP-OCRv4
// Chinese/Latin recognition for Latin and digit fields; sessions reused per worker.
import fs from 'node:fs';
import path from 'node:path';
import { run, tensor, modelTag, MODEL_DIR } from './models.js';
import { cropResize, type Box, type Raster, type RgbImage } from './raster.js';
import { TESSERACT_TAG } from './ocr-tesseract.js';

/** detector and recognisers (Korean for every line, Chinese/Latin for the Latin and digit fields of ID cards,
 * Tesseract as a second reader of Hangul names: name-vote.ts) */
export const OCR_MODELS = { detector: modelTag('ocrDet'), recognizer: `${modelTag('ocrRec')}, ${modelTag('ocrRecLatin')}, ${TESSERACT_TAG}` };

export interface TextLine {
  /** recognised text ('' when nothing was read) */
  text: string;
  /** mean per-character probability, 0..1 (0 for an empty line) */
  confidence: number;
  /** [x1, y1, x2, y2] in image pixels */
  box: Box;
  /** probability of each character of text (spaces inserted from gaps have none) */
  charConfidences: number[];
  /** x centre (image pixels) of each non-space character of text */
  charX: number[];
}

/** The two recognisers: PP-OCRv3 Korean (every line) and PP-OCRv4 Chinese/Latin (Latin and digit fields). */
export type RecKey = 'ocrRec' | 'ocrRecLatin';
const DICT_FILES: Record<RecKey, string> = { ocrRec: 'dict_korean.txt', ocrRecLatin: 'dict_ppocr_keys_v1.txt' };
const dicts = new Map<RecKey, string[]>();
function charset(rec: RecKey = 'ocrRec'): string[] {
  let dict = dicts.get(rec);
  if (!dict) {
    const lines = fs.readFileSync(path.join(MODEL_DIR, DICT_FILES[rec]), 'utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    dict = ['', ...lines.map((l) => l.replace(/\r$/, '')), ' '];
    dicts.set(rec, dict);
  }
  return dict;
}

// ------------------------------------------------------------------ detection (DB)
export interface DetectTextOptions {
  /** longer side the page is scaled to before detection (multiple of 32; default 960) */
  limitSide?: number;
  /** binarisation threshold of the probability map (default 0.3) */
  thresh?: number;
  /** minimum mean probability of a region (default 0.6) */
  boxThresh?: number;
  /** unclip ratio (default 1.6) */
  unclip?: number;
}

export async function detectTextBoxes(img: RgbImage, opts: DetectTextOptions = {}): Promise<Array<{ box: Box; score: number }>> {
  const limit = opts.limitSide ?? 960;
  const thresh = opts.thresh ?? 0.3, boxThresh = opts.boxThresh ?? 0.6, unclip = opts.unclip ?? 1.6;
  const r = Math.min(1, limit / Math.max(img.width, img.height));
  const W = Math.max(32, Math.round((img.width * r) / 32) * 32), H = Math.max(32, Math.round((img.height * r) / 32) * 32);
  const small = cropResize(img, 0, 0, img.width, img.height, W, H);
  const n = W * H;
  const input = new Float32Array(3 * n);
  const mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225];
  for (let i = 0; i < n; i++) {
    // BGR order, ImageNet statistics in Paddle's channel order
    input[i] = (small.data[i * 3 + 2]! / 255 - mean[0]!) / std[0]!;
    input[n + i] = (small.data[i * 3 + 1]! / 255 - mean[1]!) / std[1]!;
    input[2 * n + i] = (small.data[i * 3]! / 255 - mean[2]!) / std[2]!;
  }
  const out = await run('ocrDet', { x: tensor(input, [1, 3, H, W]) });
  const prob = out[Object.keys(out)[0]!]!.data as Float32Array;
  // connected components of the binary map (4-connectivity)
  const label = new Int32Array(n).fill(-1);
  const boxes: Array<{ box: Box; score: number }> = [];
  const stack: number[] = [];
  const sx = img.width / W, sy = img.height / H;
  for (let start = 0; start < n; start++) {
    if (label[start] !== -1 || prob[start]! < thresh) continue;
    let x1 = W, y1 = H, x2 = 0, y2 = 0, sum = 0, cnt = 0;
    stack.push(start);
    label[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % W, y = (p - x) / W;
      sum += prob[p]!;
      cnt++;
      if (x < x1) x1 = x;
      if (x > x2) x2 = x;
      if (y < y1) y1 = y;
      if (y > y2) y2 = y;
      const nb = [x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1, y > 0 ? p - W : -1, y < H - 1 ? p + W : -1];
      for (const q of nb) if (q >= 0 && label[q] === -1 && prob[q]! >= thresh) { label[q] = 1; stack.push(q); }
    }
    if (cnt < 6) continue;
    const score = sum / cnt;
    if (score < boxThresh) continue;
    const w = x2 - x1 + 1, h = y2 - y1 + 1;
    if (Math.min(w, h) < 3) continue;
    // unclip: grow by area·ratio / perimeter on every side
    const d = (w * h * unclip) / (2 * (w + h));
    boxes.push({
      box: [Math.max(0, (x1 - d) * sx), Math.max(0, (y1 - d) * sy), Math.min(img.width, (x2 + 1 + d) * sx), Math.min(img.height, (y2 + 1 + d) * sy)],
      score,
    });
  }
  // reading order: top to bottom, then left to right within a line
  boxes.sort((a, b) => {
    const ha = a.box[3] - a.box[1];
    if (Math.abs(a.box[1] - b.box[1]) < ha * 0.5) return a.box[0] - b.box[0];
    return a.box[1] - b.box[1];
  });
  return boxes;
}

// ------------------------------------------------------------------ recognition (CTC)
const REC_H = 48;
/** horizontal margin added to each line box before recognition, as a fraction of its height */
const PAD_X = 0.15; // measured on 30 rendered cards: 0 → status 0.93, 0.15 → 1.00, 0.25 → name 0.98, 0.5 worse

/** The recogniser's per-timestep class probabilities for one line (T steps × K classes) and where they sit. */
export interface LineProbs {
  probs: Float32Array;
  T: number;
  K: number;
  /** the line's box (image pixels) and the left edge of the padded crop it was read from */
  box: Box;
  x0: number;
  /** image pixels per timestep */
  pxPerStep: number;
  rec: RecKey;
}

/** Run the recogniser on each box (cropped from img, margin padX × height each side, scaled to height 48, batched). */
export async function lineProbs(img: Raster, boxes: Box[], batch = 8, padX = PAD_X, rec: RecKey = 'ocrRec'): Promise<LineProbs[]> {
  const out: LineProbs[] = [];
  for (let b0 = 0; b0 < boxes.length; b0 += batch) {
    const group = boxes.slice(b0, b0 + batch);
    // a little horizontal context on both sides: short lines (a visa code "F-4") lose their first glyph without it
    const padded = group.map((b): Box => { const m = padX * (b[3] - b[1]); return [b[0] - m, b[1], b[2] + m, b[3]]; });
    const widths = padded.map((b) => Math.max(16, Math.min(1600, Math.round(((b[2] - b[0]) / Math.max(1, b[3] - b[1])) * REC_H))));
    const Wmax = Math.max(...widths.map((w) => Math.ceil(w / 8) * 8), 64);
    const input = new Float32Array(group.length * 3 * REC_H * Wmax); // zero = mid grey after normalisation
    group.forEach((b, k) => {
      const w = widths[k]!;
      const pb = padded[k]!;
      const crop = cropResize(img, pb[0], pb[1], pb[2] - pb[0], pb[3] - pb[1], w, REC_H, 255);
      const plane = REC_H * Wmax;
      const base = k * 3 * plane;
      const C = crop.channels;
      for (let y = 0; y < REC_H; y++) for (let x = 0; x < w; x++) {
        const o = (y * w + x) * C;
        const r = crop.data[o]!, g = crop.data[o + (C > 1 ? 1 : 0)]!, bl = crop.data[o + (C > 1 ? 2 : 0)]!;
        const p = y * Wmax + x;
        input[base + p] = bl / 127.5 - 1;
        input[base + plane + p] = g / 127.5 - 1;
        input[base + 2 * plane + p] = r / 127.5 - 1;
      }
    });
    const res = await run(rec, { x: tensor(input, [group.length, 3, REC_H, Wmax]) });
    const t = res[Object.keys(res)[0]!]!;
    const [, T, K] = t.dims as [number, number, number];
    const data = t.data as Float32Array;
    group.forEach((b, k) => {
      const pxPerStep = (Wmax / T) * ((padded[k]![2] - padded[k]![0]) / widths[k]!);
      out.push({ probs: data.slice(k * T * K, (k + 1) * T * K), T, K, box: b, x0: padded[k]![0], pxPerStep, rec });
    });
  }
  return out;
}

/** Class indices (0 = CTC blank, always allowed) whose character passes test; ' ' is the model's space class. */
export function charsetMask(test: (ch: string) => boolean, rec: RecKey = 'ocrRec'): Uint8Array {
  const chars = charset(rec);
  const m = new Uint8Array(chars.length);
  m[0] = 1;
  for (let c = 1; c < chars.length; c++) if (test(chars[c]!)) m[c] = 1;
  return m;
}

/** Mean of several readings of the same line (same crop width, so the same timesteps): a per-frame vote. */
export function meanProbs(ls: LineProbs[]): LineProbs {
  const first = ls[0]!;
  const same = ls.filter((l) => l.T === first.T && l.K === first.K);
  const probs = new Float32Array(first.probs.length);
  for (const l of same) for (let i = 0; i < probs.length; i++) probs[i] += l.probs[i]! / same.length;
  return { ...first, probs };
}

/** Greedy CTC decoding, restricted to the classes of allow when given (a field's alphabet). */
export function decodeLine(lp: LineProbs, allow?: Uint8Array): TextLine {
  const chars = charset(lp.rec);
  const { probs: data, T, K } = lp;
  const emitted: Array<{ ch: string; p: number; t: number }> = [];
  let prev = 0;
  for (let i = 0; i < T; i++) {
    const o = i * K;
    let best = 0, bp = data[o]!;
    for (let c = 1; c < K; c++) if (data[o + c]! > bp && (!allow || allow[c])) { bp = data[o + c]!; best = c; }
    if (best !== 0 && best !== prev) emitted.push({ ch: chars[best] ?? '', p: bp, t: i });
    prev = best;
  }
  // timestep → image x; a gap much wider than the usual character pitch becomes a space
  const glyphs = emitted.filter((e) => e.ch.trim() !== '');
  const steps = glyphs.slice(1).map((e, j) => e.t - glyphs[j]!.t).sort((x, y) => x - y);
  const pitch = steps.length ? steps[Math.floor(steps.length / 2)]! : 0;
  let text = '';
  const confs: number[] = [];
  const xs: number[] = [];
  let last: { t: number } | null = null;
  for (const e of emitted) {
    if (e.ch.trim() === '') {
      if (text && !text.endsWith(' ')) text += ' ';
      continue;
    }
    if (last && pitch > 0 && e.t - last.t > Math.max(pitch * 1.9, pitch + 3) && !text.endsWith(' ')) text += ' ';
    text += e.ch;
    confs.push(e.p);
    xs.push(lp.x0 + (e.t + 0.5) * lp.pxPerStep);
    last = e;
  }
  return { text: text.trim(), confidence: confs.length ? confs.reduce((s, x) => s + x, 0) / confs.length : 0, box: lp.box, charConfidences: confs, charX: xs };
}

/** Read the text in each box (one line per box). Boxes are cropped from img, scaled to height 48, batched. */
export async function recognizeBoxes(img: Raster, boxes: Box[], batch = 8, padX = PAD_X): Promise<TextLine[]> {
  return (await lineProbs(img, boxes, batch, padX)).map((l) => decodeLine(l));
}

export interface OcrRegionsOptions extends DetectTextOptions {
  /** read only these boxes (image pixels) instead of detecting text */
  regions?: Box[];
}

/** Detect the text lines of a page (or take the given regions) and read each one. */
export async function ocrRegions(img: RgbImage, opts: OcrRegionsOptions = {}): Promise<TextLine[]> {
  const boxes = opts.regions ?? (await detectTextBoxes(img, opts)).map((b) => b.box);
  if (!boxes.length) return [];
  return recognizeBoxes(img, boxes);
}

/** The text of a page, lines joined by '\n', with the mean line confidence. */
export async function recognizeText(img: RgbImage, opts: OcrRegionsOptions = {}): Promise<{ text: string; confidence: number; lines: TextLine[] }> {
  const lines = (await ocrRegions(img, opts)).filter((l) => l.text);
  const confidence = lines.length ? lines.reduce((s, l) => s + l.confidence, 0) / lines.length : 0;
  return { text: lines.map((l) => l.text).join('\n'), confidence, lines };
}
