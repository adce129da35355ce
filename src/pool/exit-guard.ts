// The process's exit must not land inside onnxruntime on a pool worker. When the main thread exits (process.exit, an
// uncaught exception, a CLI command's end, a bench's last line), Node ends every worker thread from its exit path
// (Environment::Exit → stop_sub_worker_contexts); a worker inside an InferenceSession call then aborts the whole
// process with "terminate called after throwing an instance of 'Napi::Error'" (src/pool/native-gate.ts) — the
// exit code, the uncaught error's status and whatever the process was finishing are lost to a SIGABRT.
// Node runs the 'exit' listeners before that teardown, synchronously: this one closes the gate of every task still
// running (waits, bounded, for its native call to return; no call starts afterwards), so the workers end in JS.
import { closeGateSync } from './native-gate.js';

/** gates of tasks running now, of every pool of the process, with the longest wait their pool allows at exit */
const running = new Map<Int32Array, number>();
let hooked = false;

function onExit(): void {
  const end = performance.now();
  for (const [g, waitMs] of running) closeGateSync(g, Math.max(0, end + waitMs - performance.now()));
  running.clear();
}

/** a task's gate is live from now until release (waitMs: how long the exit may wait for its native call) */
export function guardAtExit(g: Int32Array, waitMs: number): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', onExit);
  }
  running.set(g, waitMs);
  return () => void running.delete(g);
}

/** native calls in flight now on the guarded gates (tests: the exit lands inside one) */
export function guardedNativeCalls(): number {
  let n = 0;
  for (const g of running.keys()) n += Math.max(0, Atomics.load(g, 0));
  return n;
}
