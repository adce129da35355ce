// Issue 12: does terminating a worker thread that uses onnxruntime-node abort the process natively
// ("terminate called after throwing an instance of 'Napi::Error'")? Each trial is a child process holding one worker
// thread that loads the OCR detector and runs it; the child terminates the worker after a random delay (or lets it
// finish, or closes it while idle) and exits 0. The parent counts how each child ended.
// Run: nice -n 19 node bench/ort-terminate-repro.mjs <scenario> <trials> [arena=on|off] [side=1280]
//   scenario: run (terminate during session.run), create (terminate during session creation), import (terminate while
//   the worker imports onnxruntime-node), idle (terminate an idle
//   worker holding sessions), none (the worker ends by itself with sessions alive: control), mainexit (process.exit on
//   the main thread during session.run, no terminate), sharp (terminate during libvips work instead of onnxruntime)
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const model = fileURLToPath(new URL('../native-models/ppocr_det.onnx', import.meta.url));

if (!isMainThread && workerData.sharp) {
  // libvips work (sharp) instead of onnxruntime, for comparison
  const { default: sharp } = await import('sharp');
  parentPort.postMessage('run');
  for (;;) await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#808080' } }).blur(3).resize(1000).png().toBuffer();
} else if (!isMainThread) {
  const { arena, side } = workerData;
  const { default: ort } = await import('onnxruntime-node');
  parentPort.postMessage('loaded');
  if (workerData.onlyImport) { ort.env.logLevel = 'error'; await new Promise((r) => setTimeout(r, 5000)); }
  const s = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3, enableCpuMemArena: arena });
  parentPort.postMessage('created');
  const x = new ort.Tensor('float32', new Float32Array(3 * side * side).fill(0.1), [1, 3, side, side]);
  for (let i = 0; i < (workerData.runs ?? 2); i++) {
    parentPort.postMessage('run');
    await s.run({ x });
  }
  parentPort.postMessage('done');
} else if (process.argv[2] === 'child') {
  const [, , , scenario, delayMs, arena, side] = process.argv;
  if (scenario === 'sharp') (await import('sharp')).default.concurrency(1); // loaded on the main thread first, as the pool does
  const w = new Worker(self, { workerData: { arena: arena === 'on', side: Number(side), runs: scenario === 'idle' ? 1 : 2, sharp: scenario === 'sharp', onlyImport: scenario === 'import' } });
  const at = (msg) => new Promise((r) => w.on('message', (m) => m === msg && r()));
  w.on('error', (e) => { console.error('worker error', e.message); });
  const d = Number(delayMs);
  if (scenario === 'import') { await new Promise((r) => w.once('online', r)); await new Promise((r) => setTimeout(r, d)); await w.terminate(); }
  else if (scenario === 'create') { await at('loaded'); await new Promise((r) => setTimeout(r, d)); await w.terminate(); }
  else if (scenario === 'mainexit') { await at('run'); await new Promise((r) => setTimeout(r, d)); process.exit(0); }
  else if (scenario === 'run' || scenario === 'sharp') { await at('run'); await new Promise((r) => setTimeout(r, d)); await w.terminate(); }
  else if (scenario === 'idle') { await at('done'); await new Promise((r) => setTimeout(r, d)); await w.terminate(); }
  else { await new Promise((r) => w.on('exit', r)); }
  process.exit(0);
} else {
  const [scenario = 'run', trials = '20', arena = 'on', side = '1280', maxDelay = '1500'] = process.argv.slice(2);
  const ends = {};
  for (let i = 0; i < Number(trials); i++) {
    const delay = Math.floor(Math.random() * Number(maxDelay));
    const r = spawnSync(process.execPath, [self, 'child', scenario, String(delay), arena, side], { encoding: 'utf8' });
    const end = r.signal ?? `exit ${r.status}`;
    ends[end] = (ends[end] ?? 0) + 1;
    const err = (r.stderr || '').split('\n').find((l) => /terminate|Napi|FATAL|Error/.test(l));
    if (end !== 'exit 0') console.log(`trial ${i} delay ${delay} ms: ${end}${err ? ' — ' + err.trim() : ''}`);
  }
  console.log(JSON.stringify({ scenario, trials: Number(trials), arena, side: Number(side), ends }));
}
