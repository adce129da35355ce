// Task: passive liveness of the subject's face of one image (vision/face-subject.ts): min(fr_liveness, screen/print cue score).
import { inputBox, loadRgb } from './face-detect.js';
import { detectFaces, subjectFace, LIVENESS_MODEL, type Face, type RgbImage } from '../vision/index.js';
import { livenessCheck } from '../vision/liveness.js';

export interface LivenessInput {
  image: Uint8Array;
  maxPixels?: number;
  field?: string;
}
export interface LivenessOutput {
  faceDetected: boolean;
  faceCount: number;
  /** probability of a live face 0..1 (0 when no face) */
  score: number;
  model: string;
  /** the checked (subject's) face as [x1, y1, x2, y2] in the input image's pixels; null when no face */
  box: [number, number, number, number] | null;
}

/** Liveness of the subject's face among `faces` (detected on `img`, a copy scaled by `scale`); shared with ekyc-verify-faces. */
export async function livenessOf(img: RgbImage, scale: number, faces: Face[]): Promise<LivenessOutput> {
  if (!faces.length) return { faceDetected: false, faceCount: 0, score: 0, model: LIVENESS_MODEL, box: null };
  const face = subjectFace(faces, img.width, img.height)!;
  const { score } = await livenessCheck(img, face.box);
  return { faceDetected: true, faceCount: faces.length, score: Math.round(score * 10000) / 10000, model: LIVENESS_MODEL, box: inputBox(face.box, scale) };
}

export default async function liveness(input: LivenessInput): Promise<LivenessOutput> {
  const { img, scale } = await loadRgb(input.image, input.field ?? 'image', input.maxPixels);
  return livenessOf(img, scale, await detectFaces(img));
}
