// Success answers of the e-KYC routes: face compare, liveness, ID OCR, verify, account checks, quality, perspective
// crop, QR recognition, and the enhance / enhance-pipeline jobs (synchronous answer, 202 callback mode, status).
import { z } from 'zod';
import { DOC_TYPES, PRIVACY_MODES } from '../../enhance/privacy.js';
import { isoDate, jobError, point, size } from './common.js';

const ms = z.number().describe('milliseconds');
const notes = z.array(z.string()).optional().describe('several faces, or no face found');
const faceBox = z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().describe('[x1, y1, x2, y2] of the face used, in that image\'s pixels; null when none was found');

export const faceCompare = z.strictObject({
  similarity: z.number(), threshold: z.number(), passed: z.boolean(), face1_detected: z.boolean(), face2_detected: z.boolean(),
  processing_time_ms: ms, face1_count: z.number().int(), face2_count: z.number().int(), notes, model: z.string(),
  face_boxes: z.strictObject({ image1: faceBox, image2: faceBox }).describe('by multipart part'),
});

export const liveness = z.strictObject({
  score: z.number(), threshold: z.number(), passed: z.boolean(), face_detected: z.boolean(), processing_time_ms: ms,
  face_count: z.number().int(), notes, model: z.string(), face_boxes: z.strictObject({ image: faceBox }).describe('by multipart part'),
});

const ocrField = z.strictObject({ text: z.string(), confidence: z.number(), bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe('[x1, y1, x2, y2]') });
export const idOcr = z.strictObject({
  docType: z.enum(DOC_TYPES), fields: z.record(z.string(), ocrField).describe('by field name (name, jumin_full, …)'),
  overallConfidence: z.number(), processingTimeMs: ms, engine: z.string(),
});

export const verify = z.strictObject({
  success: z.literal(true), verification_id: z.string(),
  results: z.strictObject({
    ocr: z.strictObject({ name: z.string(), birth_date: z.string(), confidence: z.number(), suggestions: z.array(z.string()), passed: z.boolean() }),
    face_match: z.strictObject({
      similarity: z.number(), threshold: z.number(), passed: z.boolean(), face1_detected: z.boolean(), face2_detected: z.boolean(),
      face_boxes: z.strictObject({ face_image: faceBox, selfie_image: faceBox }).describe('by multipart part'),
    }),
    liveness: z.strictObject({ score: z.number(), threshold: z.number(), passed: z.boolean(), face_detected: z.boolean() }),
  }),
  overall_passed: z.boolean(), failure_reasons: z.array(z.string()), processing_time_ms: ms,
});

export const holderName = z.strictObject({ holderName: z.string(), processingTimeMs: ms });
export const accountCheck = z.strictObject({ isValid: z.boolean(), processingTimeMs: ms, reason: z.string().optional() });

const metrics = z.strictObject({ laplacianVariance: z.number(), meanLuma: z.number(), stdLuma: z.number(), glareRatio: z.number(), darkRatio: z.number() });
const thresholds = z.strictObject({
  blurLaplacianVariance: z.number(), brightness: z.tuple([z.number(), z.number()]), minContrast: z.number(),
  maxGlareRatio: z.number(), minShortSide: z.number(), passOverall: z.number(),
});
export const qualityCheck = z.strictObject({
  success: z.literal(true), brightness: z.number(), contrast: z.number(), sharpness: z.number(), overall_quality: z.number(),
  passed: z.boolean(), suggestions: z.array(z.string()), is_blurry: z.boolean(), bucket_key: z.string(),
  width: z.number().int(), height: z.number().int(), metrics, thresholds, processing_time_ms: ms,
});
export const analyzeQuality = z.strictObject({
  success: z.literal(true), brightness: z.number(), contrast: z.number(), sharpness: z.number(), overallScore: z.number(),
  isBlurry: z.boolean(), bucketKey: z.string(), passed: z.boolean(), recommendations: z.array(z.string()),
  width: z.number().int(), height: z.number().int(), metrics, thresholds, processingTimeMs: ms,
});

