// Task: passive liveness of the largest face of one image: min(fr_liveness, screen/print cue score).
import { loadRgb } from './face-detect.js';
import { detectFaces, LIVENESS_MODEL } from '../vision/index.js';
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
}

export default async function liveness(input: LivenessInput): Promise<LivenessOutput> {
  const { img } = await loadRgb(input.image, input.field ?? 'image', input.maxPixels);
  const faces = await detectFaces(img);
  if (!faces.length) return { faceDetected: false, faceCount: 0, score: 0, model: LIVENESS_MODEL };
  const { score } = await livenessCheck(img, faces[0]!.box);
  return { faceDetected: true, faceCount: faces.length, score: Math.round(score * 10000) / 10000, model: LIVENESS_MODEL };
}
