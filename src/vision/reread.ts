// Second reading of a weak field line (small, blurred or glared captures): the line's region is prepared in two
// ways — background flattened and stretched (glare, uneven light), unsharp-masked (blur) — and read again.
import type { Box, Raster } from './raster.js';
import type { TextLine, RecKey, LineProbs } from './ocr.js';

interface GreyRegion { g: Float32Array; w: number; h: number; x0: number; y0: number }

function region(img: Raster, box: Box, margin: number): GreyRegion {
  const x0 = Math.max(0, Math.floor(box[0] - margin)), y0 = Math.max(0, Math.floor(box[1] - margin));
  const x1 = Math.min(img.width, Math.ceil(box[2] + margin)), y1 = Math.min(img.height, Math.ceil(box[3] + margin));
  const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0), C = img.channels;
  const g = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = ((y0 + y) * img.width + x0 + x) * C;
    g[y * w + x] = C >= 3 ? 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]! : img.data[o]!;
  }
  return { g, w, h, x0, y0 };
}

/** Separable box mean with radius r (edges clamped). */
function boxBlur(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0;
    for (let k = -r; k <= r; k++) s += src[y * w + Math.min(w - 1, Math.max(0, x + k))]!;
    tmp[y * w + x] = s / (2 * r + 1);
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0;
    for (let k = -r; k <= r; k++) s += tmp[Math.min(h - 1, Math.max(0, y + k)) * w + x]!;
    out[y * w + x] = s / (2 * r + 1);
  }
  return out;
}

function stretch(v: Float32Array, lo: number, hi: number): Uint8Array {
  const s = [...v].sort((a, b) => a - b);
  const a = s[Math.floor(lo * (s.length - 1))]!, b = Math.max(a + 1, s[Math.floor(hi * (s.length - 1))]!);
  const out = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(((v[i]! - a) * 255) / (b - a))));
  return out;
}

/** Prepared copies of the region around a text line; each with the line's box in the copy's pixels. */
export function lineVariants(img: Raster, box: Box): Array<{ name: string; img: Raster; box: Box }> {
  const lh = Math.max(4, box[3] - box[1]);
  const R = region(img, box, lh * 0.5);
  const local: Box = [box[0] - R.x0, box[1] - R.y0, box[2] - R.x0, box[3] - R.y0];
  // 1. flatten: divide by the local background (a box mean about one line high), then stretch 1–99 %
  const bg = boxBlur(R.g, R.w, R.h, Math.max(3, Math.round(lh * 0.6)));
  const flat = new Float32Array(R.g.length);
  for (let i = 0; i < flat.length; i++) flat[i] = R.g[i]! / Math.max(8, bg[i]!);
  // 2. unsharp mask (radius ≈ stroke width), after a contrast stretch
  const st = stretch(R.g, 0.01, 0.99);
  const stF = Float32Array.from(st);
  const soft = boxBlur(stF, R.w, R.h, Math.max(1, Math.round(lh / 14)));
  const sharp = new Float32Array(stF.length);
  for (let i = 0; i < sharp.length; i++) sharp[i] = stF[i]! + 1.5 * (stF[i]! - soft[i]!);
  const mk = (data: Uint8Array): Raster => ({ data, width: R.w, height: R.h, channels: 1 });
  return [
    { name: 'flatten', img: mk(stretch(flat, 0.01, 0.995)), box: local },
    { name: 'sharpen', img: mk(stretch(sharp, 0.005, 0.995)), box: local },
  ];
}

/** Every reading of a line: the line as it is, each prepared copy, and the per-frame mean of all three, decoded
 * within the field's alphabet when allow is given. */
export async function lineReadings(img: Raster, box: Box, allow?: Uint8Array, rec: RecKey = 'ocrRec', plain?: LineProbs): Promise<Array<{ name: string; line: TextLine }>> {
  const { lineProbs, meanProbs, decodeLine } = await import('./ocr.js');
  // plain: the line's probabilities when the caller already has them (one recogniser pass fewer)
  const probs = [{ name: 'plain', lp: plain ?? (await lineProbs(img, [box], 1, undefined, rec))[0]!, dx: 0 }];
  for (const v of lineVariants(img, box)) probs.push({ name: v.name, lp: (await lineProbs(v.img, [v.box], 1, undefined, rec))[0]!, dx: box[0] - v.box[0] });
  // glyph positions and boxes back in img's pixels (the prepared copies are cut around the line)
  const out = probs.map((p) => {
    const line = decodeLine(p.lp, allow);
    return { name: p.name, line: { ...line, box, charX: line.charX.map((x) => x + p.dx) } };
  });
  out.push({ name: 'mean', line: decodeLine(meanProbs(probs.map((p) => p.lp)), allow) });
  return out;
}

export interface FieldReading { text: string; confidence: number; valid: boolean; /** x centre of each non-space glyph */ x: number[] }

/**
 * The best reading of a field line with recogniser rec within its alphabet: the line as it is when that is valid
 * and confident, else the valid reading (plain, prepared copies, their mean) with the highest mean probability.
 * repair mends each reading before it is judged (a two-word name read without its space); prepared false: the
 * plain line only.
 */
export async function bestReading(img: Raster, box: Box, rec: RecKey, allow: Uint8Array | undefined, ok: (t: string) => boolean, repair: (t: string, x: number[]) => string = (t) => t, sure = 0.9, prepared = true): Promise<FieldReading> {
  const { lineProbs, decodeLine } = await import('./ocr.js');
  const lp = (await lineProbs(img, [box], 1, undefined, rec))[0]!;
  const first = decodeLine(lp, allow);
  const t0 = repair(first.text, first.charX);
  let best: FieldReading = { text: t0, confidence: first.confidence, valid: ok(t0), x: first.charX };
  if ((best.valid && best.confidence >= sure) || !prepared) return best;
  for (const r of (await lineReadings(img, box, allow, rec, lp)).slice(1)) {
    const text = repair(r.line.text, r.line.charX);
    const valid = ok(text);
    if ((valid && !best.valid) || (valid === best.valid && r.line.confidence > best.confidence)) best = { text, confidence: r.line.confidence, valid, x: r.line.charX };
  }
  return best;
}

/** x (image pixels) of the widest run of ink-free columns between the first and last ink of a text line, or null. */
export function widestInkGap(img: Raster, box: Box): number | null {
  const lh = Math.max(4, box[3] - box[1]);
  const R = region(img, [box[0], box[1] + lh * 0.2, box[2], box[3] - lh * 0.2], 0);
  const col = new Float32Array(R.w);
  for (let x = 0; x < R.w; x++) {
    let s = 0;
    for (let y = 0; y < R.h; y++) s += 255 - R.g[y * R.w + x]!;
    col[x] = s / R.h;
  }
  const sorted = [...col].sort((a, b) => a - b);
  const bg = sorted[Math.floor(sorted.length * 0.2)]!, top = sorted[sorted.length - 1]!;
  if (top - bg < 20) return null;
  const ink = (x: number) => col[x]! > bg + 0.25 * (top - bg);
  let first = 0, last = R.w - 1;
  while (first < R.w && !ink(first)) first++;
  while (last > first && !ink(last)) last--;
  let best = -1, bestW = 0;
  for (let x = first; x <= last; ) {
    if (ink(x)) { x++; continue; }
    let e = x;
    while (e <= last && !ink(e)) e++;
    if (e - x > bestW) { bestW = e - x; best = (x + e) / 2; }
    x = e;
  }
  return best < 0 ? null : R.x0 + best;
}
