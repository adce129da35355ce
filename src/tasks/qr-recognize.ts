// QR recognition with zxing-wasm (its .wasm read from the installed package, never from a CDN), retried on
// prepared variants when enablePreprocessing is on. The variant list reads top to bottom; the first that
// decodes wins; `method` names it and `attempts` counts the tries.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp, { type Sharp } from 'sharp';
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ReadResult } from 'zxing-wasm/reader';
import { checkImage, decodeFailure, openSharp, toBuffer, type Checked, type DecodeOptions } from './lib/image-io.js';
import { greyFromU8, sauvola, histogram, percentile } from './lib/gray.js';
import { qrRegions } from './lib/qr-locate.js';
import { gridCodes } from './lib/qr-grid-read.js';
import type { GridFinder } from './lib/qr-grid.js';
import { threadCpuMs } from './lib/thread-cpu.js';

export interface QrRecognizeInput extends DecodeOptions {
  image: Uint8Array;
  enablePreprocessing?: boolean;
  /** also try the slower variants after the first QUICK_COUNT (not exposed by the API; for measurements) */
  thorough?: boolean;
}

export interface QrRecognizeOutput {
  success: boolean;
  data: string | null;
  method: string | null;
  attempts: number;
  format?: string;
  /** corners of the symbol in the original image's pixels: topLeft, topRight, bottomRight, bottomLeft */
  position?: [number, number][];
  /** every variant tried, in order */
  tried: string[];
  message?: string;
}

/** Measurement hook (bench/qr-stages.ts): each stage's wall and CPU ms (process-wide CPU), off unless set. */
let probe: ((stage: string, wallMs: number, cpuMs: number) => void) | undefined;
export function setStageProbe(fn: typeof probe): void { probe = fn; }
async function stage<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
  if (!probe) return fn();
  const t0 = performance.now(), c0 = process.cpuUsage();
  const out = await fn();
  const c = process.cpuUsage(c0);
  probe(name, performance.now() - t0, (c.user + c.system) / 1000);
  return out;
}

let ready: Promise<unknown> | undefined;
/** Load the reader's wasm from node_modules (no network). */
export function zxingReady(): Promise<unknown> {
  if (!ready) {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
    const wasmBinary = readFileSync(wasmPath);
    // overrides replace the default CDN locateFile entirely; with wasmBinary nothing is fetched
    ready = prepareZXingModule({
      overrides: {
        wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer,
        locateFile: (p: string) => wasmPath.replace(/zxing_reader\.wasm$/, p),
      },
      fireImmediately: true,
    }) as Promise<unknown>;
  }
  return ready;
}

interface Variant {
  name: string;
  /** grey pixels of the variant and how to map its coordinates back to the original */
  make: (base: GreyImg) => Promise<GreyImg> | GreyImg;
  options?: ReaderOptions;
}

interface GreyImg {
  data: Uint8Array;
  width: number;
  height: number;
  /** original = variant * scale + (ox, oy) (before rotation) */
  scale: number;
  rotate?: number;
  ox?: number;
  oy?: number;
}

export const BASE_OPTIONS: ReaderOptions = { formats: ['QRCode', 'MicroQRCode'], tryHarder: true, tryRotate: true, tryInvert: true, tryDownscale: true, maxNumberOfSymbols: 1 };

