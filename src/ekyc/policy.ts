// The e-KYC pass/fail policy in one place: the thresholds and the rules that turn the measurements (face
// similarity, liveness score, OCR confidence) into passed/failed and the failure reasons. Used by the face-compare,
// liveness and verify routes (api/ekyc.ts); nothing here measures anything.
import { DEFAULT_FACE_THRESHOLD } from '../vision/calibration.js';
import { LIVENESS_THRESHOLD as CALIBRATED_LIVENESS_THRESHOLD } from '../vision/liveness.js';

/** calibrated face similarity needed for a match (vision/calibration.ts) */
export const FACE_MATCH_THRESHOLD = DEFAULT_FACE_THRESHOLD;
/** liveness score needed to pass (vision/liveness.ts) */
export const LIVENESS_THRESHOLD = CALIBRATED_LIVENESS_THRESHOLD;
/** verify: minimum OCR confidence (mean of name and birth date) for the OCR part to pass */
export const VERIFY_OCR_MIN_CONFIDENCE = 0.6;

export interface FaceMeasure { face1: { detected: boolean }; face2: { detected: boolean }; similarity: number }
export interface LivenessMeasure { faceDetected: boolean; score: number }
export interface OcrMeasure { name: string; birth_date: string; confidence: number; mrzValid?: boolean }

/** Both faces found and similar enough. */
export function faceMatchPassed(r: FaceMeasure, threshold = FACE_MATCH_THRESHOLD): boolean {
  return r.face1.detected && r.face2.detected && r.similarity >= threshold;
}

/** A face found and its liveness score high enough. */
export function livenessPassed(r: LivenessMeasure): boolean {
  return r.faceDetected && r.score >= LIVENESS_THRESHOLD;
}

/** Name and birth date read, with enough confidence, and (passports) a valid machine-readable zone. */
export function ocrPassed(r: OcrMeasure): boolean {
  return !!r.name && !!r.birth_date && r.confidence >= VERIFY_OCR_MIN_CONFIDENCE && r.mrzValid !== false;
}

export interface VerifyDecision {
  ocrPassed: boolean;
  facePassed: boolean;
  livePassed: boolean;
  overall: boolean;
  /** why it failed, in the order OCR, faces, liveness (empty when it passed) */
  reasons: string[];
}

/** The verify decision: all three parts must pass; every failed part gives its reason. */
export function verifyDecision(ocr: OcrMeasure, face: FaceMeasure, live: LivenessMeasure): VerifyDecision {
  const o = ocrPassed(ocr), f = faceMatchPassed(face), l = livenessPassed(live);
  const reasons: string[] = [];
  if (!ocr.name || !ocr.birth_date) reasons.push('The name or birth date could not be read from the ID image.');
  else if (ocr.mrzValid === false) reasons.push('The passport machine-readable zone failed its check digits.');
  else if (ocr.confidence < VERIFY_OCR_MIN_CONFIDENCE) reasons.push(`The ID text was read with low confidence (${ocr.confidence} < ${VERIFY_OCR_MIN_CONFIDENCE}).`);
  if (!face.face1.detected) reasons.push('No face was found in the ID face image.');
  if (!face.face2.detected) reasons.push('No face was found in the selfie.');
  if (face.face1.detected && face.face2.detected && !f) reasons.push(`The selfie does not match the ID photo (similarity ${face.similarity} < ${FACE_MATCH_THRESHOLD}).`);
  if (live.faceDetected && !l) reasons.push(`The selfie did not pass the liveness check (score ${live.score} < ${LIVENESS_THRESHOLD}): it may be a photo of a print or a screen.`);
  return { ocrPassed: o, facePassed: f, livePassed: l, overall: o && f && l, reasons };
}
