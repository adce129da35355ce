// The classic filter chain of the ID-card enhancement, on interleaved 8-bit RGB:
//   1. levels + gamma (one global look-up table, estimated once on the whole card: no tile gets its own curve)
//   2. edge-preserving denoise (joint bilateral 5x5, range weights from luma, strength from the measured noise)
//   3. unsharp mask (Gaussian, with a small threshold so that flat paper stays flat)
// Every step is local with a fixed reach (FILTER_REACH), so a tile read with a halo >= the reach gives exactly the
// pixels the whole image would: tiles agree in their overlaps and blending cannot show a seam.

export interface EnhanceParams {
  /** input level mapped to 0 */
  lo: number;
  /** input level mapped to 255 */
  hi: number;
  /** output = white * ((v - lo) / (hi - lo)) ^ gamma */
  gamma: number;
  /** output level of the input level hi (below 250: the quality analysis counts >= 250 as glare) */
  white: number;
  /** bilateral range sigma in grey levels; 0 = no denoise */
  denoiseSigma: number;
  /** unsharp-mask amount (0 = none) and Gaussian sigma */
  sharpenAmount: number;
  sharpenSigma: number;
  /** differences below this (grey levels) are not sharpened */
  sharpenThreshold: number;
}

export const IDENTITY_PARAMS: EnhanceParams = { lo: 0, hi: 255, gamma: 1, white: 255, denoiseSigma: 0, sharpenAmount: 0, sharpenSigma: 1, sharpenThreshold: 0 };

const BILATERAL_RADIUS = 2;
/** mean output luma aimed at by the white point (fraction of 255: well-lit white card paper) and its bounds */
const TARGET_MEAN = 0.85;
const WHITE_MIN = 200;
const WHITE_MAX = 245;
export const MAX_SHARPEN_SIGMA = 1.2;
/** How far (px) a pixel of the output depends on the input: bilateral radius + Gaussian radius. */
export const FILTER_REACH = BILATERAL_RADIUS + Math.ceil(3 * MAX_SHARPEN_SIGMA);

export interface Estimate {
  params: EnhanceParams;
  /** measurements the parameters came from (reported in the job result) */
  measured: { p005: number; p995: number; meanLuma: number; noiseSigma: number; laplacianVar: number };
}

/** Rec. 601 luma of interleaved RGB as floats. */
export function luma(rgb: Uint8Array, n: number): Float32Array {
  const y = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += 3) y[i] = 0.299 * rgb[p]! + 0.587 * rgb[p + 1]! + 0.114 * rgb[p + 2]!;
  return y;
}

