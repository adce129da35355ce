// Plain pixel arrays and the few geometric operations the models need (no sharp here: these run on decoded pixels).

/** Interleaved 8-bit pixels, row-major. channels 3 = RGB. */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}
export interface RgbImage extends Raster {
  channels: 3;
}

export type Point = [number, number];
export type Box = [number, number, number, number];

/** Bilinear sample of channel c at (x, y) in pixel-centre coordinates; outside the image → `fill`. */
function sampler(img: Raster, fill = 0) {
  const { data, width: W, height: H, channels: C } = img;
  return (x: number, y: number, out: Float32Array | number[], o = 0): void => {
    if (x < -1 || y < -1 || x > W || y > H) {
      for (let c = 0; c < C; c++) out[o + c] = fill;
      return;
    }
    const x0 = Math.floor(x), y0 = Math.floor(y);
    const fx = x - x0, fy = y - y0;
    const xa = Math.min(Math.max(x0, 0), W - 1), xb = Math.min(Math.max(x0 + 1, 0), W - 1);
    const ya = Math.min(Math.max(y0, 0), H - 1), yb = Math.min(Math.max(y0 + 1, 0), H - 1);
    const i00 = (ya * W + xa) * C, i01 = (ya * W + xb) * C, i10 = (yb * W + xa) * C, i11 = (yb * W + xb) * C;
    for (let c = 0; c < C; c++) {
      const top = data[i00 + c]! * (1 - fx) + data[i01 + c]! * fx;
      const bot = data[i10 + c]! * (1 - fx) + data[i11 + c]! * fx;
      out[o + c] = top * (1 - fy) + bot * fy;
    }
  };
}

/**
 * Crop the rectangle (x, y, w, h) (may extend outside the image: zero fill) and resize it to ow × oh.
 * Area-averages when shrinking by more than 2× (sub-samples a small grid per output pixel), bilinear otherwise.
 */
export function cropResize(img: Raster, x: number, y: number, w: number, h: number, ow: number, oh: number, fill = 0): Raster {
  const C = img.channels;
  const out = new Uint8Array(ow * oh * C);
  const sx = w / ow, sy = h / oh;
  const nx = Math.max(1, Math.min(4, Math.floor(sx))), ny = Math.max(1, Math.min(4, Math.floor(sy)));
  const s = sampler(img, fill);
  const px = new Float32Array(C);
  const acc = new Float32Array(C);
  for (let j = 0; j < oh; j++) {
    for (let i = 0; i < ow; i++) {
      acc.fill(0);
      for (let b = 0; b < ny; b++) {
        const yy = y + (j + (b + 0.5) / ny) * sy - 0.5;
        for (let a = 0; a < nx; a++) {
          const xx = x + (i + (a + 0.5) / nx) * sx - 0.5;
          s(xx, yy, px);
          for (let c = 0; c < C; c++) acc[c]! += px[c]!;
        }
      }
      const o = (j * ow + i) * C;
      for (let c = 0; c < C; c++) out[o + c] = Math.round(acc[c]! / (nx * ny));
    }
  }
  return { data: out, width: ow, height: oh, channels: C };
}

/** Output pixel (u, v) takes source pixel M·(u, v, 1), M = [a, b, c, d, e, f] (dst → src). */
export function warpAffine(img: Raster, m: number[], ow: number, oh: number, fill = 0): Raster {
  const C = img.channels;
  const out = new Uint8Array(ow * oh * C);
  const s = sampler(img, fill);
  const px = new Float32Array(C);
  for (let v = 0; v < oh; v++) {
    for (let u = 0; u < ow; u++) {
      s(m[0]! * u + m[1]! * v + m[2]!, m[3]! * u + m[4]! * v + m[5]!, px);
      const o = (v * ow + u) * C;
      for (let c = 0; c < C; c++) out[o + c] = Math.round(px[c]!);
    }
  }
  return { data: out, width: ow, height: oh, channels: C };
}

/**
 * Least-squares similarity transform (Umeyama) taking src points to dst points: returns [a, b, c, d, e, f]
 * with dst = [a b; d e]·src + [c; f].
 */
export function similarityTransform(src: Point[], dst: Point[]): number[] {
  const n = src.length;
  let mxs = 0, mys = 0, mxd = 0, myd = 0;
  for (let i = 0; i < n; i++) { mxs += src[i]![0]; mys += src[i]![1]; mxd += dst[i]![0]; myd += dst[i]![1]; }
  mxs /= n; mys /= n; mxd /= n; myd /= n;
  let sxx = 0, sxy = 0, varS = 0;
  // complex-number form: scale·rotation = Σ (d·conj(s)) / Σ |s|²
  let re = 0, im = 0;
  for (let i = 0; i < n; i++) {
    const xs = src[i]![0] - mxs, ys = src[i]![1] - mys, xd = dst[i]![0] - mxd, yd = dst[i]![1] - myd;
    re += xd * xs + yd * ys;
    im += yd * xs - xd * ys;
    varS += xs * xs + ys * ys;
  }
  void sxx; void sxy;
  const a = re / varS, b = im / varS; // [a -b; b a]
  return [a, -b, mxd - (a * mxs - b * mys), b, a, myd - (b * mxs + a * mys)];
}

/** Inverse of an affine [a, b, c, d, e, f]. */
export function invertAffine(m: number[]): number[] {
  const [a, b, c, d, e, f] = m as [number, number, number, number, number, number];
  const det = a * e - b * d;
  return [e / det, -b / det, (b * f - c * e) / det, -d / det, a / det, (c * d - a * f) / det];
}

export function toGrey(img: Raster): Raster {
  if (img.channels === 1) return img;
  const n = img.width * img.height, C = img.channels;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * C;
    out[i] = Math.round(0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!);
  }
  return { data: out, width: img.width, height: img.height, channels: 1 };
}

export const boxArea = (b: Box): number => (b[2] - b[0]) * (b[3] - b[1]);

/** share of box a's area that lies inside box b */
export function containment(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  return (ix * iy) / Math.max(1e-9, boxArea(a));
}

export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return ua > 0 ? inter / ua : 0;
}

/** Greedy non-maximum suppression; returns kept indices in score order. */
export function nms(boxes: Box[], scores: number[], thr: number): number[] {
  const order = scores.map((_, i) => i).sort((i, j) => scores[j]! - scores[i]!);
  const keep: number[] = [];
  for (const i of order) {
    if (keep.every((k) => iou(boxes[k]!, boxes[i]!) <= thr)) keep.push(i);
  }
  return keep;
}

/** HWC uint8 → planar CHW float32 with per-channel (x·scale + bias); `order` picks source channels (e.g. [2,1,0] for BGR). */
export function toPlanar(img: Raster, scale: number, bias: number, order: number[] = [0, 1, 2]): Float32Array {
  const n = img.width * img.height, C = img.channels;
  const out = new Float32Array(order.length * n);
  for (let k = 0; k < order.length; k++) {
    const ch = order[k]!;
    const base = k * n;
    for (let i = 0; i < n; i++) out[base + i] = img.data[i * C + ch]! * scale + bias;
  }
  return out;
}