/** Rec. 601 luma (integer weights) from RGBA. */
function greyOf(rgba: Uint8ClampedArray, width: number, height: number): GreyImg {
  const n = width * height, out = new Uint8Array(n);
  if (LITTLE_ENDIAN && rgba.byteOffset % 4 === 0) {
    // one 32-bit load per pixel (R in the low byte)
    const px = new Uint32Array(rgba.buffer, rgba.byteOffset, n);
    for (let i = 0; i < n; i++) { const v = px[i]!; out[i] = (77 * (v & 0xff) + 150 * ((v >>> 8) & 0xff) + 29 * ((v >>> 16) & 0xff) + 128) >> 8; }
  } else for (let i = 0, p = 0; i < n; i++, p += 4) out[i] = (77 * rgba[p]! + 150 * rgba[p + 1]! + 29 * rgba[p + 2]! + 128) >> 8;
  return { data: out, width, height, scale: 1 };
}
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Decode once as RGBA (what zxing reads; half the cost of sharp's greyscale conversion), transparency flattened
 * onto white, EXIF orientation applied, at most maxSide px (huge photos are downscaled before the first try).
 */
async function decodeRgba(c: Checked, maxSide: number): Promise<{ data: Uint8ClampedArray; width: number; height: number; scale: number }> {
  let s = openSharp(c);
  let scale = 1;
  if (Math.max(c.width, c.height) > maxSide) {
    scale = maxSide / Math.max(c.width, c.height);
    s = s.resize({ width: Math.max(1, Math.round(c.width * scale)), height: Math.max(1, Math.round(c.height * scale)), fit: 'fill', kernel: 'lanczos3' });
  }
  try {
    const { data, info } = await s.flatten({ background: '#ffffff' }).toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error(`expected 4 channels, got ${info.channels}`);
    return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, scale };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}

async function viaSharp(g: GreyImg, fn: (s: Sharp) => Sharp, scale = g.scale, rotate?: number): Promise<GreyImg> {
  const { data, info } = await fn(sharp(toBuffer(g.data), { raw: { width: g.width, height: g.height, channels: 1 } })).greyscale().raw().toBuffer({ resolveWithObject: true });
  // rotate/extend can add channels; keep the first
  let d: Uint8Array = data;
  if (info.channels !== 1) {
    d = new Uint8Array(info.width * info.height);
    for (let i = 0; i < d.length; i++) d[i] = data[i * info.channels]!;
  }
  return { data: d, width: info.width, height: info.height, scale, rotate };
}

function stretch(g: GreyImg): GreyImg {
  const h = histogram(greyFromU8(g.data, g.width, g.height));
  const lo = percentile(h, 0.01), hi = Math.max(lo + 1, percentile(h, 0.99));
  const out = new Uint8Array(g.data.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(((g.data[i]! - lo) * 255) / (hi - lo))));
  return { ...g, data: out };
}

function adaptive(g: GreyImg): GreyImg {
  const r = Math.max(7, Math.round(Math.min(g.width, g.height) / 24));
  return { ...g, data: sauvola(greyFromU8(g.data, g.width, g.height), r, 0.15, 128) };
}

/** 2×2 mean (half size): averages sensor noise and JPEG blocks away; what saves most low-contrast codes. */
function half(g: GreyImg): GreyImg {
  const w = Math.max(1, g.width >> 1), h = Math.max(1, g.height >> 1);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = 2 * y * g.width + 2 * x;
    out[y * w + x] = (g.data[o]! + g.data[o + 1]! + g.data[o + g.width]! + g.data[o + g.width + 1]! + 2) >> 2;
  }
  return { data: out, width: w, height: h, scale: g.scale * (g.width / w) };
}