/** Estimate the global parameters on the whole card (privacy regions already blurred). */
export function estimateParams(rgb: Uint8Array, width: number, height: number): Estimate {
  const n = width * height;
  const y = luma(rgb, n);
  const hist = new Float64Array(256);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = y[i]!;
    hist[Math.min(255, Math.round(v))]! += 1;
    sum += v;
  }
  const pct = (q: number): number => {
    let acc = 0;
    const target = q * n;
    for (let v = 0; v < 256; v++) {
      acc += hist[v]!;
      if (acc >= target) return v;
    }
    return 255;
  };
  const p005 = pct(0.005), p995 = pct(0.995);
  // Immerkær's noise estimate (fast, robust for Gaussian noise): sigma = sqrt(pi/2) / (6 (W-2)(H-2)) * sum |N * I|
  let acc = 0, lapS = 0, lapS2 = 0, m = 0;
  for (let yy = 1; yy < height - 1; yy++) {
    for (let x = 1; x < width - 1; x++) {
      const i = yy * width + x;
      const a = y[i - width - 1]!, b = y[i - width]!, c = y[i - width + 1]!, d = y[i - 1]!, e = y[i]!, f = y[i + 1]!, g = y[i + width - 1]!, h = y[i + width]!, k = y[i + width + 1]!;
      acc += Math.abs(a - 2 * b + c - 2 * d + 4 * e - 2 * f + g - 2 * h + k);
      const lap = b + d + f + h - 4 * e;
      lapS += lap;
      lapS2 += lap * lap;
      m++;
    }
  }
  const noiseSigma = m > 0 ? (Math.sqrt(Math.PI / 2) * acc) / (6 * m) : 0;
  const lapMean = m > 0 ? lapS / m : 0;
  const laplacianVar = m > 0 ? lapS2 / m - lapMean * lapMean : 0;

  // 1. levels: stretch the 0.5–99.5 % range to the full range, gain at most 3 (never compress)
  let lo = p005, hi = p995;
  if (hi - lo < 255 / 3) {
    const mid = (hi + lo) / 2;
    lo = mid - 255 / 6;
    hi = mid + 255 / 6;
  }
  lo = Math.max(0, Math.min(lo, 254));
  hi = Math.min(255, Math.max(hi, lo + 1));
  const gain = 255 / (hi - lo);
  // 2. gamma: lift a dark card so that its mean lands near 0.5 (never darken)
  let mapped = 0;
  for (let v = 0; v < 256; v++) mapped += hist[v]! * Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
  const meanMapped = Math.max(1e-3, mapped / n);
  const gamma = meanMapped < 0.45 ? Math.max(0.45, Math.log(0.5) / Math.log(meanMapped)) : 1;
  // 3. white point: a light card stretched to 255 is mostly paper at >= 250, which the quality analysis reads as
  //    overexposure; put the paper where a well-lit photo of a card has it (mean luma about 85 %, docs/enhance.md:
  //    the old 68 % darkened clean white paper for no OCR or score gain), text stays black
  let mappedGamma = 0;
  for (let v = 0; v < 256; v++) mappedGamma += hist[v]! * Math.pow(Math.min(1, Math.max(0, (v - lo) / (hi - lo))), gamma);
  const meanOut = Math.max(1e-3, mappedGamma / n);
  const white = Math.round(Math.min(WHITE_MAX, Math.max(WHITE_MIN, (255 * TARGET_MEAN) / meanOut)));
  // 3. denoise in proportion to the noise after the gain (below ~2 levels there is nothing worth removing)
  const noiseOut = (noiseSigma * gain * white) / 255;
  const denoiseSigma = noiseOut > 2 ? Math.min(40, 1.5 * noiseOut) : 0;
  // 4. sharpen: more for a soft card, less when noise would be amplified
  const soft = laplacianVar * ((gain * white) / 255) ** 2 < 400;
  // (measured on rendered cards: stronger settings raise the quality score further but cost OCR characters)
  const sharpenAmount = noiseOut > 12 ? 0.6 : 1.0;
  const sharpenSigma = soft ? 1.2 : 1.0;
  const sharpenThreshold = Math.min(8, Math.max(1, noiseOut * 0.5));
  return {
    params: { lo, hi, gamma: Math.round(gamma * 1000) / 1000, white, denoiseSigma, sharpenAmount, sharpenSigma, sharpenThreshold },
    measured: { p005, p995, meanLuma: sum / n, noiseSigma, laplacianVar },
  };
}

export function levelsLut(p: EnhanceParams): Uint8Array {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - p.lo) / (p.hi - p.lo)));
    lut[v] = Math.round(p.white * Math.pow(t, p.gamma));
  }
  return lut;
}

/** Copy a one-channel float image into a larger one with r pixels of edge replication on each side. */
function padEdge(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const pw = w + 2 * r, ph = h + 2 * r;
  const out = new Float32Array(pw * ph);
  for (let y = 0; y < ph; y++) {
    const sy = y - r < 0 ? 0 : y - r >= h ? h - 1 : y - r;
    const row = sy * w, orow = y * pw;
    for (let x = 0; x < pw; x++) {
      const sx = x - r < 0 ? 0 : x - r >= w ? w - 1 : x - r;
      out[orow + x] = src[row + sx]!;
    }
  }
  return out;
}

/** Bilateral 5x5 on one channel (luma), range sigma in grey levels; edges replicated. */
export function bilateralGrey(src: Float32Array, w: number, h: number, sigmaR: number): Float32Array {
  const R = BILATERAL_RADIUS, K = 2 * R + 1;
  const sigmaS = 1.5;
  const pw = w + 2 * R;
  const pad = padEdge(src, w, h, R);
  // combined weight table: spatial weight of tap o times range weight of |difference| d (0..255)
  const table = new Float32Array(K * K * 256);
  const offs = new Int32Array(K * K);
  for (let dy = -R, o = 0; dy <= R; dy++) {
    for (let dx = -R; dx <= R; dx++, o++) {
      offs[o] = dy * pw + dx;
      const ws = Math.exp(-(dx * dx + dy * dy) / (2 * sigmaS * sigmaS));
      for (let d = 0; d < 256; d++) table[o * 256 + d] = ws * Math.exp(-(d * d) / (2 * sigmaR * sigmaR));
    }
  }
  const out = new Float32Array(w * h);
  const taps = K * K;
  for (let y = 0; y < h; y++) {
    let ci = (y + R) * pw + R;
    let oi = y * w;
    for (let x = 0; x < w; x++, ci++, oi++) {
      const c = pad[ci]!;
      let ws = 0, acc = 0;
      for (let o = 0; o < taps; o++) {
        const v = pad[ci + offs[o]!]!;
        let d = v - c;
        if (d < 0) d = -d;
        const wt = table[(o << 8) + (d > 255 ? 255 : (d + 0.5) | 0)]!;
        ws += wt;
        acc += wt * v;
      }
      out[oi] = acc / ws;
    }
  }
  return out;
}

