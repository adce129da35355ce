// The steps of the chroma key (src/tasks/chroma-key.ts runs them in order, imgproxy style, timing each); the
// edge steps (unmixEdges, smoothEdges) are in chroma-key-edges.ts.
// All pixel work is on typed arrays in single passes; OKLab is computed for the border (key colour) and, per
// pixel, only as the distance to the key (memoised per colour) — the full Lab image is never stored.
// The per-pixel planes (distance, alpha, the RGBA out) and the memo tables come from the thread's scratch
// (lib/scratch.ts): a pool worker reuses them image after image instead of allocating ≈ 25 MB of fresh typed arrays
// per 1024² image, which cost page faults in the worker and a major GC per image ("external memory pressure") on
// V8's platform threads — CPU beside the worker that kept 1 → 2 workers from scaling (issue 19). Every array taken
// from the scratch is written whole (or filled) before it is read; none of them is part of the output.
import sharp from 'sharp';
import { checkImage, decodeChecked, toBuffer, type Checked, type DecodeOptions } from './lib/image-io.js';
import { badInput } from './lib/task-error.js';
import { oklabToSrgbInto, parseHex, srgbToOklab } from './lib/colour.js';
import { otsu } from './lib/gray.js';
import { select } from './lib/canny.js';
import { MAX_REUSED_BYTES, threadScratch } from './lib/scratch.js';

export interface ChromaKeyInput extends DecodeOptions {
  image: Uint8Array;
  /** "#rrggbb" or "auto" */
  color: string;
  /** 0..255; derived from the image when omitted */
  tolerance?: number;
  edgeSmoothing?: boolean;
  trimTransparent?: boolean;
}

/** The pipeline's shared state; each step fills in what the next ones read. */
export interface KeyCtx {
  in: ChromaKeyInput;
  given?: [number, number, number];
  edgeSmoothing: boolean;
  trim: boolean;
  checked?: Checked;
  w: number;
  h: number;
  px: Uint8Array;
  border: Int32Array;
  key: [number, number, number];
  keyRgb: [number, number, number];
  dist: Float32Array;
  hist: Uint32Array;
  tol: number;
  tolSource: 'given' | 'auto';
  softness: number;
  alpha: Float32Array;
  /** pixels on the ½ contour of the smoothstep alpha (set by the alpha step) */
  contour: number[];
  out: Uint8Array;
  transparent: number;
  semi: number;
  box: [number, number, number, number];
  png: Uint8Array;
}

/** Distance scale: OKLab distance DIST_SCALE → 255. */
const DIST_SCALE = 0.5;
/** Lightness weight in the key distance (shadows and lighting gradients on the screen mostly change L). */
const L_WEIGHT = 0.4;
/** PNG output: zlib level 6 without adaptive filtering (at 2048² keyed: 42 ms, 346 KB; level 3 38 ms but 449 KB;
 * adaptive filtering halves the bytes for 5x the time). */
const PNG_LEVEL = 6;

export function checkArgs(c: KeyCtx): void {
  const colorArg = (c.in.color ?? '').trim();
  c.given = colorArg.toLowerCase() === 'auto' ? undefined : parseHex(colorArg);
  if (colorArg.toLowerCase() !== 'auto' && !c.given) throw badInput('chromaKey.color', `Expected a hex colour such as "#00ff00" or "auto" for chromaKey.color but received "${colorArg.slice(0, 40)}"`);
  const tol = c.in.tolerance;
  if (tol !== undefined && (!Number.isInteger(tol) || tol < 0 || tol > 255)) {
    throw badInput('chromaKey.tolerance', `Expected an integer from 0 to 255 for chromaKey.tolerance but received ${tol}`);
  }
}

export async function checkHeader(c: KeyCtx): Promise<void> {
  c.checked = await checkImage(c.in.image, { ...c.in, field: c.in.field ?? 'imageUrl' });
}

