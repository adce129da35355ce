// Worker thread of a git import: runs readHistory (reader.ts) and posts each batch to the writing thread, at most
// AHEAD batches before the writer has taken them (the writer posts 'ack' for each batch it takes).
import { parentPort, workerData } from 'node:worker_threads';
import { readHistory, type ReadOptions } from './reader.js';

const AHEAD = 2;
const port = parentPort!;
let credit = AHEAD;
let wake: (() => void) | null = null;
port.on('message', (m) => {
  if (m !== 'ack') return;
  credit++;
  const w = wake;
  wake = null;
  w?.();
});

try {
  for await (const b of readHistory(workerData as ReadOptions)) {
    while (credit <= 0) await new Promise<void>((r) => { wake = r; });
    credit--;
    port.postMessage({ batch: b }, [b.buf.buffer as ArrayBuffer]);
  }
  port.postMessage({ done: true });
} catch (e) {
  port.postMessage({ error: (e as Error).message });
}
port.close();
