// Preprocessing presets run before an image-analysis provider call, written as a list of steps (read top to
// bottom): ocr = grey, contrast stretch, upscale small images, sharpen; qr = grey, contrast, Otsu binarise;
// enhance = auto levels, median denoise, light sharpen. Output PNG.
import sharp, { type Sharp } from 'sharp';
import { checkImage, decodeFailure, openSharp, toBuffer } from './lib/image-io.js';
import { otsu } from './lib/gray.js';

export type Preset = 'ocr' | 'qr' | 'enhance';

export interface PreprocessInput {
  image: Uint8Array;
  preset: Preset;
  maxPixels?: number;
  field?: string;
}

export interface PreprocessOutput {
  bytes: Uint8Array;
  mime: 'image/png';
  width: number;
  height: number;
  steps: string[];
}

interface Work {
  s: Sharp;
  width: number;
  height: number;
  steps: string[];
  /** once greyscale, keep one channel (sharp otherwise writes sRGB) */
  grey: boolean;
}

type Step = (w: Work) => Promise<void> | void;

const grey: Step = (w) => {
  w.s = w.s.flatten({ background: '#ffffff' }).greyscale();
  w.grey = true;
  w.steps.push('greyscale');
};
const contrast: Step = (w) => {
  w.s = w.s.normalise({ lower: 1, upper: 99 });
  w.steps.push('contrast-stretch');
};
/** small text is upscaled so that the shorter side reaches ~1000 px (at most ×3) */
const upscaleSmall: Step = (w) => {
  const short = Math.min(w.width, w.height);
  if (short >= 1000) return;
  const f = Math.min(3, 1000 / short);
  w.width = Math.round(w.width * f);
  w.height = Math.round(w.height * f);
  w.s = w.s.resize({ width: w.width, height: w.height, fit: 'fill', kernel: 'lanczos3' });
  w.steps.push(`upscale-x${f.toFixed(2)}`);
};
const sharpen: Step = (w) => {
  w.s = w.s.sharpen({ sigma: 1 });
  w.steps.push('sharpen');
};
const binarise: Step = async (w) => {
  const { data, info } = await w.s.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i += info.channels) hist[data[i]!]++;
  const th = otsu(hist);
  const out = Buffer.alloc(info.width * info.height);
  for (let i = 0, j = 0; j < out.length; i += info.channels, j++) out[j] = data[i]! > th ? 255 : 0;
  w.s = sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } });
  w.steps.push(`binarise-otsu-${th}`);
};
const autoLevels: Step = (w) => {
  w.s = w.s.normalise({ lower: 0.5, upper: 99.5 });
  w.steps.push('auto-levels');
};
const denoise: Step = (w) => {
  w.s = w.s.median(3);
  w.steps.push('denoise-median3');
};
const lightSharpen: Step = (w) => {
  w.s = w.s.sharpen({ sigma: 0.6 });
  w.steps.push('sharpen-light');
};

export const PRESETS: Record<Preset, Step[]> = {
  ocr: [grey, contrast, upscaleSmall, sharpen],
  qr: [grey, contrast, binarise],
  enhance: [autoLevels, denoise, lightSharpen],
};

export default async function preprocess(input: PreprocessInput): Promise<PreprocessOutput> {
  const c = await checkImage(input.image, { field: input.field ?? 'image', maxPixels: input.maxPixels });
  const steps = PRESETS[input.preset];
  if (!steps) throw new Error(`unknown preset ${input.preset}`);
  try {
    // materialise the oriented image first so that every step sees the real dimensions
    const w: Work = { s: sharp(await openSharp(c).png({ compressionLevel: 1 }).toBuffer()), width: c.width, height: c.height, steps: [], grey: false };
    for (const step of steps) {
      await step(w);
      // each step works on the result of the previous one (sharp would otherwise reorder operations)
      const { data, info } = await (w.grey ? w.s.toColourspace('b-w') : w.s).raw().toBuffer({ resolveWithObject: true });
      w.s = sharp(toBuffer(data), { raw: { width: info.width, height: info.height, channels: info.channels } });
      w.width = info.width;
      w.height = info.height;
    }
    const bytes = await (w.grey ? w.s.toColourspace('b-w') : w.s).png({ compressionLevel: 6 }).toBuffer();
    return { bytes, mime: 'image/png', width: w.width, height: w.height, steps: w.steps };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}
