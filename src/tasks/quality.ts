// Image quality for e-KYC: brightness, contrast, sharpness (variance of the Laplacian), glare, size → scores,
// isBlurry, bucketKey, passed and plain-word suggestions. Scales and thresholds: docs/image.md#quality.
import { decodeChecked, checkImage, type DecodeOptions } from './lib/image-io.js';
import { laplacianVariance, type Grey8 } from './lib/gray.js';

export interface QualityInput extends DecodeOptions {
  image: Uint8Array;
}

/** Thresholds (exported for docs and tests). */
export const QUALITY = {
  /** images are measured at this longer side (shrunk, never enlarged) so scores do not depend on resolution */
  analysisSide: 1024,
  /** sharpness = 100 * log10(1 + varLap) / log10(1 + sharpRef), capped at 100 */
  sharpRef: 1000,
  /** isBlurry when the Laplacian variance (at analysisSide) is below this */
  blurVar: 60,
  /** "soft" between blurVar and softVar */
  softVar: 200,
  /** contrast = 100 * min(1, (p99 - p1 of luma) / contrastRef): the ink-to-paper spread, not the RMS (a card is
   *  mostly paper, so its RMS contrast is low however crisp the print) */
  contrastRef: 160,
  minBrightness: 25,
  /** white card paper photographed well sits at 85–90 % (mean luma): only a nearly white frame is overexposed */
  maxBrightness: 94,
  /** brightness score is 100 inside [brightLow, brightHigh] and falls 2.5 per point outside */
  brightLow: 35,
  brightHigh: 90,
  minContrast: 25,
  /** luma >= max(glareLuma, paper + glareAbovePaper) counts as blown-out (paper = 75th percentile of luma, so
   *  bright paper is not glare); glare when more than glareRatio of the image is */
  glareLuma: 250,
  glareAbovePaper: 8,
  glareRatio: 0.03,
  minShortSide: 400,
  passOverall: 60,
} as const;

export interface QualityResult {
  /** 0..100: mean luma / 255 */
  brightness: number;
  /** 0..100: ink-to-paper spread, (p99 - p1 of luma)/160 capped */
  contrast: number;
  /** 0..100: log-scaled variance of the Laplacian */
  sharpness: number;
  /** 0..100: weighted score */
  overallScore: number;
  isBlurry: boolean;
  /** `<sharp|soft|blurry>-<dark|normal|bright|glare>` */
  bucketKey: string;
  passed: boolean;
  suggestions: string[];
  width: number;
  height: number;
  metrics: { laplacianVariance: number; meanLuma: number; stdLuma: number; glareRatio: number; darkRatio: number };
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

/** Measure 8-bit grey pixels (already at the analysis size) as sharp decoded them, without a Float32 copy;
 * width/height are the original dimensions. */
export function measureGrey(g: Grey8, width: number, height: number): QualityResult {
  const n = g.data.length;
  let s = 0, s2 = 0, glare = 0, dark = 0;
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) {
    const v = g.data[i]!;
    s += v;
    s2 += v * v;
    hist[v]!++;
    if (v < 40) dark++;
  }
  const pct = (p: number): number => { let acc = 0; for (let v = 0; v < 256; v++) { acc += hist[v]!; if (acc >= p * n) return v; } return 255; };
  const glareFrom = Math.max(QUALITY.glareLuma, pct(0.75) + QUALITY.glareAbovePaper);
  for (let v = glareFrom; v < 256; v++) glare += hist[v]!;
  const spread = pct(0.99) - pct(0.01);
  const mean = s / n;
  const std = Math.sqrt(Math.max(0, s2 / n - mean * mean));
  const lv = laplacianVariance(g);
  const brightness = (mean / 255) * 100;
  const contrast = Math.min(100, (100 * spread) / QUALITY.contrastRef);
  const sharpness = Math.min(100, (100 * Math.log10(1 + lv)) / Math.log10(1 + QUALITY.sharpRef));
  const glareRatio = glare / n;
  const darkRatio = dark / n;
  const isBlurry = lv < QUALITY.blurVar;

