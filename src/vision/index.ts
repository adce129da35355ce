// The one vision runtime. Import from here inside worker tasks (src/tasks/*); never on the main thread.
export type { Raster, RgbImage, Box, Point } from './raster.js';
export { cropResize, warpAffine, similarityTransform, invertAffine, toGrey } from './raster.js';
export { detectFaces, landmarks68, fivePoints, alignFace, embedAligned, embedFace, cosine, ARCFACE_TEMPLATE, FACE_MODELS, type Face, type DetectOptions } from './face.js';
export { subjectFace } from './face-subject.js';
export { livenessScore, livenessCheck, livenessCrop, LIVENESS_MODEL, LIVENESS_THRESHOLD, type LivenessCheck } from './liveness.js';
export { detectTextBoxes, recognizeBoxes, ocrRegions, recognizeText, OCR_MODELS, type TextLine, type OcrRegionsOptions, type DetectTextOptions } from './ocr.js';
export { MODELS, modelTag, sessionCount } from './models.js';
