// Second recogniser for Hangul names and weak address / issuer lines: Tesseract 5 (LSTM, `kor` best_int
// traineddata) compiled to WebAssembly (tesseract.js-core), run in the calling thread on one line. PP-OCRv3 Korean
// is confidently wrong on blurred or small names (혜 → 해/에, 민 → 린) and garbles motion-blurred address lines;
// Tesseract's line model reads them (bench/RESULTS.md, ocr20 and ocr21; name-vote.ts, field-vote.ts).
// Nothing is downloaded: the core and the traineddata come from node_modules.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { cropResize, type Box, type Raster } from './raster.js';

const require = createRequire(import.meta.url);

/** This reader as reported in `engine` (tesseract.js-core 7 wasm, `kor` 4.0.0_best_int traineddata). */
export const TESSERACT_TAG = 'tesseract-kor@4.0.0_best_int';

interface TessApi {
  Init(dataPath: null, lang: string, oem: number): number;
  SetVariable(name: string, value: string): boolean;
  SetImageFile(exif: number, angle: number): number;
  Recognize(monitor: null): number;
  GetUTF8Text(): string;
  MeanTextConf(): number;
  Clear(): void;
}
interface TessModule { FS: { writeFile(p: string, d: Uint8Array): void }; TessBaseAPI: new () => TessApi }

let api: Promise<{ mod: TessModule; api: TessApi }> | null = null;

/** The Tesseract engine of this thread (loaded once: core ≈ 0.5 s, `kor` model). */
function engine(): Promise<{ mod: TessModule; api: TessApi }> {
  api ??= (async () => {
    const factory = require('tesseract.js-core/tesseract-core-simd-lstm.js') as (o?: object) => Promise<TessModule>;
    const mod = await factory({ print: () => undefined, printErr: () => undefined });
    const dir = path.join(path.dirname(require.resolve('@tesseract.js-data/kor/package.json')), '4.0.0_best_int');
    mod.FS.writeFile('/kor.traineddata', zlib.gunzipSync(fs.readFileSync(path.join(dir, 'kor.traineddata.gz'))));
    const a = new mod.TessBaseAPI();
    if (a.Init(null, 'kor', 1) !== 0) throw new Error('tesseract: kor model did not load');
    a.SetVariable('tessedit_pageseg_mode', '7'); // one text line
    return { mod, api: a };
  })();
  return api;
}

/** Height (pixels) the line is scaled to before Tesseract reads it (its LSTM was trained on ~30–40 px x-height). */
const LINE_H = 96;

/** Grey crop of a line (margin 0.2 × its height), scaled to LINE_H, contrast stretched 1–99 %, as a PGM file. */
export function linePgm(img: Raster, box: Box, height = LINE_H): Uint8Array {
  const lh = Math.max(4, box[3] - box[1]), m = lh * 0.2;
  const x = box[0] - m, y = box[1] - m, w = box[2] - box[0] + 2 * m, h = lh + 2 * m;
  const oh = height, ow = Math.max(16, Math.round((w / h) * oh));
  const c = cropResize(img, x, y, w, h, ow, oh, 255);
  const C = c.channels, n = ow * oh;
  const g = new Uint8Array(n);
  for (let i = 0; i < n; i++) g[i] = C >= 3 ? Math.round(0.299 * c.data[i * C]! + 0.587 * c.data[i * C + 1]! + 0.114 * c.data[i * C + 2]!) : c.data[i * C]!;
  const s = Uint8Array.from(g).sort();
  const lo = s[Math.floor(0.01 * (n - 1))]!, hi = Math.max(lo + 1, s[Math.floor(0.99 * (n - 1))]!);
  for (let i = 0; i < n; i++) g[i] = Math.max(0, Math.min(255, Math.round(((g[i]! - lo) * 255) / (hi - lo))));
  const head = new TextEncoder().encode(`P5\n${ow} ${oh}\n255\n`);
  const out = new Uint8Array(head.length + n);
  out.set(head);
  out.set(g, head.length);
  return out;
}

/** Read one text line (box in img's pixels) with Tesseract: text and mean confidence 0..1. */
export async function tesseractLine(img: Raster, box: Box, height = LINE_H): Promise<{ text: string; confidence: number }> {
  const { mod, api: a } = await engine();
  mod.FS.writeFile('/input', linePgm(img, box, height));
  if (a.SetImageFile(1, 0) === 1) throw new Error('tesseract: the line image was not read');
  a.Recognize(null);
  const text = a.GetUTF8Text().trim();
  const confidence = a.MeanTextConf() / 100;
  a.Clear();
  return { text, confidence };
}
