// Success answers of the asynchronous job families: creation and status of text-to-image, image-to-image,
// analyze, receipt and studio jobs; the synchronous background removal and mosaic (which also make a job).
import { z } from 'zod';
import { isoDate, jobCreated, jobError, jobStatus, point, size, usage } from './common.js';

const nnum = z.number().nullable();
const box4 = z.tuple([z.number(), z.number(), z.number(), z.number()]);

export const txt2imgCreated = jobCreated({ model: z.string(), estimatedCost: z.number(), message: z.string() });
export const aiJobCreated = jobCreated({ model: z.string(), estimatedCost: z.number() });
export const receiptCreated = jobCreated({});
export const studioCreated = jobCreated({ featureId: z.string(), estimatedCost: z.number(), estimatedTime: z.number().describe('seconds') });

export const txt2imgStatus = z.strictObject({
  jobId: z.string(), status: jobStatus, model: z.string(), estimatedCost: nnum,
  imageUrl: z.string().nullable().describe('absolute download URL once completed'),
  imageData: z.string().optional().describe('the PNG, base64 (completed)'),
  processingTimeMs: nnum, actualCost: nnum,
  width: z.number().int().optional(), height: z.number().int().optional(),
  expiresAt: isoDate.nullable().optional(),
  error: jobError.optional(),
});

export const caricStatus = z.strictObject({
  jobId: z.string(), status: jobStatus, model: z.string(), estimatedCost: nnum,
  imageUrl: z.string().nullable().describe('relative path carrying the access key as ?key= (completed)'),
  processingTime: nnum.describe('seconds'), actualCost: nnum,
  width: z.number().int().optional(), height: z.number().int().optional(),
  expiresAt: isoDate.nullable().optional(),
  error: jobError.optional(),
});

export const analyzeStatus = z.strictObject({
  jobId: z.string(), status: jobStatus, model: z.string(),
  result: z.string().nullable().describe('the model\'s answer text (completed)'),
  usage: usage.nullable(),
  preprocessing: z.strictObject({ preset: z.string(), steps: z.array(z.unknown()) }).nullable(),
  processingTimeMs: nnum, estimatedCost: nnum, actualCost: nnum,
  expiresAt: isoDate.nullable(),
  error: jobError.optional(),
});

export const receiptDetails = z.strictObject({
  imageUrl: z.string(), width: z.number().int(), height: z.number().int(), dpi: z.number(), format: z.literal('PNG'), bitDepth: z.literal(1),
  fileSize: z.number().int(), angle: z.number().describe('degrees of skew removed'), angleSource: z.string(), paperFound: z.boolean(),
  paperCorners: z.array(point), cropBox: box4.describe('[x, y, width, height]'),
  threshold: z.strictObject({ method: z.string(), window: z.number(), k: z.number() }),
  steps: z.array(z.string()), inputDimensions: size, processingTimeMs: z.number(),
});

export const receiptStatus = z.strictObject({
  jobId: z.string(), status: jobStatus, progress: z.number().min(0).max(1),
  result: z.string().nullable().describe('the image URL (completed)'),
  details: receiptDetails.nullable(),
  createdAt: isoDate.nullable(), expiresAt: isoDate.nullable(),
  processingTimeMs: nnum.optional(), actualCost: z.number().optional(),
  error: jobError.optional(),
});

const studioFace = z.strictObject({ box: box4.describe('[x, y, width, height]'), score: z.number() });

export const studioStatus = z.strictObject({
  jobId: z.string(), status: jobStatus, featureId: z.string().nullable(), progress: z.number().min(0).max(100),
  estimatedCost: nnum, actualCost: nnum,
  faceDetected: z.boolean().nullable(), faceCount: z.number().int().nullable(), facesTreated: z.number().int().nullable(),
  facesNote: z.string().nullable(), params: z.record(z.string(), z.unknown()).nullable(),
  imageUrl: z.string().nullable().describe('relative path carrying the access key as ?key= (completed)'),
  processingTimeMs: nnum,
  width: z.number().int().nullable().optional(), height: z.number().int().nullable().optional(),
  faces: z.array(studioFace).optional(), expiresAt: isoDate.nullable().optional(),
  error: jobError.optional(),
});

export const removeBackgroundAnswer = z.strictObject({
  success: z.literal(true), jobId: z.string(), originalUrl: z.string().nullable(), sourceJobId: z.string().nullable(),
  processedUrl: z.string().describe('result URL (url_a) or a data: URL (inline)'), storageType: z.string(),
  format: z.literal('PNG'), processingTime: z.number().describe('milliseconds'), method: z.literal('chroma'),
  removedColor: z.string(), colorSource: z.enum(['given', 'auto']), tolerance: z.number(), toleranceSource: z.enum(['given', 'auto']),
  transparentPixels: z.number().int(), semiTransparentPixels: z.number().int(), fileSize: z.number().int(),
  originalDimensions: size, trimmedDimensions: size, trimBox: box4.describe('[x, y, width, height]'),
  expiresAt: isoDate.nullable(),
});

export const mosaicAnswer = z.strictObject({
  success: z.literal(true), jobId: z.string(), imageUrl: z.string(), format: z.literal('PNG'),
  processingTime: z.number().describe('milliseconds'), actualCost: z.number(), width: z.number().int(), height: z.number().int(),
  blockSize: z.number().int(), regions: z.array(z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })),
  expiresAt: isoDate.nullable(),
});

export const examples = {
  txt2imgCreated: {
    success: true, jobId: 'txt2img_20261122_k3v9q2m8x1z7', accessKey: 'Qm9vX2FjY2Vzc19rZXlfZXhhbXBsZV8zMl9ieXRlcw', status: 'processing',
    model: 'fam-b-2.5-flash-image', estimatedCost: 0.039,
    message: 'Image generation started; poll GET /api/v1/text-to-image/status/txt2img_20261122_k3v9q2m8x1z7 with your API key or Authorization: Bearer <accessKey>',
  },
  txt2imgStatus: {
    jobId: 'txt2img_20261122_k3v9q2m8x1z7', status: 'completed', model: 'fam-b-2.5-flash-image', estimatedCost: 0.039,
    imageUrl: 'https://api.example.com/api/v1/text-to-image/download/txt2img_20261122_k3v9q2m8x1z7', imageData: 'iVBORw0KGgo…',
    processingTimeMs: 8120, actualCost: 0.039, width: 1024, height: 1024, expiresAt: '2026-11-22T01:00:00.000Z',
  },
  aiJobCreated: { success: true, jobId: 'caric_20261122_k3v9q2m8x1z7', accessKey: 'Qm9vX2FjY2Vzc19rZXlfZXhhbXBsZV8zMl9ieXRlcw', status: 'processing', model: 'fam-b-2.5-flash-image', estimatedCost: 0.039 },
  caricStatus: {
    jobId: 'caric_20261122_k3v9q2m8x1z7', status: 'processing', model: 'fam-b-2.5-flash-image', estimatedCost: 0.039,
    imageUrl: null, processingTime: null, actualCost: null,
  },
  receiptCreated: { success: true, jobId: 'receipt_20261122_k3v9q2m8x1z7', accessKey: 'Qm9vX2FjY2Vzc19rZXlfZXhhbXBsZV8zMl9ieXRlcw', status: 'processing' },
  studioCreated: {
    success: true, jobId: 'studio_skin_20261122_k3v9q2m8x1z7', accessKey: 'Qm9vX2FjY2Vzc19rZXlfZXhhbXBsZV8zMl9ieXRlcw', status: 'processing',
    featureId: 'skin-retouch', estimatedCost: 0.002, estimatedTime: 1.2,
  },
};
