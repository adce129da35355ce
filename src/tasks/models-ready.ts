// Readiness task: loads every ONNX model of this worker thread (sessions are cached per thread, so the first
// request after start does not pay for it) and reports which. `holdMs` keeps the worker busy a moment so that the
// start-up warm-up, run once per worker at the same time, lands on every worker.
import { threadId } from 'node:worker_threads';
import { MODELS, session, type ModelKey } from '../vision/models.js';

export interface ModelsReadyInput { holdMs?: number }
export interface ModelsReadyOutput { threadId: number; models: string[] }

export default async function modelsReady(input: ModelsReadyInput = {}): Promise<ModelsReadyOutput> {
  const keys = Object.keys(MODELS) as ModelKey[];
  await Promise.all(keys.map((k) => session(k)));
  if (input.holdMs) await new Promise((r) => setTimeout(r, input.holdMs));
  return { threadId, models: keys.map((k) => MODELS[k].file) };
}
