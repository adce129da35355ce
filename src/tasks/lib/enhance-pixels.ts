// Pixel helpers of the enhancement tasks: rectangles in and out of interleaved RGB, the privacy blur, the
// feathered blend of tiles and the byte-exact restore of privacy regions.
import { axisWeight, type Rect, type Tile } from './tiling.js';

export const CH = 3;

/** Copy a rectangle out of an interleaved RGB image. */
export function cutRect(src: Uint8Array, width: number, r: Rect): Uint8Array {
  const out = new Uint8Array(r.w * r.h * CH);
  for (let y = 0; y < r.h; y++) {
    const s = ((r.y + y) * width + r.x) * CH;
    out.set(src.subarray(s, s + r.w * CH), y * r.w * CH);
  }
  return out;
}

/** Write a rectangle's pixels into an image (the inverse of cutRect). */
export function pasteRect(dst: Uint8Array, width: number, r: Rect, px: Uint8Array): void {
  for (let y = 0; y < r.h; y++) dst.set(px.subarray(y * r.w * CH, (y + 1) * r.w * CH), ((r.y + y) * width + r.x) * CH);
}

/** Copy a rectangle from one image to another of the same size, byte for byte. */
export function copyRect(dst: Uint8Array, src: Uint8Array, width: number, r: Rect): void {
  for (let y = 0; y < r.h; y++) {
    const s = ((r.y + y) * width + r.x) * CH;
    dst.set(src.subarray(s, s + r.w * CH), s);
  }
}

function boxBlurRect(img: Uint8Array, width: number, r: Rect, radius: number): void {
  const { w, h } = r;
  const buf = new Float32Array(w * h * CH);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < CH; c++) buf[(y * w + x) * CH + c] = img[((r.y + y) * width + r.x + x) * CH + c]!;
  const tmp = new Float32Array(buf.length);
  const pass = (from: Float32Array, to: Float32Array, horizontal: boolean) => {
    const len = horizontal ? w : h, lines = horizontal ? h : w;
    for (let l = 0; l < lines; l++) {
      for (let c = 0; c < CH; c++) {
        const at = (i: number) => (horizontal ? (l * w + i) * CH + c : (i * w + l) * CH + c);
        let s = 0;
        for (let i = -radius; i <= radius; i++) s += from[at(Math.min(len - 1, Math.max(0, i)))]!;
        for (let i = 0; i < len; i++) {
          to[at(i)] = s / (2 * radius + 1);
          s += from[at(Math.min(len - 1, i + radius + 1))]! - from[at(Math.max(0, i - radius))]!;
        }
      }
    }
  };
  for (let k = 0; k < 3; k++) {
    pass(buf, tmp, true);
    pass(tmp, buf, false);
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < CH; c++) img[((r.y + y) * width + r.x + x) * CH + c] = Math.round(buf[(y * w + x) * CH + c]!);
}

/** Blur a privacy region in place so strongly that no glyph survives (3 box passes ≈ Gaussian, radius ≥ 12 px). */
export function blurRegion(img: Uint8Array, width: number, r: Rect): void {
  if (r.w === 0 || r.h === 0) return;
  const radius = Math.max(12, Math.round(Math.min(r.w, r.h) / 3));
  boxBlurRect(img, width, r, radius);
}

/** Blend enhanced tiles (each exactly its tile rectangle) with the feathering weights of the plan. */
export function blendTiles(width: number, height: number, tiles: Tile[], pixels: Uint8Array[]): Uint8Array {
  const acc = new Float32Array(width * height * CH);
  const wsum = new Float32Array(width * height);
  tiles.forEach((t, k) => {
    const px = pixels[k]!;
    if (px.length !== t.w * t.h * CH) throw new Error(`tile ${t.index} has ${px.length} bytes, expected ${t.w * t.h * CH}`);
    // the weight is separable: weightAt(t, dx, dy) = wx[dx] * wy[dy]
    const wx = new Float32Array(t.w), wy = new Float32Array(t.h);
    for (let dx = 0; dx < t.w; dx++) wx[dx] = axisWeight(dx, t.w, t.feather.left, t.feather.right);
    for (let dy = 0; dy < t.h; dy++) wy[dy] = axisWeight(dy, t.h, t.feather.top, t.feather.bottom);
    for (let dy = 0; dy < t.h; dy++) {
      const wyv = wy[dy]!;
      let i = (t.y + dy) * width + t.x;
      let s = dy * t.w * CH;
      for (let dx = 0; dx < t.w; dx++, i++, s += CH) {
        const wt = wx[dx]! * wyv;
        if (wt <= 0) continue;
        wsum[i]! += wt;
        acc[i * CH]! += wt * px[s]!;
        acc[i * CH + 1]! += wt * px[s + 1]!;
        acc[i * CH + 2]! += wt * px[s + 2]!;
      }
    }
  });
  const out = new Uint8Array(width * height * CH);
  for (let i = 0; i < width * height; i++) {
    const ws = wsum[i]!;
    if (ws <= 0) throw new Error(`pixel ${i % width},${Math.floor(i / width)} is covered by no tile`);
    for (let c = 0; c < CH; c++) {
      const v = acc[i * CH + c]! / ws;
      out[i * CH + c] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
    }
  }
  return out;
}

/**
 * Fade from the enhanced pixels back to the original over a band of `margin` px around a region (outside it), so
 * that a restored region does not sit in the enhanced card as a rectangle of another brightness: weight of the
 * original 1 at the region's edge, falling linearly to 0 at `margin` px (Chebyshev distance). The region itself
 * is not touched here (copyRect restores it exactly afterwards).
 */
export function fadeAround(out: Uint8Array, original: Uint8Array, width: number, height: number, r: Rect, margin: number): void {
  if (margin <= 0 || r.w === 0 || r.h === 0) return;
  const x0 = Math.max(0, r.x - margin), y0 = Math.max(0, r.y - margin);
  const x1 = Math.min(width, r.x + r.w + margin), y1 = Math.min(height, r.y + r.h + margin);
  for (let y = y0; y < y1; y++) {
    const dy = y < r.y ? r.y - y : y >= r.y + r.h ? y - (r.y + r.h - 1) : 0;
    for (let x = x0; x < x1; x++) {
      const dx = x < r.x ? r.x - x : x >= r.x + r.w ? x - (r.x + r.w - 1) : 0;
      const d = Math.max(dx, dy);
      if (d === 0 || d > margin) continue;
      const w = 1 - (d - 0.5) / margin;
      const i = (y * width + x) * CH;
      for (let c = 0; c < CH; c++) out[i + c] = Math.round(out[i + c]! + w * (original[i + c]! - out[i + c]!));
    }
  }
}
