// Face-compare score calibration: raw cosine of fr_feature embeddings → a 0..1 similarity whose default
// threshold 0.6 sits between the impostor and genuine distributions measured on ../shared/faces/people/.
// Pure module (no models): the API layer and docs may import it.

/** Knots (cosine → similarity) of the monotone piecewise-linear map. */
export const CALIBRATION_KNOTS: Array<[number, number]> = [
  [-1, 0],
  [0, 0.1],
  [0.3, 0.6],
  [0.6, 0.9],
  [1, 1],
];
/** The default decision threshold (spec) and the raw cosine it corresponds to. */
export const DEFAULT_FACE_THRESHOLD = 0.6;
export const COSINE_AT_DEFAULT = 0.3;

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