export async function decode(c: KeyCtx): Promise<void> {
  const img = await decodeChecked(c.checked!, 4);
  c.w = img.width;
  c.h = img.height;
  // copied into the thread's plane when it is one the scratch keeps: sharp's buffer (native memory, which V8 counts
  // as external and lets only a GC free) is then garbage at once and goes at the next scavenge, instead of living
  // through the key and into a second one; V8 starts a mark-compact once ≈ 8 MB of such memory piles up (issue 19)
  const n = img.data.length;
  c.px = n <= MAX_REUSED_BYTES ? threadScratch.get('u8', 'chroma.px', n) : img.data;
  if (c.px !== img.data) c.px.set(img.data);
}

/** Sampled ring of border pixels (about 2 % of the short side deep). */
export function borderRing(c: KeyCtx): void {
  const { w, h } = c;
  const ring = Math.max(2, Math.round(Math.min(w, h) * 0.02));
  const step = Math.max(1, Math.floor((2 * (w + h) * ring) / 40000));
  // the same walk twice: count, then fill (a growing JS array of ~6·10⁴ indices was ≈ 1.8 MB of garbage per 1024²
  // image, a third of what the key left for the worker's GC)
  const walk = (out?: Int32Array): number => {
    let k = 0;
    for (let y = 0; y < h; y++) {
      const edgeRow = y < ring || y >= h - ring;
      for (let x = 0; x < w; x += edgeRow ? step : 1) {
        if (!edgeRow && x >= ring && x < w - ring) {
          x = w - ring - 1;
          continue;
        }
        if (out) out[k] = y * w + x;
        k++;
      }
    }
    return k;
  };
  c.border = threadScratch.get('i32', 'chroma.border', walk());
  walk(c.border);
}

/** The key colour: given, or the dominant chroma of the border (2-D a/b histogram peak, mean of its neighbourhood). */
export function keyColour(c: KeyCtx): void {
  if (c.given) {
    c.keyRgb = c.given;
    c.key = srgbToOklab(c.given[0], c.given[1], c.given[2]) as [number, number, number];
    return;
  }
  const { border, px } = c;
  const lab = threadScratch.get('f32', 'chroma.border-lab', border.length * 3);
  for (let j = 0; j < border.length; j++) {
    const o = border[j]! * 4;
    srgbToOklab(px[o]!, px[o + 1]!, px[o + 2]!, lab, j * 3);
  }
  const N = 48, R = 0.4;
  const bin = (v: number): number => Math.max(0, Math.min(N - 1, Math.floor(((v + R) / (2 * R)) * N)));
  const hist = new Uint32Array(N * N);
  for (let j = 0; j < border.length; j++) hist[bin(lab[j * 3 + 1]!) * N + bin(lab[j * 3 + 2]!)]!++;
  let best = 0, bestCount = -1;
  for (let a = 0; a < N; a++) {
    for (let b = 0; b < N; b++) {
      let n = 0;
      for (let da = -1; da <= 1; da++) for (let db = -1; db <= 1; db++) {
        const aa = a + da, bb = b + db;
        if (aa >= 0 && aa < N && bb >= 0 && bb < N) n += hist[aa * N + bb]!;
      }
      if (n > bestCount) { bestCount = n; best = a * N + b; }
    }
  }
  const ba = Math.floor(best / N), bb = best % N;
  const sum = [0, 0, 0, 0, 0, 0];
  let n = 0;
  for (let j = 0; j < border.length; j++) {
    if (Math.abs(bin(lab[j * 3 + 1]!) - ba) <= 1 && Math.abs(bin(lab[j * 3 + 2]!) - bb) <= 1) {
      const o = border[j]! * 4;
      for (let k = 0; k < 3; k++) sum[k]! += lab[j * 3 + k]!;
      for (let k = 0; k < 3; k++) sum[3 + k]! += px[o + k]!;
      n++;
    }
  }
  n = Math.max(1, n);
  c.key = [sum[0]! / n, sum[1]! / n, sum[2]! / n];
  c.keyRgb = [Math.round(sum[3]! / n), Math.round(sum[4]! / n), Math.round(sum[5]! / n)];
}

