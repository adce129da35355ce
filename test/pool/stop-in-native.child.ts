// Child process of native-stop.test.ts: a one-worker pool stops a task while the worker is inside onnxruntime
// (session creation or run). Before src/pool/native-gate.ts this aborted the whole process (SIGABRT, "terminate
// called after throwing an instance of 'Napi::Error'"). Prints one JSON line with what each task answered.
import { WorkerPool } from '../../src/pool/pool.js';

const scenario = process.argv[2];
const pool = new WorkerPool({ workers: scenario === 'crash-beside' ? 2 : 1, queueSize: 4, taskTimeoutMs: 250 });
const outcome = (p: Promise<unknown>): Promise<Record<string, unknown>> =>
  p.then(
    (v) => ({ ok: true, value: v }),
    (e: Error & { code?: string; status?: number }) => ({ ok: false, name: e.name, code: e.code, status: e.status, message: e.message }),
  );

const out: Record<string, unknown> = { scenario };
if (scenario === 'budget') {
  // the 250 ms budget ends during the detector's creation or one of its runs (each takes longer than that)
  out.task = await outcome(pool.run('pool-selftest', { mode: 'onnx', runs: 50, side: 960 }));
} else if (scenario === 'signal') {
  await pool.run('pool-selftest', { mode: 'echo' }); // the worker booted: the abort below lands in onnxruntime, not in the boot
  out.task = await outcome(pool.run('pool-selftest', { mode: 'onnx', runs: 50, side: 960 }, { signal: AbortSignal.timeout(400), timeoutMs: 600_000 }));
} else if (scenario === 'close') {
  const task = outcome(pool.run('pool-selftest', { mode: 'onnx', runs: 2, side: 640 }, { timeoutMs: 600_000 }));
  await new Promise((r) => setTimeout(r, 200));
  await pool.close();
  out.closed = true;
  out.task = await task;
} else if (scenario === 'crash-beside') {
  // the other worker dies (process.exit in the worker → 'error'/'exit' → piscina removes and replaces it) while this
  // one runs the detector: only the dead worker is ended
  await Promise.all([pool.run('pool-selftest', { mode: 'echo' }), pool.run('pool-selftest', { mode: 'echo' })]);
  const task = outcome(pool.run('pool-selftest', { mode: 'onnx', runs: 3, side: 640 }, { timeoutMs: 600_000 }));
  await new Promise((r) => setTimeout(r, 300));
  out.crash = await outcome(pool.run('pool-selftest', { mode: 'crash' }));
  out.task = await task;
}
if (scenario !== 'close') {
  // the pool replaced the stopped worker
  out.after = await outcome(pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(3) }));
  await pool.close();
}
process.stdout.write(JSON.stringify(out) + '\n');
