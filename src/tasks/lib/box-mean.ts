// Box mean over a (2r+1)² window clipped to the image, from an integral image: the one implementation, used by
// the studio's guided filter and by the grey-image helpers (Sauvola, local statistics).

/** Box mean over a (2r+1)^2 window clipped to the plane (edge-normalised), via an integral image. */
export function boxMean(src: Float32Array, w: number, h: number, r: number, out = new Float32Array(src.length)): Float32Array {
  const W = w + 1;
  const S = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += src[y * w + x]!;
      S[(y + 1) * W + x + 1] = S[y * W + x + 1]! + row;
    }
  }
  for (let y = 0; y < h; y++) {
    const ya = Math.max(0, y - r), yb = Math.min(h, y + r + 1);
    for (let x = 0; x < w; x++) {
      const xa = Math.max(0, x - r), xb = Math.min(w, x + r + 1);
      const sum = S[yb * W + xb]! - S[ya * W + xb]! - S[yb * W + xa]! + S[ya * W + xa]!;
      out[y * w + x] = sum / ((yb - ya) * (xb - xa));
    }
  }
  return out;
}
