// Child process of exit-in-native.test.ts: the main thread exits (process.exit or an uncaught exception) while the
// pool's worker is inside onnxruntime. Before src/pool/exit-guard.ts this aborted (SIGABRT, "terminate called after
// throwing an instance of 'Napi::Error'") instead of exiting with its code. Prints one JSON line first.
import { WorkerPool } from '../../src/pool/pool.js';
import { guardedNativeCalls } from '../../src/pool/exit-guard.js';

const [how = 'exit', extraMs = '0'] = process.argv.slice(2);
const pool = new WorkerPool({ workers: 1, queueSize: 4, taskTimeoutMs: 600_000 });
const echo = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array([1, 2, 3]) });
void pool.run('pool-selftest', { mode: 'onnx', runs: 50, side: 960 }).catch(() => undefined);
// wait until the worker is inside a model call (session creation or a run), then a little more
for (let i = 0; i < 6000 && guardedNativeCalls() === 0; i++) await new Promise((r) => setTimeout(r, 10));
await new Promise((r) => setTimeout(r, Number(extraMs)));
const inNative = guardedNativeCalls();
process.stdout.write(JSON.stringify({ how, echoSum: echo.sum, echoSize: echo.size, inNative }) + '\n');
if (how === 'exit') process.exit(7);
throw new Error('main thread fails while a worker runs the detector');