/** 3x3 box mean of one channel (edges replicated). */
export function box3(src: Float32Array, w: number, h: number): Float32Array {
  const pw = w + 2;
  const pad = padEdge(src, w, h, 1);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    let ci = (y + 1) * pw + 1;
    for (let x = 0; x < w; x++, ci++) {
      out[y * w + x] = (pad[ci - pw - 1]! + pad[ci - pw]! + pad[ci - pw + 1]! + pad[ci - 1]! + pad[ci]! + pad[ci + 1]! + pad[ci + pw - 1]! + pad[ci + pw]! + pad[ci + pw + 1]!) / 9;
    }
  }
  return out;
}

function gaussKernel(sigma: number): Float32Array {
  const r = Math.ceil(3 * sigma);
  const k = new Float32Array(2 * r + 1);
  let s = 0;
  for (let i = -r; i <= r; i++) s += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= s;
  return k;
}

/** Separable Gaussian of one channel (edges replicated). */
export function gaussGrey(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  const k = gaussKernel(sigma);
  const r = (k.length - 1) >> 1;
  const pw = w + 2 * r;
  const pad = padEdge(src, w, h, r);
  const ph = h + 2 * r;
  // horizontal pass over every padded row, then vertical
  const tmp = new Float32Array(w * ph);
  for (let y = 0; y < ph; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      const base = y * pw + x;
      for (let i = 0; i < k.length; i++) s += k[i]! * pad[base + i]!;
      tmp[y * w + x] = s;
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let i = 0; i < k.length; i++) s += k[i]! * tmp[(y + i) * w + x]!;
      out[y * w + x] = s;
    }
  }
  return out;
}

/** Unsharp mask of one channel: v + amount * soft(v - gauss(v)), soft() zero below the threshold. */
export function unsharpGrey(src: Float32Array, w: number, h: number, amount: number, sigma: number, threshold: number): Float32Array {
  const blur = gaussGrey(src, w, h, sigma);
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i]!;
    const d = v - blur[i]!;
    const dd = d > threshold ? d - threshold : d < -threshold ? d + threshold : 0;
    out[i] = v + amount * dd;
  }
  return out;
}

/**
 * The whole chain on one buffer (a tile with its halo, or a whole image). Denoise and sharpening work on luma;
 * colour is carried as the differences R−Y and B−Y (lightly smoothed when denoising) and recombined at the end.
 */
export function enhanceRgb(rgb: Uint8Array, w: number, h: number, p: EnhanceParams): Uint8Array {
  const n = w * h;
  const lut = levelsLut(p);
  let Y: Float32Array = new Float32Array(n);
  let dR: Float32Array = new Float32Array(n);
  let dB: Float32Array = new Float32Array(n);
  for (let i = 0, q = 0; i < n; i++, q += 3) {
    const r = lut[rgb[q]!]!, g = lut[rgb[q + 1]!]!, b = lut[rgb[q + 2]!]!;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    Y[i] = y;
    dR[i] = r - y;
    dB[i] = b - y;
  }
  if (p.denoiseSigma > 0) {
    Y = bilateralGrey(Y, w, h, p.denoiseSigma);
    dR = box3(dR, w, h);
    dB = box3(dB, w, h);
  }
  if (p.sharpenAmount > 0) Y = unsharpGrey(Y, w, h, p.sharpenAmount, Math.min(p.sharpenSigma, MAX_SHARPEN_SIGMA), p.sharpenThreshold);
  const out = new Uint8Array(n * 3);
  const c8 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let i = 0, q = 0; i < n; i++, q += 3) {
    const y = Y[i]!;
    const r = y + dR[i]!, b = y + dB[i]!;
    out[q] = c8(r);
    out[q + 1] = c8((y - 0.299 * r - 0.114 * b) / 0.587);
    out[q + 2] = c8(b);
  }
  return out;
}
