// Which of the faces found in a selfie or an ID photo is the subject's: the compare and liveness tasks check one face.
import { boxArea, type Box } from './raster.js';

/** How strongly a face's distance from the image centre counts against its size (see subjectFace). */
export const SUBJECT_CENTRE_WEIGHT = 8;

/** The face's centre offset from the image centre, as shares of the image's width and height, squared and summed. */
export function centreOffset2(box: Box, width: number, height: number): number {
  const dx = (box[0] + box[2]) / 2 / width - 0.5, dy = (box[1] + box[3]) / 2 / height - 0.5;
  return dx * dx + dy * dy;
}

/**
 * The subject among the faces: the largest, its area weighted by exp(−8·d²), d the centre's offset as a share of the
 * image. A photo taken of a person frames them: a bystander behind them is smaller and off to a side. With the weight, a
 * face 0.3 of the width and 0.3 of the height off the middle (d² = 0.18) needs 4.2× the area of one in the middle to
 * be taken instead. The 8 was set on bench/face-pairs.ts's tune half ('second-face': a subject whose own photo frames
 * the face small, found at 0.37 of the area of a bystander's in the corner, was the one wrong choice there).
 */
export function subjectFace<F extends { box: Box }>(faces: readonly F[], width: number, height: number): F | undefined {
  let best: F | undefined, bestW = -1;
  for (const f of faces) {
    const w = boxArea(f.box) * Math.exp(-SUBJECT_CENTRE_WEIGHT * centreOffset2(f.box, width, height));
    if (w > bestW) { best = f; bestW = w; }
  }
  return best;
}
