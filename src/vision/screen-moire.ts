// Screen-replay cue from first principles: a camera that photographs a display records the display's pixel grid
// (or its sub-pixel stripes) at a pitch close to its own, and the two grids beat into moiré — a periodic pattern
// that shows up as ISOLATED PEAKS in the 2-D spectrum of the face region, at mid/high frequencies, off the axes, far
// above the spectrum's level at that radius. A live face (skin, hair, edges) gives a smooth, roughly radially
// decaying spectrum whose strong parts are streaks through the origin (edges), not isolated points.
// Measured on NATIVE pixels (no resampling: resizing would add or hide periodic patterns), the largest power-of-two
// square (32…128) centred in the face box, on luma and on R−B (sub-pixel stripes are colour-misaligned, so
// their moiré is strongest in chroma). Pure pixel work, no model.
import type { Box, RgbImage } from './raster.js';
import { spectrum } from './spectrum.js';

export interface ScreenMoire {
  /** log10 of the largest isolated off-axis band peak over the median power of its ring (luma); 0 when the face is < 32 px */
  peak: number;
  /** the same on the R−B chroma difference */
  peakChroma: number;
  /** side of the analysed native-pixel window (32, 64 or 128) */
  window: number;
}

/** The band searched: radius in cycles/pixel (below: face shape and shading; above 0.45: the corner bins). */
export const BAND: readonly [number, number] = [0.1, 0.45];

/**
 * log10(power / median power of its ring) of the strongest isolated peak of an n×n magnitude spectrum: a bin that
 * (a) lies in BAND, (b) is off both axes by more than n/64 bins (edges, scan lines and the window's leakage sit
 * on the axes), (c) is not on the 8-pixel JPEG block lattice (multiples of n/8 in both coordinates), (d) is the
 * maximum of its 5×5 neighbourhood (a point, not part of a streak through the origin, which has neighbours of
 * similar power along the radius).
 */
export function isolatedPeak(mag: Float64Array, n: number, band: readonly [number, number] = BAND): number {
  const fold = (k: number) => (k <= n / 2 ? k : k - n);
  const rings = new Map<number, number[]>();
  const pow = new Float64Array(n * n);
  for (let k = 0; k < n * n; k++) pow[k] = mag[k]! * mag[k]!;
  for (let v = 0; v <= n / 2; v++) for (let u = 0; u < n; u++) {
    const r = Math.round(Math.hypot(fold(u), v));
    let ring = rings.get(r);
    if (!ring) rings.set(r, (ring = []));
    ring.push(pow[v * n + u]!);
  }
  const median = new Map<number, number>();
  for (const [r, ring] of rings) { ring.sort((a, b) => a - b); median.set(r, ring[ring.length >> 1]! || 1e-12); }
  const axis = Math.max(1, n / 64), block = n / 8;
  let best = 0;
  for (let v = 1; v <= n / 2; v++) for (let u = 0; u < n; u++) {
    const fu = fold(u), rad = Math.hypot(fu, v) / n;
    if (rad < band[0] || rad > band[1] || Math.abs(fu) <= axis || v <= axis) continue;
    const du = Math.abs(fu) % block, dv = v % block;
    if (Math.min(du, block - du) <= 1 && Math.min(dv, block - dv) <= 1) continue;
    const p = pow[v * n + u]!;
    let isMax = true;
    for (let dy = -2; dy <= 2 && isMax; dy++) for (let dx = -2; dx <= 2; dx++) {
      if ((dx || dy) && pow[((v + dy + n) % n) * n + ((u + dx + n) % n)]! >= p) { isMax = false; break; }
    }
    if (!isMax) continue;
    best = Math.max(best, Math.log10(p / median.get(Math.round(Math.hypot(fu, v)))!));
  }
  return best;
}

/** The analysed window: the largest power-of-two square (≤ 128) inside the face box, centred on it. */
export function moireWindow(width: number, height: number, box: Box): { x: number; y: number; n: number } | null {
  const side = Math.min(box[2] - box[0], box[3] - box[1], width, height);
  if (side < 32) return null;
  const n = Math.min(128, 2 ** Math.floor(Math.log2(side)));
  const x = Math.round(Math.min(width - n, Math.max(0, (box[0] + box[2]) / 2 - n / 2)));
  const y = Math.round(Math.min(height - n, Math.max(0, (box[1] + box[3]) / 2 - n / 2)));
  return { x, y, n };
}

export function screenMoire(img: RgbImage, box: Box): ScreenMoire {
  const w = moireWindow(img.width, img.height, box);
  if (!w) return { peak: 0, peakChroma: 0, window: 0 };
  const { x, y, n } = w;
  const luma = new Float64Array(n * n), chroma = new Float64Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const o = ((y + j) * img.width + x + i) * 3, r = img.data[o]!, g = img.data[o + 1]!, b = img.data[o + 2]!;
    luma[j * n + i] = 0.299 * r + 0.587 * g + 0.114 * b;
    chroma[j * n + i] = r - b;
  }
  return { peak: isolatedPeak(spectrum(luma, n), n), peakChroma: isolatedPeak(spectrum(chroma, n), n), window: n };
}
