// The writing thread's end of the reader worker (reader-worker.ts): batches as an async generator. Leaving the loop
// early (an error, --limit) ends the worker and its git processes.
import { Worker } from 'node:worker_threads';
import type { ReadBatch, ReadOptions } from './reader.js';

export async function* readInWorker(o: ReadOptions): AsyncGenerator<ReadBatch> {
  // built code (dist/) runs reader-worker.js directly; from the sources, reader-boot.mjs registers tsx first
  const file = new URL(import.meta.url.endsWith('.js') ? './reader-worker.js' : './reader-boot.mjs', import.meta.url);
  const w = new Worker(file, { workerData: o });
  const queue: ReadBatch[] = [];
  let done = false;
  let failed: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => { const f = wake; wake = null; f?.(); };
  w.on('message', (m: { batch?: ReadBatch; done?: boolean; error?: string }) => {
    if (m.batch) queue.push(m.batch);
    else if (m.done) done = true;
    else if (m.error) failed = new Error(m.error);
    poke();
  });
  w.on('error', (e) => { failed = e; poke(); });
  w.on('exit', (code) => { if (!done && !failed) failed = new Error(`the git reader thread ended (exit code ${code})`); poke(); });
  try {
    for (;;) {
      const b = queue.shift();
      if (b) { w.postMessage('ack'); yield b; continue; }
      if (failed) throw failed;
      if (done) return;
      await new Promise<void>((r) => { wake = r; });
    }
  } finally {
    await w.terminate();
  }
}