  const brightScore = Math.max(0, 100 - 2.5 * Math.max(0, QUALITY.brightLow - brightness, brightness - QUALITY.brightHigh));
  let overall = 0.45 * sharpness + 0.3 * brightScore + 0.25 * contrast;
  if (glareRatio > QUALITY.glareRatio) overall -= Math.min(30, glareRatio * 300);
  overall = Math.max(0, Math.min(100, overall));

  const suggestions: string[] = [];
  const tooDark = brightness < QUALITY.minBrightness;
  const tooBright = brightness > QUALITY.maxBrightness;
  const hasGlare = glareRatio > QUALITY.glareRatio;
  const lowContrast = contrast < QUALITY.minContrast;
  const tooSmall = Math.min(width, height) < QUALITY.minShortSide;
  if (tooDark) suggestions.push('The image is too dark: add light or move to a brighter place.');
  if (tooBright) suggestions.push('The image is overexposed: reduce the light or avoid direct sunlight.');
  if (hasGlare) suggestions.push(`Glare covers ${(glareRatio * 100).toFixed(1)}% of the image: tilt the card slightly or move away from direct light.`);
  if (isBlurry) suggestions.push('The image is blurry: hold the camera steady, let it focus, and keep the card flat.');
  else if (lv < QUALITY.softVar) suggestions.push('The image is slightly soft: hold the camera steady and tap to focus before taking the picture.');
  if (lowContrast) suggestions.push('The contrast is low: photograph the card against a plain background that differs from the card.');
  if (tooSmall) suggestions.push(`The image is too small (${width}x${height}): move closer or use a higher resolution (at least ${QUALITY.minShortSide} pixels on the shorter side).`);

  const blurKey = isBlurry ? 'blurry' : lv < QUALITY.softVar ? 'soft' : 'sharp';
  const lightKey = hasGlare ? 'glare' : tooDark ? 'dark' : tooBright ? 'bright' : 'normal';
  const passed = !isBlurry && !tooDark && !tooBright && !hasGlare && !tooSmall && !lowContrast && overall >= QUALITY.passOverall;
  return {
    brightness: r1(brightness),
    contrast: r1(contrast),
    sharpness: r1(sharpness),
    overallScore: r1(overall),
    isBlurry,
    bucketKey: `${blurKey}-${lightKey}`,
    passed,
    suggestions,
    width,
    height,
    metrics: { laplacianVariance: r1(lv), meanLuma: r1(mean), stdLuma: r1(std), glareRatio: Math.round(glareRatio * 10000) / 10000, darkRatio: Math.round(darkRatio * 10000) / 10000 },
  };
}

/** Measure raw 8-bit grey pixels of any size (shrinks to the analysis side with sharp first when larger). */
export async function measureRawGrey(grey: Uint8Array, width: number, height: number): Promise<QualityResult> {
  if (Math.max(width, height) <= QUALITY.analysisSide) return measureGrey({ data: grey, width, height }, width, height);
  const { default: sharp } = await import('sharp');
  const scale = QUALITY.analysisSide / Math.max(width, height);
  const { data, info } = await sharp(Buffer.from(grey.buffer, grey.byteOffset, grey.byteLength), { raw: { width, height, channels: 1 } })
    .resize({ width: Math.round(width * scale), height: Math.round(height * scale), fit: 'fill', kernel: 'lanczos3' })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return measureGrey({ data, width: info.width, height: info.height }, width, height);
}

export default async function quality(input: QualityInput): Promise<QualityResult> {
  const c = await checkImage(input.image, input);
  const raw = await decodeChecked(c, 1, QUALITY.analysisSide);
  return measureGrey({ data: raw.data, width: raw.width, height: raw.height }, c.width, c.height);
}
