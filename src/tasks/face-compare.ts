// Task: compare the subject's face of two images. Raw cosine of 512-d embeddings + the calibrated similarity.
import { inputBox, loadRgb } from './face-detect.js';
import { detectFaces, embedFace, cosine, subjectFace, FACE_MODELS, type Face, type RgbImage } from '../vision/index.js';
import { calibrate } from '../vision/calibration.js';

export interface FaceCompareInput {
  image1: Uint8Array;
  image2: Uint8Array;
  maxPixels?: number;
  /** field names for error messages (default image1 / image2) */
  fields?: [string, string];
}

export interface FaceSide {
  detected: boolean;
  /** faces found; the subject's (vision/face-subject.ts: the largest, weighted by closeness to the centre) is used */
  count: number;
  box: [number, number, number, number] | null;
}

export interface FaceCompareOutput {
  face1: FaceSide;
  face2: FaceSide;
  /** raw cosine of the two embeddings (null when a face is missing) */
  cosine: number | null;
  /** calibrated 0..1 similarity (0 when a face is missing) */
  similarity: number;
  model: typeof FACE_MODELS;
}

/** The subject's face of a decoded image (boxes in input pixels) and its embedding. */
export async function faceSide(img: RgbImage, scale: number, faces: Face[]): Promise<{ side: FaceSide; emb: Float32Array | null }> {
  if (!faces.length) return { side: { detected: false, count: 0, box: null }, emb: null };
  const f = subjectFace(faces, img.width, img.height)!;
  const emb = await embedFace(img, f);
  return { side: { detected: true, count: faces.length, box: inputBox(f.box, scale) }, emb };
}

async function side(bytes: Uint8Array, field: string, maxPixels?: number): Promise<{ side: FaceSide; emb: Float32Array | null }> {
  const { img, scale } = await loadRgb(bytes, field, maxPixels);
  return faceSide(img, scale, await detectFaces(img));
}

/** The output from two sides (similarity calibrated, both rounded to 4 places). */
export function compareSides(a: { side: FaceSide; emb: Float32Array | null }, b: { side: FaceSide; emb: Float32Array | null }): FaceCompareOutput {
  const cos = a.emb && b.emb ? cosine(a.emb, b.emb) : null;
  return {
    face1: a.side,
    face2: b.side,
    cosine: cos === null ? null : Math.round(cos * 10000) / 10000,
    similarity: cos === null ? 0 : Math.round(calibrate(cos) * 10000) / 10000,
    model: FACE_MODELS,
  };
}

export default async function faceCompare(input: FaceCompareInput): Promise<FaceCompareOutput> {
  const [n1, n2] = input.fields ?? ['image1', 'image2'];
  const a = await side(input.image1, n1, input.maxPixels);
  const b = await side(input.image2, n2, input.maxPixels);
  return compareSides(a, b);
}
