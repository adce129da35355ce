// The e-KYC pass/fail policy (src/ekyc/policy.ts): thresholds and reasons, without images.
import t from 'tap';
import { FACE_MATCH_THRESHOLD, LIVENESS_THRESHOLD, VERIFY_OCR_MIN_CONFIDENCE, faceMatchPassed, livenessPassed, ocrPassed, verifyDecision } from '../../src/ekyc/policy.js';

const face = (similarity: number, d1 = true, d2 = true) => ({ face1: { detected: d1 }, face2: { detected: d2 }, similarity });
const ocr = { name: '홍길동', birth_date: '1990-01-01', confidence: 0.9 };

t.test('thresholds', async (t) => {
  t.equal(FACE_MATCH_THRESHOLD, 0.6);
  t.equal(LIVENESS_THRESHOLD, 0.5);
  t.equal(VERIFY_OCR_MIN_CONFIDENCE, 0.6);
  t.equal(faceMatchPassed(face(0.6)), true);
  t.equal(faceMatchPassed(face(0.59)), false);
  t.equal(faceMatchPassed(face(0.9, false)), false, 'a missing face never passes');
  t.equal(faceMatchPassed(face(0.7), 0.8), false, 'a caller threshold');
  t.equal(livenessPassed({ faceDetected: true, score: 0.5 }), true);
  t.equal(livenessPassed({ faceDetected: false, score: 0.9 }), false);
  t.equal(ocrPassed({ ...ocr, mrzValid: false }), false);
  t.equal(ocrPassed({ ...ocr, confidence: 0.59 }), false);
});

t.test('verify decision: all three must pass; each failure gives its reason', async (t) => {
  const ok = verifyDecision(ocr, face(0.8), { faceDetected: true, score: 0.9 });
  t.same(ok, { ocrPassed: true, facePassed: true, livePassed: true, overall: true, reasons: [] });
  const bad = verifyDecision({ ...ocr, confidence: 0.4 }, face(0.3), { faceDetected: true, score: 0.2 });
  t.equal(bad.overall, false);
  t.same(bad.reasons, [
    'The ID text was read with low confidence (0.4 < 0.6).',
    'The selfie does not match the ID photo (similarity 0.3 < 0.6).',
    'The selfie did not pass the liveness check (score 0.2 < 0.5): it may be a photo of a print or a screen.',
  ]);
  const noFaces = verifyDecision({ ...ocr, name: '' }, face(0, false, false), { faceDetected: false, score: 0 });
  t.same(noFaces.reasons, ['The name or birth date could not be read from the ID image.', 'No face was found in the ID face image.', 'No face was found in the selfie.']);
});