/** Strong unsharp mask (5×5 box mean as the blur, amount 2): restores module edges of blurred and tiny codes. */
function unsharp(g: GreyImg): GreyImg {
  const { width: w, height: h, data: d } = g, W = w + 1, r = 2;
  const S = new Int32Array(W * (h + 1)); // ≤ 255 · 8.4 Mpx: callers pass ≤ 1 Mpx
  for (let y = 0; y < h; y++) {
    let rs = 0;
    const row = y * w, o = (y + 1) * W, p = y * W;
    for (let x = 0; x < w; x++) { rs += d[row + x]!; S[o + x + 1] = S[p + x + 1]! + rs; }
  }
  const out = new Uint8Array(d.length);
  for (let y = 0; y < h; y++) {
    const ya = y > r ? y - r : 0, yb = y + r + 1 < h ? y + r + 1 : h, A = ya * W, B = yb * W;
    for (let x = 0; x < w; x++) {
      const xa = x > r ? x - r : 0, xb = x + r + 1 < w ? x + r + 1 : w;
      const m = (S[B + xb]! - S[A + xb]! - S[B + xa]! + S[A + xa]!) / ((yb - ya) * (xb - xa));
      const v = 3 * d[y * w + x]! - 2 * m;
      out[y * w + x] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  }
  return { ...g, data: out };
}

/** Variants read without zxing's own rotate/invert/downscale retries (the original attempt already had them). */
const QUICK: ReaderOptions = { tryRotate: false, tryInvert: false, tryDownscale: false };

/**
 * The preprocessing variants, in the order they are tried after the original. Chosen by measurement on the
 * hard-photo set (bench/qr-hard.ts): each further variant costs a full zxing pass on every undecodable image,
 * so only variants that decode codes the earlier ones miss are kept in front, the rest come after `QUICK_COUNT`
 * and run only with `thorough`.
 */
export const QUICK_COUNT = 2;
export const VARIANTS: Variant[] = [
  { name: 'scale-0.5x', make: half, options: QUICK },
  { name: 'sharpen', make: unsharp, options: { ...QUICK, tryHarder: false } },
  { name: 'grayscale', make: (g) => g, options: { binarizer: 'GlobalHistogram' } },
  { name: 'contrast-stretch', make: stretch },
  { name: 'adaptive-threshold', make: adaptive, options: { binarizer: 'FixedThreshold' } },
  { name: 'sharpen-soft', make: (g) => viaSharp(g, (s) => s.sharpen({ sigma: 1.5, m1: 1, m2: 3 })) },
  { name: 'denoise', make: (g) => viaSharp(g, (s) => s.median(5)) },
  { name: 'blur-threshold', make: async (g) => adaptive(await viaSharp(g, (s) => s.blur(1.2))), options: { binarizer: 'FixedThreshold' } },
  {
    name: 'scale-2x',
    make: (g) => (Math.max(g.width, g.height) > 1400 ? g : viaSharp(g, (s) => s.resize({ width: g.width * 2, height: g.height * 2, kernel: 'cubic' }), g.scale / 2)),
  },
  { name: 'rotate-45', make: (g) => viaSharp(g, (s) => s.rotate(45, { background: { r: 255, g: 255, b: 255, alpha: 1 } }), g.scale, 45) },
  { name: 'stretch-sharpen-threshold', make: async (g) => adaptive(await viaSharp(stretch(g), (s) => s.sharpen({ sigma: 2 }))), options: { binarizer: 'FixedThreshold' } },
];

/** A grey image as PGM bytes: zxing-wasm reads it as grey in wasm (an RGBA image is turned back into grey in JS). */
function pgm(g: GreyImg): Uint8Array {
  const head = new TextEncoder().encode(`P5\n${g.width} ${g.height}\n255\n`);
  const out = new Uint8Array(head.length + g.data.length);
  out.set(head);
  out.set(g.data, head.length);
  return out;
}

async function attempt(g: GreyImg | { data: Uint8ClampedArray; width: number; height: number }, options?: ReaderOptions): Promise<ReadResult | undefined> {
  const img = g.data instanceof Uint8ClampedArray ? g : pgm(g as GreyImg);
  const res = await readBarcodes(img as never, { ...BASE_OPTIONS, ...options });
  return res.find((r) => r.isValid && r.text !== undefined);
}

function mapBack(r: ReadResult, g: GreyImg, orig: { width: number; height: number }, decodeScale: number): [number, number][] {
  const p = r.position;
  const pts = [p.topLeft, p.topRight, p.bottomRight, p.bottomLeft];
  return pts.map(({ x, y }) => {
    let X = x, Y = y;
    if (g.rotate) {
      // undo rotation about the centre of the rotated canvas
      const a = (-g.rotate * Math.PI) / 180;
      const cx = g.width / 2, cy = g.height / 2;
      const ow = orig.width / decodeScale / g.scale, oh = orig.height / decodeScale / g.scale;
      const dx = X - cx, dy = Y - cy;
      X = dx * Math.cos(a) - dy * Math.sin(a) + ow / 2;
      Y = dx * Math.sin(a) + dy * Math.cos(a) + oh / 2;
    }
    return [Math.round((X * g.scale + (g.ox ?? 0)) * decodeScale), Math.round((Y * g.scale + (g.oy ?? 0)) * decodeScale)] as [number, number];
  });
}

const MIN_SIDE = 21;
/** CPU ms (this thread's: lib/thread-cpu.ts) the grid reader may spend per image: a multiple of zxing's first
 * pass on it (also in this thread's CPU time), `perMpx` ms per Mpx of the frame (zxing's first pass on a
 * 640×480 phone frame is ≈ 5–9 ms, less than one finder pass and one bent grid fit of ours: on the camera tuning
 * seeds 1× alone read 10/24, with 60 ms/Mpx 18/24 for less CPU, as codes are found before the budget ends),
 * with a floor. Session 16: 120 ms per Mpx up to `maxMpx` (a scene's regions share what a 1 Mpx frame gets, as
 * on 1–2 Mpx scenes before): with the triples ranked by finder quality a phone frame's code is mostly read by
 * the first triple, and the fits it needs (flat, then bent) take 20–60 ms CPU on a loaded machine; tuning camera
 * 5100..5123 read 17–20 / 22 / 23 at 60 / 90 / 120 ms per Mpx for the same CPU over the set. The cap is 2 Mpx (240
 * ms), not qr25's 1: a phone's full photo is worked on at up to 2048 px a side (≈ 3 Mpx), where 60 ms per Mpx
 * uncapped gave ≈ 190 ms; a cap of 1 would have cut the budget of the largest photos, which no bench set holds
 * (frames ≤ 1 Mpx, the camera kinds, are unchanged; 1–2 Mpx scenes get more, not re-measured). CPU, not wall time: on a loaded machine a wall budget
 * read fewer candidates and the same image was decoded or not with the load (qr22, qr23). Session 17: the floor 6 →
 * 20 ms — on frames of a code alone (≈ 150–350 px: shadow-glare, combined, blur, small) the per-Mpx share is 3–15
 * ms, less than one triple's fits and reads (flat, then bent: 10–30 ms); tuning seeds 5200..5223 of every kind, side
 * by side: floor 6 / 20 / 40 read 197 / 206 / 207 of 264 for 7.2 / 8.2 / 9.0 s CPU (main 198 for 7.6 s). */
export const GRID_BUDGET = { perFirst: 1, floorMs: 20, perMpx: 120, maxMpx: 2 };
const gridBudget = (firstMs: number, px = 0): number => Math.max(GRID_BUDGET.floorMs, GRID_BUDGET.perFirst * firstMs, GRID_BUDGET.perMpx * Math.min(GRID_BUDGET.maxMpx, px / 1e6));
/** full-frame variants work on at most this many pixels per side; sharpen on at most SHARPEN_MAX_PX */
const WORK_MAX_SIDE = 2048, SHARPEN_MAX_PX = 1_000_000;
/** regions tried when the full frame does not decode, and the largest crop side after upscaling */
const MAX_REGIONS = 2, CROP_MAX_SIDE = 640;
/** frames smaller than this are the code itself (no scene to search) */
const LOCATE_MIN_SIDE = 400;

/** Crop a located region (coordinates of img) out of the base image (rows copied here, so sharp only sees the
 * crop), upscaled so that a module is ≈ 4 px. */
async function cropRegion(base: GreyImg, img: GreyImg, r: { x: number; y: number; width: number; height: number; module: number }): Promise<GreyImg & { up: number }> {
  const k = img.scale; // base px per img px
  const left = Math.floor(r.x * k), top = Math.floor(r.y * k);
  const width = Math.min(base.width - left, Math.ceil(r.width * k)), height = Math.min(base.height - top, Math.ceil(r.height * k));
  const crop = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) crop.set(base.data.subarray((top + y) * base.width + left, (top + y) * base.width + left + width), y * width);
  // ≈ 4 px per module, at most CROP_MAX_SIDE px; a large crop is shrunk (to 2.5 px per module at least) rather
  // than read at full size: the whole frame was read as it is already
  const m = r.module * k;
  const up = Math.max(Math.min(1, 2.5 / m), Math.min(4, 4 / m, CROP_MAX_SIDE / Math.max(width, height)));
  const g: GreyImg = up > 1.05 || up < 0.95
    ? await viaSharp({ data: crop, width, height, scale: 1 }, (s) => s.resize({ width: Math.round(width * up), height: Math.round(height * up), kernel: up > 1 ? 'cubic' : 'lanczos3' }), 1)
    : { data: crop, width, height, scale: 1 };
  return { ...g, scale: width / g.width, ox: left, oy: top, up };
}

