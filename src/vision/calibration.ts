// Face-compare score calibration: raw cosine of fr_feature embeddings → a 0..1 similarity whose default
// threshold 0.6 is a cosine of 0.40: FMR 0.057 % (88 / 153,489 impostor pairs), FNMR 1.93 % (55 / 2,843 genuine
// pairs) on the calibration set of 2026-11-22 (bench/face-calib.ts): ORL faces (40 people × 7 photos) and
// ../shared/faces/people (8 × 5), each photo also printed on a synthetic ID card (hologram, 640 px, JPEG) and cut
// out by the real pipeline; card ↔ photo pairs included. The cosine for FMR ≤ 0.1 % there was 0.388; 0.40 keeps a
// margin. (Before: cosine 0.30 ↔ 0.6, fitted on 40 photos; 1.33 % FMR on this set.)
// Pure module (no models): the API layer and docs may import it.

/** Knots (cosine → similarity) of the monotone piecewise-linear map. */
export const CALIBRATION_KNOTS: Array<[number, number]> = [
  [-1, 0],
  [0, 0.1],
  [0.4, 0.6],
  [0.7, 0.9],
  [1, 1],
];
/** The default decision threshold (spec) and the raw cosine it corresponds to. */
export const DEFAULT_FACE_THRESHOLD = 0.6;
export const COSINE_AT_DEFAULT = 0.4;

export function calibrate(cos: number): number {
  const c = Math.max(-1, Math.min(1, cos));
  for (let i = 1; i < CALIBRATION_KNOTS.length; i++) {
    const [x0, y0] = CALIBRATION_KNOTS[i - 1]!, [x1, y1] = CALIBRATION_KNOTS[i]!;
    if (c <= x1) return y0 + ((c - x0) / (x1 - x0)) * (y1 - y0);
  }
  return 1;
}

/** Inverse map (similarity threshold → raw cosine), for documentation and the bench. */
export function cosineFor(similarity: number): number {
  const s = Math.max(0, Math.min(1, similarity));
  for (let i = 1; i < CALIBRATION_KNOTS.length; i++) {
    const [x0, y0] = CALIBRATION_KNOTS[i - 1]!, [x1, y1] = CALIBRATION_KNOTS[i]!;
    if (s <= y1) return x0 + ((s - y0) / (y1 - y0)) * (x1 - x0);
  }
  return 1;
}
