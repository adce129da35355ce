// Chroma-key background removal in OKLab. Pipeline (docs/image.md#remove-background):
//   decode RGBA → OKLab → key colour (given, or `auto`: the dominant chroma of the border pixels) →
//   distance to the key (chroma plus down-weighted lightness, 0..255 scale) → tolerance (given, or derived from
//   the border's own spread and the distance histogram) → alpha with a soft edge band (smoothstep from tol to
//   tol + softness; a hard cut when edgeSmoothing is false) → light alpha smoothing → spill suppression (the key's
//   chroma removed from edge and near-key pixels) → optional trim to the opaque bounding box → PNG.
import sharp from 'sharp';
import { checkImage, decodeChecked, toBuffer, type DecodeOptions } from './lib/image-io.js';
import { badInput } from './lib/task-error.js';
import { oklabToSrgb, parseHex, srgbToOklab, toHex } from './lib/colour.js';
import { otsu } from './lib/gray.js';

export interface ChromaKeyInput extends DecodeOptions {
  image: Uint8Array;
  /** "#rrggbb" or "auto" */
  color: string;
  /** 0..255; derived from the image when omitted */
  tolerance?: number;
  edgeSmoothing?: boolean;
  trimTransparent?: boolean;
}

export interface ChromaKeyOutput {
  png: Uint8Array;
  width: number;
  height: number;
  originalDimensions: [number, number];
  trimmedDimensions: [number, number];
  /** [left, top, width, height] of the kept area in the original */
  trimBox: [number, number, number, number];
  removedColor: string;
  colorSource: 'given' | 'auto';
  tolerance: number;
  toleranceSource: 'given' | 'auto';
  softness: number;
  /** fully transparent pixels in the original frame (before trimming) */
  transparentPixels: number;
  /** partly transparent (edge band) pixels */
  semiTransparentPixels: number;
  totalPixels: number;
}

/** Distance scale: OKLab distance DIST_SCALE → 255. */
const DIST_SCALE = 0.5;
/** Lightness weight in the key distance (shadows and lighting gradients on the screen mostly change L). */
const L_WEIGHT = 0.4;

function borderIndices(w: number, h: number): number[] {
  const ring = Math.max(2, Math.round(Math.min(w, h) * 0.02));
  const idx: number[] = [];
  const step = Math.max(1, Math.floor((2 * (w + h) * ring) / 40000));
  for (let y = 0; y < h; y++) {
    const edgeRow = y < ring || y >= h - ring;
    for (let x = 0; x < w; x += edgeRow ? step : 1) {
      if (!edgeRow && x >= ring && x < w - ring) {
        x = w - ring - 1;
        continue;
      }
      idx.push(y * w + x);
    }
  }
  return idx;
}

/** Dominant chroma among the border pixels: 2-D (a,b) histogram peak, mean Lab/RGB of its neighbourhood. */
function autoKey(lab: Float32Array, rgba: Uint8Array, border: number[]): { lab: [number, number, number]; rgb: [number, number, number] } {
  const N = 48, R = 0.4;
  const bin = (v: number): number => Math.max(0, Math.min(N - 1, Math.floor(((v + R) / (2 * R)) * N)));
  const hist = new Uint32Array(N * N);
  for (const i of border) hist[bin(lab[i * 3 + 1]!) * N + bin(lab[i * 3 + 2]!)]!++;
  let best = 0;
  let bestCount = -1;
  for (let a = 0; a < N; a++) {
    for (let b = 0; b < N; b++) {
      let c = 0;
      for (let da = -1; da <= 1; da++) for (let db = -1; db <= 1; db++) {
        const aa = a + da, bb = b + db;
        if (aa >= 0 && aa < N && bb >= 0 && bb < N) c += hist[aa * N + bb]!;
      }
      if (c > bestCount) { bestCount = c; best = a * N + b; }
    }
  }
  const ba = Math.floor(best / N), bb = best % N;
  const sum = [0, 0, 0, 0, 0, 0];
  let n = 0;
  for (const i of border) {
    if (Math.abs(bin(lab[i * 3 + 1]!) - ba) <= 1 && Math.abs(bin(lab[i * 3 + 2]!) - bb) <= 1) {
      for (let c = 0; c < 3; c++) sum[c]! += lab[i * 3 + c]!;
      for (let c = 0; c < 3; c++) sum[3 + c]! += rgba[i * 4 + c]!;
      n++;
    }
  }
  n = Math.max(1, n);
  return { lab: [sum[0]! / n, sum[1]! / n, sum[2]! / n], rgb: [sum[3]! / n, sum[4]! / n, sum[5]! / n] };
}

const smoothstep = (e0: number, e1: number, x: number): number => {
  if (x <= e0) return 0;
  if (x >= e1) return 1;
  const t = (x - e0) / (e1 - e0);
  return t * t * (3 - 2 * t);
};

