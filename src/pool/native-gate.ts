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
// call outlives its task's gate.

export const STOPPING = -1;

/** the gate of the task this worker thread runs now (undefined outside a pool: tests, benches, the CLI) */
let gate: Int32Array | undefined;
let inFlight = 0;
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

/** worker: the gate of the task starting now (or none) */
export function bindGate(g: Int32Array | undefined): void {
  gate = g;
}

/** worker: run one call into native code that calls back into JS (onnxruntime-node); counted on the task's gate */
export async function native<T>(fn: () => Promise<T>): Promise<T> {
  const g = gate;
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