type Found = { hit: ReadResult; g: GreyImg; method: string };

/** how much darker the border must be than the middle (a share of the middle's mean; tuning seeds 5000..5023:
 * inverted frames 0.07–0.72, camera frames 0.70–0.94) */
const DARK_BORDER = 0.68;
/** Whether the outer tenth of the frame is much darker on average than the rest (a light-on-dark code's dark quiet
 * zone): decides whether the negative is read too. */
export function darkBorder(g: { data: Uint8Array; width: number; height: number }): boolean {
  const { data, width: w, height: h } = g, bx = Math.max(1, Math.round(w / 10)), by = Math.max(1, Math.round(h / 10));
  let edge = 0, ne = 0, mid = 0, nm = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (x < bx || y < by || x >= w - bx || y >= h - by) { edge += data[y * w + x]!; ne++; } else { mid += data[y * w + x]!; nm++; }
  }
  // well darker (a negative's quiet zone is near black): a code photographed on a table has a background only
  // a little darker than its middle at the frame's edge (vignette), and the negative pass wasted its budget there
  return nm > 0 && edge / ne < DARK_BORDER * (mid / nm);
}

/** A redrawn code is read as a pure symbol (no detector, no retries). */
const PURE: ReaderOptions = { formats: ['QRCode'], isPure: true, tryHarder: false, tryRotate: false, tryInvert: false, tryDownscale: false };

