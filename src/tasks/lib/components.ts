// 8- (or 4-) connected component labelling over a binary mask (row-major, width*height, non-zero = foreground),
// with an explicit typed-array stack (no recursion). Shared by contour (short-edge removal), perspective (edge
// chains) and receipt (despeckle; the paper region, 4-connected).

export interface ComponentOptions {
  /**
   * Stop collecting a component once it has more than `cap` pixels: the callback then receives only the first
   * cap + 1 pixels (so `pixels.length > cap` tells it the component is large), and the rest of the component is
   * marked as visited without being collected. For callers that only act on small components (receipt
   * despeckle), this keeps large components cheap.
   */
  cap?: number;
  /** 8 (default: diagonal neighbours join) or 4 (only left, right, up, down) */
  connectivity?: 4 | 8;
}

/**
 * Calls `onComponent` once per 8-connected (or 4-connected) component of non-zero pixels of `mask`, in row-major order of each
 * component's first pixel, with the component's pixel indices (y * w + x) in flood-fill order. The array is a
 * view into a reused buffer: valid only during the call (copy it with `slice()` to keep it). `mask` is not
 * modified; the callback may modify `mask` for pixels already handed to it.
 *
 * With `cap`: the pixel that brings the count to cap + 1 ends collection; the fill still walks the whole
 * component, so every pixel of a large component is marked as visited and none is reported as a separate piece.
 */
export function forEachComponent(
  mask: Uint8Array,
  w: number,
  h: number,
  onComponent: (pixels: Int32Array) => void,
  options: ComponentOptions = {},
): void {
  const cap = options.cap ?? Infinity;
  const four = options.connectivity === 4;
  const seen = new Uint8Array(w * h);
  let stack = new Int32Array(64);
  let comp = new Int32Array(64);
  let sp = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || seen[i]) continue;
    let n = 0;
    let collecting = true;
    seen[i] = 1;
    stack[sp++] = i;
    while (sp > 0) {
      const j = stack[--sp]!;
      if (collecting) {
        if (n === comp.length) comp = grow(comp);
        comp[n++] = j;
        // large enough: the rest is only marked as seen, not collected (j itself is still expanded, so a
        // long thin stroke is never cut into pieces that would look like specks)
        if (n > cap) collecting = false;
      }
      const x = j % w, y = (j - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w || (four && dx !== 0 && dy !== 0)) continue;
          const k = yy * w + xx;
          if (mask[k] && !seen[k]) {
            seen[k] = 1;
            if (sp === stack.length) stack = grow(stack);
            stack[sp++] = k;
          }
        }
      }
    }
    onComponent(comp.subarray(0, n));
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
