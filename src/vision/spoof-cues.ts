// Hand-made presentation-attack cues, computed on the pixels around a face (no model):
// - periodic high-frequency energy (2-D FFT of the face region): a screen's pixel grid re-photographed gives
//   moiré / grid peaks, a print's halftone screen gives dot-frequency peaks;
// - tone range of the wider crop: prints have a raised black and a lowered white, screens a lifted black;
// - specular glare: near-white, colourless blobs (a screen or glossy print catching a lamp).
// Pure pixel work (raster.ts only), no onnxruntime.
import { cropResize, toGrey, type Box, type RgbImage } from './raster.js';

const N = 128;

/** In-place radix-2 FFT of one row/column (re, im of length n, n a power of two). */
function fft1(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) { [re[i], re[j]] = [re[j]!, re[i]!]; [im[i], im[j]] = [im[j]!, im[i]!]; }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const a = (-2 * Math.PI) / len, wr = Math.cos(a), wi = Math.sin(a);
    for (let i = 0; i < n; i += len) {
      let cr = 1, ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const ur = re[i + k]!, ui = im[i + k]!;
        const vr = re[i + k + len / 2]! * cr - im[i + k + len / 2]! * ci, vi = re[i + k + len / 2]! * ci + im[i + k + len / 2]! * cr;
        re[i + k] = ur + vr; im[i + k] = ui + vi; re[i + k + len / 2] = ur - vr; im[i + k + len / 2] = ui - vi;
        const nr = cr * wr - ci * wi; ci = cr * wi + ci * wr; cr = nr;
      }
    }
  }
}

/** Magnitude spectrum (N×N, DC at 0,0) of a Hann-windowed, mean-removed grey patch. */
export function spectrum(grey: Uint8Array): Float64Array {
  let mean = 0;
  for (const v of grey) mean += v;
  mean /= grey.length;
  const re = new Float64Array(N * N), im = new Float64Array(N * N);
  for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) {
    const w = (0.5 - 0.5 * Math.cos((2 * Math.PI * x) / (N - 1))) * (0.5 - 0.5 * Math.cos((2 * Math.PI * y) / (N - 1)));
    re[y * N + x] = (grey[y * N + x]! - mean) * w;
  }
  const r = new Float64Array(N), i = new Float64Array(N);
  for (let y = 0; y < N; y++) { r.set(re.subarray(y * N, y * N + N)); i.set(im.subarray(y * N, y * N + N)); fft1(r, i); re.set(r, y * N); im.set(i, y * N); }
  for (let x = 0; x < N; x++) {
    for (let y = 0; y < N; y++) { r[y] = re[y * N + x]!; i[y] = im[y * N + x]!; }
    fft1(r, i);
    for (let y = 0; y < N; y++) { re[y * N + x] = r[y]!; im[y * N + x] = i[y]!; }
  }
  const mag = new Float64Array(N * N);
  for (let k = 0; k < mag.length; k++) mag[k] = Math.hypot(re[k]!, im[k]!);
  return mag;
}

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
  const mag = spectrum(face.data);
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