// sRGB → linear, pre-multiplied into the OKLab LMS rows (l = LR0[r] + LG0[g] + LB0[b], …)
const LIN = new Float64Array(256);
for (let i = 0; i < 256; i++) {
  const v = i / 255;
  LIN[i] = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
}
const row = (k: number): Float64Array => LIN.map((v) => v * k);
const [LR0, LG0, LB0] = [row(0.4122214708), row(0.5363325363), row(0.0514459929)];
const [LR1, LG1, LB1] = [row(0.2119034982), row(0.6806995451), row(0.1073969566)];
const [LR2, LG2, LB2] = [row(0.0883024619), row(0.2817188376), row(0.6299787005)];

/** Distance of every pixel to the key on a 0..255 scale, and its histogram; memoised per colour (hash table). */
export function distance(c: KeyCtx): void {
  const { px, key } = c;
  const n = c.w * c.h;
  const [kL, kA, kB] = key;
  const scale = 255 / DIST_SCALE;
  const dist = threadScratch.get('f32', 'chroma.dist', n);
  const hist = new Uint32Array(256);
  const SLOTS = 1 << 16;
  const seen = threadScratch.get('i32', 'chroma.seen', SLOTS).fill(-1);
  const memo = threadScratch.get('f32', 'chroma.memo', SLOTS);
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    const r = px[o]!, g = px[o + 1]!, b = px[o + 2]!;
    const rgb = (r << 16) | (g << 8) | b;
    const slot = Math.imul(rgb, 0x9e3779b1) >>> 16;
    let d: number;
    if (seen[slot] === rgb) d = memo[slot]!;
    else {
      const l = Math.cbrt(LR0[r]! + LG0[g]! + LB0[b]!);
      const m = Math.cbrt(LR1[r]! + LG1[g]! + LB1[b]!);
      const s = Math.cbrt(LR2[r]! + LG2[g]! + LB2[b]!);
      const dl = (0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s - kL) * L_WEIGHT;
      const da = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s - kA;
      const db = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s - kB;
      d = Math.min(255, Math.sqrt(dl * dl + da * da + db * db) * scale);
      seen[slot] = rgb;
      memo[slot] = d;
    }
    dist[i] = d;
    hist[d | 0]!++;
  }
  c.dist = dist;
  c.hist = hist;
}

/** Tolerance: given, or the screen's own spread (border p99 near the key, widened) capped below the Otsu split. */
export function tolerance(c: KeyCtx): void {
  if (c.in.tolerance !== undefined) {
    c.tol = c.in.tolerance;
    c.tolSource = 'given';
  } else {
    const bd = threadScratch.get('f32', 'chroma.border-dist', c.border.length);
    let m = 0;
    for (let j = 0; j < c.border.length; j++) {
      const d = c.dist[c.border[j]!]!;
      if (d < 80) bd[m++] = d;
    }
    // the element a sort would put at the 99th percentile, by selection (O(n); sorting ~10⁵ border distances was
    // ≈ 3 % of the task's CPU)
    const p99 = m ? select(bd.subarray(0, m), Math.min(m - 1, Math.floor(m * 0.99))) : 20;
    const split = otsu(c.hist);
    c.tol = Math.round(Math.max(4, Math.min(p99 * 1.25 + 3, split * 0.8)));
    c.tolSource = 'auto';
  }
  c.softness = c.edgeSmoothing ? Math.max(6, Math.round(c.tol * 0.6)) : 0;
}

/** Alpha from the distance: smoothstep over [tol, tol + softness] (a hard cut without smoothing), times the input's alpha. */
export function alpha(c: KeyCtx): void {
  const { dist, px, tol, softness, w } = c;
  const n = dist.length;
  const a = threadScratch.get('f32', 'chroma.alpha-a', n);
  const inv = softness > 0 ? 1 / softness : 0;
  const contour: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = dist[i]!;
    let v: number;
    if (d <= tol) v = 0;
    else if (softness === 0 || d >= tol + softness) v = 1;
    else {
      const t = (d - tol) * inv;
      v = t * t * (3 - 2 * t);
    }
    const pa = px[i * 4 + 3]!;
    if (pa !== 255) v *= pa / 255;
    a[i] = v;
    // the ½ contour (for unmixEdges): this pixel's side differs from its left or upper neighbour's
    const f = v >= 0.5;
    if ((i % w !== 0 && (a[i - 1]! >= 0.5) !== f) || (i >= w && (a[i - w]! >= 0.5) !== f)) contour.push(i);
  }
  c.alpha = a;
  c.contour = contour;
}