/**
 * The code read off its module grid (lib/qr-grid-read.ts): finder triples fitted, sampled and redrawn, each read
 * as a pure code until one decodes or `budgetMs` of this thread's CPU time is spent. The position is mapped back through the
 * fitted grid onto `g`.
 */
async function tryGrid(g: GreyImg, tried: string[], budgetMs: number, label = 'grid', triples?: GridFinder[][]): Promise<Found | undefined> {
  tried.push(label);
  const t0 = threadCpuMs();
  for (const code of gridCodes(g, triples, t0 + budgetMs)) {
    const res = await readBarcodes(pgm({ ...code, scale: 1 }) as never, PURE);
    const hit = res.find((r) => r.isValid && r.text !== undefined);
    if (hit) {
      const m = (p: { x: number; y: number }): { x: number; y: number } => { const [x, y] = code.toSource(p.x, p.y); return { x, y }; };
      const p = hit.position;
      return { hit: { ...hit, position: { topLeft: m(p.topLeft), topRight: m(p.topRight), bottomRight: m(p.bottomRight), bottomLeft: m(p.bottomLeft) } }, g, method: 'grid' };
    }
    if (threadCpuMs() - t0 > budgetMs) break;
  }
  return undefined;
}

/** Candidate regions (finder patterns) of a scene, each cropped, upscaled, sharpened and read. */
async function tryRegions(base: GreyImg, img: GreyImg, tried: string[], gridMs: number): Promise<Found | undefined> {
  const regions = (await stage('locate', () => qrRegions(img.data, img.width, img.height, MAX_REGIONS)))
    // a region as large as the frame was the original attempt already
    .filter((r) => r.width * r.height < 0.5 * img.width * img.height);
  for (const [i, r] of regions.entries()) {
    // one read per region, of the sharpened upscaled crop: what decoded the in-scene codes on the bench set
    const g = await stage('region-crop', async () => unsharp(await cropRegion(base, img, r)));
    tried.push(`region-${i + 1}`);
    const hit = await stage('region-read', () => attempt(g, QUICK));
    if (hit) return { hit, g, method: 'region' };
    // three finders located: the code read off its grid, the finders mapped into the crop (no second search)
    if (r.finders !== 3) continue;
    const k = img.scale, t = r.group.map((f) => ({ x: (f.x * k - g.ox!) / g.scale, y: (f.y * k - g.oy!) / g.scale, module: (f.module * k) / g.scale }));
    const grid = await stage('region-grid', () => tryGrid(g, tried, gridMs, `region-${i + 1}-grid`, [t]));
    if (grid) return { ...grid, method: 'region-grid' };
  }
  return undefined;
}

