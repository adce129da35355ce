// Task: the face part of e-KYC verify in one pass. The selfie is decoded and its faces detected once; its subject's
// face is both embedded (compared with the ID face image, as the face-compare task does) and checked for liveness
// (as the liveness task does). The answers are those two tasks' outputs.
import { loadRgb } from './face-detect.js';
import { compareSides, faceSide, type FaceCompareOutput } from './face-compare.js';
import { detectFaces } from '../vision/index.js';
import { livenessOf, type LivenessOutput } from './liveness.js';

export interface VerifyFacesInput {
  /** the face image cut from the ID card */
  idFace: Uint8Array;
  selfie: Uint8Array;
  maxPixels?: number;
  /** field names for error messages: [ID face, selfie] */
  fields: [string, string];
}

export interface VerifyFacesOutput {
  /** face1 = the ID face, face2 = the selfie */
  compare: FaceCompareOutput;
  liveness: LivenessOutput;
}

export default async function ekycVerifyFaces(input: VerifyFacesInput): Promise<VerifyFacesOutput> {
  const [idField, selfieField] = input.fields;
  const id = await loadRgb(input.idFace, idField, input.maxPixels);
  const a = await faceSide(id.img, id.scale, await detectFaces(id.img));
  const selfie = await loadRgb(input.selfie, selfieField, input.maxPixels);
  const faces = await detectFaces(selfie.img);
  const b = await faceSide(selfie.img, selfie.scale, faces);
  return { compare: compareSides(a, b), liveness: await livenessOf(selfie.img, selfie.scale, faces) };
}