const quad = z.tuple([point, point, point, point]).describe('TL, TR, BR, BL in input pixels');
export const perspectiveCrop = z.strictObject({
  success: z.boolean().describe('false when no card outline was found'), detectedCorners: quad.nullable(), cornerSource: z.enum(['auto', 'given']),
  cardType: z.string().nullable(), confidence: z.number(), rotationAngle: z.number().nullable(),
  outputWidth: z.number().int(), outputHeight: z.number().int(), inputDimensions: size,
  croppedImage: z.string().nullable().describe('JPEG, base64'), croppedImageFormat: z.literal('jpeg').nullable(),
  message: z.string().optional(), bestGuessCorners: quad.optional(), processingTimeMs: ms,
});

export const qrRecognize = z.strictObject({
  success: z.boolean(), data: z.string().nullable(), method: z.string().nullable(), attempts: z.number().int(),
  format: z.string().nullable(), position: z.array(point).nullable().describe('corners TL, TR, BR, BL'), tried: z.array(z.string()),
  message: z.string().optional(), processingTimeMs: ms,
});

// ------------------------------------------------------------------ enhance and enhance-pipeline
const qualitySummary = z.strictObject({ brightness: z.number(), contrast: z.number(), sharpness: z.number(), overallScore: z.number() });
const step = z.looseObject({ success: z.boolean(), skipped: z.boolean().optional(), reason: z.string().optional(), error: jobError.optional() }).describe('the step\'s data');
const steps = z.strictObject({ perspectiveCrop: step.optional(), qualityAnalysis: step.optional(), ocr: step.optional(), enhance: step.optional() });

export const enhanceDone = z.strictObject({
  success: z.literal(true), jobId: z.string(), status: z.literal('completed'), docType: z.enum(DOC_TYPES), privacyMode: z.enum(PRIVACY_MODES),
  privacyRegions: z.array(z.strictObject({ field: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number() })),
  enhancedImageUrl: z.string(), qualityBefore: qualitySummary, qualityAfter: qualitySummary, tilesProcessed: z.number().int(),
  processingTimeMs: ms, estimatedCostUsd: z.number(), tenantId: z.string().nullable(), width: z.number().int(), height: z.number().int(),
  filters: z.record(z.string(), z.unknown()), accessKey: z.string(),
});

export const pipelineDone = z.strictObject({
  success: z.literal(true), jobId: z.string(), status: z.literal('completed'), docType: z.enum(DOC_TYPES).nullable(),
  docTypeSource: z.enum(['given', 'detected', 'none']), docTypeConfidence: z.number().nullable(), steps,
  totalTimeMs: ms, estimatedCostUsd: z.number(), tenantId: z.string().nullable(), accessKey: z.string(),
});

export const enhanceAccepted = z.strictObject({
  success: z.literal(true), jobId: z.string(), accessKey: z.string(), status: z.literal('processing'), statusUrl: z.string(),
  enhancedImageUrl: z.string(), estimatedCostUsd: z.number(), callback: z.strictObject({ url: z.string() }),
});

const callbackState = z.strictObject({ state: z.string(), attempts: z.number().int(), lastStatus: z.number().int().nullable(), nextAttemptAt: isoDate.nullable() });
const statusBase = {
  jobId: z.string(), status: z.enum(['processing', 'completed', 'failed']), progress: z.number().min(0).max(1),
  enhancedImageUrl: z.string().nullable(), createdAt: isoDate, completedAt: isoDate.nullable(), expiresAt: isoDate.nullable(),
  estimatedCostUsd: z.number().nullable(), actualCostUsd: z.number().nullable(),
  error: z.strictObject({ code: z.string(), message: z.string(), field: z.string().optional() }).nullable(),
  callback: callbackState.optional(),
};
export const enhanceStatus = z.strictObject({
  ...statusBase, tilesProcessed: z.number().int(), processingTimeMs: ms.nullable(), qualityBefore: qualitySummary.nullable(), qualityAfter: qualitySummary.nullable(),
});
export const pipelineStatus = z.strictObject({ ...statusBase, steps: steps.nullable(), docType: z.enum(DOC_TYPES).nullable(), totalTimeMs: ms.nullable() });
export const stillProcessing = z.strictObject({ jobId: z.string(), status: z.literal('processing'), progress: z.number() });
export const webhookSecret = z.strictObject({ secret: z.string(), scheme: z.string(), source: z.enum(['SEJONG_WEBHOOK_SECRET', 'generated']) });