/**
 * RGBA out: alpha to 8 bits; spill suppression (the key's chroma direction removed from edge pixels and from
 * opaque pixels close to the key, Lab computed only for those); counts and the opaque bounding box.
 */
export function spillAndPack(c: KeyCtx): void {
  const { w, h, px, dist, alpha: a, key, softness } = c;
  const kc = Math.hypot(key[1], key[2]);
  const ux = kc > 1e-6 ? key[1] / kc : 0, uy = kc > 1e-6 ? key[2] / kc : 0;
  const near = c.tol + softness;
  const nearDiv = Math.max(1, near);
  const spill = kc > 0.02;
  const lab = new Float32Array(3);
  const rgbOut = new Uint8Array(3);
  const seen = threadScratch.get('i32', 'chroma.seen', 1 << 16).fill(-1);
  const memo = threadScratch.get('i32', 'chroma.spill-memo', 1 << 16);
  const out = threadScratch.get('u8', 'chroma.out', w * h * 4);
  let transparent = 0, semi = 0;
  let minX = w, minY = h, maxX = -1, maxY = -1;
  for (let y = 0; y < h; y++) {
    let rowMin = w, rowMax = -1;
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const A = Math.round(a[i]! * 255);
      if (A === 0) {
        transparent++;
        const o = i * 4; // fully transparent: colour 0 (written: the plane is reused)
        out[o] = 0;
        out[o + 1] = 0;
        out[o + 2] = 0;
        out[o + 3] = 0;
        continue;
      }
      if (A < 255) semi++;
      if (x < rowMin) rowMin = x;
      rowMax = x;
      const o = i * 4;
      const strength = A < 255 ? 1 : 1 - (dist[i]! - near) / nearDiv;
      if (spill && strength > 0) {
        // the result depends only on the colour and on A < 255 (strength is 1 there, else a function of the
        // colour's distance): memoised per (colour, edge) in a hash table
        const r = px[o]!, g = px[o + 1]!, b = px[o + 2]!;
        const k = (r << 16) | (g << 8) | b | (A < 255 ? 1 << 24 : 0);
        const slot = Math.imul(k, 0x9e3779b1) >>> 16;
        let v: number;
        if (seen[slot] === k) v = memo[slot]!;
        else {
          srgbToOklab(r, g, b, lab, 0);
          const along = lab[1]! * ux + lab[2]! * uy;
          if (along > 0) {
            const sa = strength * along;
            oklabToSrgbInto(lab[0]!, lab[1]! - ux * sa, lab[2]! - uy * sa, rgbOut);
            v = (rgbOut[0]! << 16) | (rgbOut[1]! << 8) | rgbOut[2]!;
          } else v = (r << 16) | (g << 8) | b;
          seen[slot] = k;
          memo[slot] = v;
        }
        out[o] = v >>> 16;
        out[o + 1] = (v >>> 8) & 255;
        out[o + 2] = v & 255;
        out[o + 3] = A;
        continue;
      }
      out[o] = px[o]!;
      out[o + 1] = px[o + 1]!;
      out[o + 2] = px[o + 2]!;
      out[o + 3] = A;
    }
    if (rowMax >= 0) {
      if (rowMin < minX) minX = rowMin;
      if (rowMax > maxX) maxX = rowMax;
      if (y < minY) minY = y;
      maxY = y;
    }
  }
  c.out = out;
  c.transparent = transparent;
  c.semi = semi;
  c.box = !c.trim ? [0, 0, w, h] : maxX < 0 ? [0, 0, 1, 1] : [minX, minY, maxX - minX + 1, maxY - minY + 1];
}

/** PNG of the kept box (sharp: crop from the raw buffer, then encode). */
export async function encode(c: KeyCtx): Promise<void> {
  const { w, h, box } = c;
  let s = sharp(toBuffer(c.out), { raw: { width: w, height: h, channels: 4 } });
  if (box[2] !== w || box[3] !== h) s = s.extract({ left: box[0], top: box[1], width: box[2], height: box[3] });
  c.png = await s.png({ compressionLevel: PNG_LEVEL, adaptiveFiltering: false }).toBuffer();
}