export default async function qrRecognize(input: QrRecognizeInput): Promise<QrRecognizeOutput> {
  const c = await checkImage(input.image, input);
  await zxingReady();
  const tried: string[] = [];
  const orig = { width: c.width, height: c.height };
  // the smallest QR code (version 1) is 21 modules wide: a thinner image cannot hold one (and is thinner than
  // the preprocessing filter windows)
  if (Math.min(c.width, c.height) < MIN_SIDE) {
    return { success: false, data: null, method: null, attempts: 0, tried, message: `No QR code can be in a ${c.width}x${c.height} image: a QR code needs at least ${MIN_SIDE}x${MIN_SIDE} pixels` };
  }
  const rgba = await stage('decode', () => decodeRgba(c, 3000));
  const decodeScale = 1 / rgba.scale;
  const found = (f: Found): QrRecognizeOutput => ({ success: true, data: f.hit.text, method: f.method, attempts: tried.length, format: f.hit.format, position: mapBack(f.hit, f.g, orig, decodeScale), tried });

  // 1. zxing on the decoded image as it is, with its own rotate/invert/downscale retries
  tried.push('original');
  const t1 = threadCpuMs();
  const first = await stage('original', () => attempt(rgba));
  const firstMs = threadCpuMs() - t1;
  if (first) return found({ hit: first, g: { data: new Uint8Array(0), width: rgba.width, height: rgba.height, scale: 1 }, method: 'original' });
  if (input.enablePreprocessing === false) {
    return { success: false, data: null, method: null, attempts: 1, tried, message: 'No QR code was found in the image (preprocessing disabled: 1 attempt)' };
  }
  // the rest works on one grey image of at most WORK_MAX_SIDE px, cheapest attempts first
  const base = await stage('grey', () => greyOf(rgba.data, rgba.width, rgba.height));
  let work = base;
  if (Math.max(base.width, base.height) > WORK_MAX_SIDE) {
    const s = WORK_MAX_SIDE / Math.max(base.width, base.height);
    work = await stage('resize', () => viaSharp(base, (p) => p.resize({ width: Math.round(base.width * s), height: Math.round(base.height * s), kernel: 'lanczos3' }), 1 / s));
  }
  const big = work.width * work.height > SHARPEN_MAX_PX;
  const variants = input.thorough ? VARIANTS : VARIANTS.slice(0, QUICK_COUNT);
  // 2. a frame large enough to be a scene: finder patterns located first (one cheap pass in JS, at full
  // resolution up to WORK_MAX_SIDE: small codes have modules of 1–2 px), each region cropped, upscaled and read
  if (Math.max(work.width, work.height) >= LOCATE_MIN_SIDE) {
    const inScene = await stage('regions', () => tryRegions(base, work, tried, gridBudget(firstMs, work.width * work.height) / MAX_REGIONS));
    if (inScene) return found(inScene);
  }
  // 3. the whole frame at half size (a quarter of the pixels): low contrast, noise; then sharpened (only on
  // frames up to SHARPEN_MAX_PX: on larger ones the located regions were sharpened)
  for (const v of variants) {
    if (!input.thorough && v.name === 'sharpen' && big) continue;
    tried.push(v.name);
    const g = await stage(`${v.name}-make`, () => v.make(work));
    const hit = await stage(`${v.name}-read`, () => attempt(g, v.options));
    if (hit) return found({ hit, g, method: v.name });
  }
  // 4. the code read off its module grid (blur, tiny modules, uneven light), while the budget lasts
  if (!big) {
    const grid = await stage('grid', () => tryGrid(work, tried, gridBudget(firstMs, work.width * work.height)));
    if (grid) return found(grid);
  }
  // 5. light modules on dark (a code on a screen, a negative): zxing's own invert retry covered the original
  // only; when the frame's border is darker than its middle (a code's quiet zone is light), the steps above
  // again on the negative
  if (!big && darkBorder(work)) {
    const neg = { ...work, data: work.data.map((v) => 255 - v) };
    for (const v of variants) {
      if (v.name !== 'sharpen' && v.name !== 'scale-0.5x') continue;
      tried.push(`inverted-${v.name}`);
      const hit = await attempt(await v.make(neg), v.options);
      if (hit) return found({ hit, g: neg, method: `inverted-${v.name}` });
    }
    const grid = await stage('grid-inverted', () => tryGrid(neg, tried, gridBudget(firstMs, work.width * work.height), 'inverted-grid'));
    if (grid) return found({ ...grid, method: 'inverted-grid' });
  }
  return {
    success: false,
    data: null,
    method: null,
    attempts: tried.length,
    tried,
    message: `No QR code was found in the image after ${tried.length} attempts (${tried.join(', ')}); make sure the whole code with its white border is visible, in focus and not too small`,
  };
}
