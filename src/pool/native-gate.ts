/// <reference lib="es2024.sharedmemory" />
// A worker thread is never terminated while it is inside onnxruntime-node (a session being created or run).
// Terminating it there (a task's time budget, an abort, a pool shutdown, or process.exit on the main thread) makes the
// binding's next N-API call fail in the torn-down environment; it throws a C++ Napi::Error nobody catches and
// std::terminate aborts the WHOLE process ("terminate called after throwing an instance of 'Napi::Error'"):
// bench/ort-terminate-repro.mjs aborts in every trial during create and run, never while the worker is idle or
// importing the module, never during libvips (sharp) work.
//
// One Int32 per task, shared by the pool (main thread) and the worker running that task:
//   n ≥ 0     native calls of the task in flight;
//   STOPPING  the pool is stopping the task: the worker may be terminated, and no native call may start.
// The worker counts its calls with native(); the pool terminates only after closeGate() has swapped 0 for STOPPING.
// A task is not finished while a native call it started is in flight (the worker waits for nativeIdle()), so no
// call outlives its task's gate. In a pool worker no call may start outside a task (no gate bound): a call left
// behind by a finished task would be counted on no gate, and the next stop, a pool close or the process exit could
// land inside it.
//
// The main thread's exit (process.exit, an uncaught exception, the end of a CLI command) ends every worker too, and
// the same abort follows when one is inside onnxruntime: `node --import tsx <child> exit` aborted 3 / 3 with
// front20's backtrace (thread "sejong-pool" in InferenceSessionWrap; the main thread in Environment::Exit →
// stop_sub_worker_contexts → Worker::JoinThread). closeGateSync() lets the pool's exit hook close the gates of the
// running tasks before that teardown (src/pool/exit-guard.ts).

export const STOPPING = -1;

/** the gate of the task this worker thread runs now (undefined outside a pool: tests, benches, the CLI) */
let gate: Int32Array | undefined;
let inFlight = 0;
/** set in pool worker threads (worker.ts): there a native call needs a task's gate */
let poolThread = false;
let waiters: Array<() => void> = [];

/** main thread: a fresh gate for one task (shared memory, passed in the task request) */
export function newGate(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** main thread: resolves once no native call of the task is in flight and none can start (the gate reads STOPPING) */
export async function closeGate(g: Int32Array): Promise<void> {
  for (;;) {
    const v = Atomics.compareExchange(g, 0, 0, STOPPING);
    if (v === 0 || v === STOPPING) return;
    const w = Atomics.waitAsync(g, 0, v);
    if (w.async) await w.value;
  }
}

/**
 * main thread, synchronously (a process 'exit' listener cannot await): as closeGate, waiting at most timeoutMs in
 * all; answers whether the gate is closed (false: a call was still in flight at the deadline)
 */
export function closeGateSync(g: Int32Array, timeoutMs: number): boolean {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = Atomics.compareExchange(g, 0, 0, STOPPING);
    if (v === 0 || v === STOPPING) return true;
    const left = end - performance.now();
    if (left <= 0) return false;
    Atomics.wait(g, 0, v, left);
  }
}

/** worker: this thread is a pool worker (native calls only inside a task) */
export function markPoolThread(): void {
  poolThread = true;
}

/** worker: the gate of the task starting now (or none) */
export function bindGate(g: Int32Array | undefined): void {
  gate = g;
}

/** worker: run one call into native code that calls back into JS (onnxruntime-node); counted on the task's gate */
export async function native<T>(fn: () => Promise<T>): Promise<T> {
  const g = gate;
  if (!g && poolThread) throw new Error('a native call outside a pool task (left behind by a finished task)');
  if (g) {
    for (;;) {
      const v = Atomics.load(g, 0);
      if (v === STOPPING) throw new Error('the pool is stopping this task');
      if (Atomics.compareExchange(g, 0, v, v + 1) === v) break;
    }
  }
  inFlight++;
  try {
    return await fn();
  } finally {
    inFlight--;
    if (g && Atomics.sub(g, 0, 1) === 1) Atomics.notify(g, 0);
    if (inFlight === 0) {
      const w = waiters;
      waiters = [];
      for (const r of w) r();
    }
  }
}

/** worker: resolves when this thread has no native call in flight */
export function nativeIdle(): Promise<void> {
  return inFlight === 0 ? Promise.resolve() : new Promise((r) => waiters.push(r));
}

/** native calls in flight in this thread (tests) */
export function nativeInFlight(): number {
  return inFlight;
}
