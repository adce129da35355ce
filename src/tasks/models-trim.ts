// Pool housekeeping task, run on each worker after an idle period (WorkerPool trimIdleMs): the OCR models' sessions
// that ran since the last trim are released and created again, which gives back onnxruntime's CPU memory arenas
// grown by inputs of new shapes (a page of another size keeps ~100 MB more per worker until then). The face models
// take fixed input shapes: their arenas never grow, they are kept. The thread's reused image arrays (lib/scratch.ts,
// up to ~40 MB at 1024²) are dropped too. `holdMs` keeps the worker a moment so that the tasks, started together,
// land one on every worker.
import { threadId } from 'node:worker_threads';
import { recycleSessions, type ModelKey } from '../vision/models.js';
import { threadScratch } from './lib/scratch.js';

export interface ModelsTrimInput { holdMs?: number }
export interface ModelsTrimOutput { threadId: number; recycled: ModelKey[]; scratchBytesFreed: number }

export const TRIMMED: readonly ModelKey[] = ['ocrDet', 'ocrRec', 'ocrRecLatin'];

export default async function modelsTrim(input: ModelsTrimInput = {}): Promise<ModelsTrimOutput> {
  const recycled = await recycleSessions(TRIMMED);
  const scratchBytesFreed = threadScratch.bytes;
  threadScratch.clear();
  if (input.holdMs) await new Promise((r) => setTimeout(r, input.holdMs));
  return { threadId, recycled, scratchBytesFreed };
}