export default async function chromaKey(input: ChromaKeyInput): Promise<ChromaKeyOutput> {
  const colorArg = (input.color ?? '').trim();
  const given = colorArg.toLowerCase() === 'auto' ? undefined : parseHex(colorArg);
  if (colorArg.toLowerCase() !== 'auto' && !given) throw badInput('chromaKey.color', `Expected a hex colour such as "#00ff00" or "auto" for chromaKey.color but received "${colorArg.slice(0, 40)}"`);
  if (input.tolerance !== undefined && (!Number.isInteger(input.tolerance) || input.tolerance < 0 || input.tolerance > 255)) {
    throw badInput('chromaKey.tolerance', `Expected an integer from 0 to 255 for chromaKey.tolerance but received ${input.tolerance}`);
  }
  const edgeSmoothing = input.edgeSmoothing ?? true;
  const trim = input.trimTransparent ?? true;
  const c = await checkImage(input.image, { ...input, field: input.field ?? 'imageUrl' });
  const img = await decodeChecked(c, 4);
  const { width: w, height: h } = img;
  const px = img.data;
  const n = w * h;

  const lab = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) srgbToOklab(px[i * 4]!, px[i * 4 + 1]!, px[i * 4 + 2]!, lab, i * 3);

  const border = borderIndices(w, h);
  let key: [number, number, number];
  let keyRgb: [number, number, number];
  if (given) {
    keyRgb = given;
    key = srgbToOklab(given[0], given[1], given[2]) as [number, number, number];
  } else {
    const k = autoKey(lab, px, border);
    key = k.lab;
    keyRgb = k.rgb.map(Math.round) as [number, number, number];
  }

  // distance to the key on a 0..255 scale
  const dist = new Float32Array(n);
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) {
    const dl = (lab[i * 3]! - key[0]) * L_WEIGHT, da = lab[i * 3 + 1]! - key[1], db = lab[i * 3 + 2]! - key[2];
    const d = Math.min(255, (Math.sqrt(dl * dl + da * da + db * db) / DIST_SCALE) * 255);
    dist[i] = d;
    hist[d | 0]!++;
  }

  let tol: number;
  let tolSource: 'given' | 'auto';
  if (input.tolerance !== undefined) {
    tol = input.tolerance;
    tolSource = 'given';
  } else {
    // the screen's own spread: border pixels near the key (99th percentile), widened a little;
    // capped below the Otsu split between background and foreground distances
    const bd = border.map((i) => dist[i]!).filter((d) => d < 80).sort((a, b) => a - b);
    const p99 = bd.length ? bd[Math.min(bd.length - 1, Math.floor(bd.length * 0.99))]! : 20;
    const split = otsu(hist);
    tol = Math.round(Math.max(4, Math.min(p99 * 1.25 + 3, split * 0.8)));
    tolSource = 'auto';
  }
  const softness = edgeSmoothing ? Math.max(6, Math.round(tol * 0.6)) : 0;

  // alpha
  let alpha = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = dist[i]!;
    alpha[i] = softness > 0 ? smoothstep(tol, tol + softness, d) : d > tol ? 1 : 0;
    if (px[i * 4 + 3]! < 255) alpha[i] = alpha[i]! * (px[i * 4 + 3]! / 255);
  }
  if (edgeSmoothing) {
    // 3x3 smoothing of the band only (keeps solid areas exact)
    const sm = alpha.slice();
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        let mn = 1, mx = 0, s = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
          const v = alpha[i + dy * w + dx]!;
          s += v * (dx === 0 && dy === 0 ? 4 : dx === 0 || dy === 0 ? 2 : 1);
          if (v < mn) mn = v;
          if (v > mx) mx = v;
        }
        if (mx - mn > 0.01) sm[i] = s / 16;
      }
    }
    alpha = sm;
  }

  // spill suppression: remove the key's chroma direction from edge pixels and from opaque pixels close to the key
  const kc = Math.hypot(key[1], key[2]);
  const ux = kc > 1e-6 ? key[1] / kc : 0, uy = kc > 1e-6 ? key[2] / kc : 0;
  const near = tol + softness;
  const out = new Uint8Array(n * 4);
  let transparent = 0, semi = 0;
  let minX = w, minY = h, maxX = -1, maxY = -1;
  for (let i = 0; i < n; i++) {
    const a = alpha[i]!;
    const A = Math.round(a * 255);
    const o = i * 4;
    if (A === 0) {
      transparent++;
      continue; // fully transparent: colour 0
    }
    if (A < 255) semi++;
    const x = i % w, y = (i - x) / w;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    const d = dist[i]!;
    const strength = A < 255 ? 1 : Math.max(0, 1 - (d - near) / Math.max(1, near));
    const La = lab[i * 3 + 1]!, Lb = lab[i * 3 + 2]!;
    const along = La * ux + Lb * uy;
    if (kc > 0.02 && strength > 0 && along > 0) {
      const [r, g, b] = oklabToSrgb(lab[i * 3]!, La - ux * along * strength, Lb - uy * along * strength);
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
    } else {
      out[o] = px[o]!;
      out[o + 1] = px[o + 1]!;
      out[o + 2] = px[o + 2]!;
    }
    out[o + 3] = A;
  }

  let box: [number, number, number, number] = [0, 0, w, h];
  if (trim) box = maxX < 0 ? [0, 0, 1, 1] : [minX, minY, maxX - minX + 1, maxY - minY + 1];
  let s = sharp(toBuffer(out), { raw: { width: w, height: h, channels: 4 } });
  if (box[2] !== w || box[3] !== h) s = s.extract({ left: box[0], top: box[1], width: box[2], height: box[3] });
  const png = await s.png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  return {
    png,
    width: box[2],
    height: box[3],
    originalDimensions: [w, h],
    trimmedDimensions: [box[2], box[3]],
    trimBox: box,
    removedColor: toHex(keyRgb),
    colorSource: given ? 'given' : 'auto',
    tolerance: tol,
    toleranceSource: tolSource,
    softness,
    transparentPixels: transparent,
    semiTransparentPixels: semi,
    totalPixels: n,
  };
}
