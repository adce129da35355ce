// Hand-made presentation-attack cues, computed on the pixels around a face (no model):
// - periodic high-frequency energy (2-D FFT of the face region): a screen's pixel grid re-photographed gives
//   moiré / grid peaks, a print's halftone screen gives dot-frequency peaks;
// - tone range of the wider crop: prints have a raised black and a lowered white, screens a lifted black;
// - specular glare: near-white, colourless blobs (a screen or glossy print catching a lamp).
// Pure pixel work (raster.ts only), no onnxruntime.
import { cropResize, toGrey, type Box, type RgbImage } from './raster.js';
import { spectrum } from './spectrum.js';

const N = 128;

export interface SpoofCues {
  /** share of the non-DC spectral energy at radius ≥ N/4 (fine texture: grids, halftone, moiré) */
  hfEnergy: number;
  /** peakiness of the high band: mean of its 12 largest magnitudes / its median (periodic patterns → large) */
  hfPeak: number;
  /** 2nd / 98th luminance percentile of the wide crop */
  black: number;
  white: number;
  /** mean HSV saturation over the face box */
  saturation: number;
  /** share of the wide crop that is near-white and colourless (glare) */
  glare: number;
}

export function spoofCues(img: RgbImage, box: Box, wide: Box): SpoofCues {
  const [x1, y1, x2, y2] = box;
  const face = toGrey(cropResize(img, x1, y1, x2 - x1, y2 - y1, N, N));
  const mag = spectrum(face.data, N);
  let total = 0, high = 0;
  const band: number[] = [];
  for (let v = 0; v < N; v++) for (let u = 0; u < N; u++) {
    const fu = u <= N / 2 ? u : N - u, fv = v <= N / 2 ? v : N - v;
    const rad = Math.hypot(fu, fv);
    if (rad < 2) continue;
    const e = mag[v * N + u]! ** 2;
    total += e;
    if (rad >= N / 4) { high += e; if (v <= N / 2) band.push(mag[v * N + u]!); }
  }
  band.sort((a, b) => b - a);
  const top = band.slice(0, 12).reduce((a, b) => a + b, 0) / 12;
  const med = band[Math.floor(band.length / 2)] || 1e-9;

  const [wx1, wy1, wx2, wy2] = wide;
  const w = cropResize(img, wx1, wy1, wx2 - wx1, wy2 - wy1, 96, 96);
  const lum: number[] = [];
  let glare = 0;
  for (let k = 0; k < 96 * 96; k++) {
    const r = w.data[k * 3]!, g = w.data[k * 3 + 1]!, b = w.data[k * 3 + 2]!;
    const mx = Math.max(r, g, b), mn = Math.min(r, g, b);
    lum.push(0.299 * r + 0.587 * g + 0.114 * b);
    if (mn > 235 && mx - mn < 20) glare++;
  }
  lum.sort((a, b) => a - b);
  const f = cropResize(img, x1, y1, x2 - x1, y2 - y1, 48, 48);
  let sat = 0;
  for (let k = 0; k < 48 * 48; k++) {
    const r = f.data[k * 3]!, g = f.data[k * 3 + 1]!, b = f.data[k * 3 + 2]!;
    const mx = Math.max(r, g, b), mn = Math.min(r, g, b);
    sat += mx ? (mx - mn) / mx : 0;
  }
  return {
    hfEnergy: high / Math.max(1e-9, total),
    hfPeak: top / med,
    black: lum[Math.floor(0.02 * lum.length)]!,
    white: lum[Math.floor(0.98 * lum.length)]!,
    saturation: sat / (48 * 48),
    glare: glare / (96 * 96),
  };
}
