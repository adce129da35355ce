// Does the process's exit abort while a pool worker is inside onnxruntime? One child process per trial: a one-worker
// pool of <checkout> (its src/, through tsx) runs the OCR detector (50 runs of 960²); after a delay cycling 0 – 1500 ms
// the main thread calls process.exit(7) or throws (uncaught). A SIGABRT or "terminate called" counts as an abort;
// exit code 7 / 1 is the clean end. Usage: node bench/exit-abort.mjs <checkout> [trials=8]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const trials = Number(process.argv[3] ?? 8);
const child = path.join(root, `.exit-abort-${process.pid}.child.mts`);
fs.writeFileSync(child, `import { WorkerPool } from './src/pool/pool.ts';
const [how, ms] = process.argv.slice(2);
const pool = new WorkerPool({ workers: 1, queueSize: 4, taskTimeoutMs: 600000 });
await pool.run('pool-selftest', { mode: 'echo' });
void pool.run('pool-selftest', { mode: 'onnx', runs: 50, side: 960 }).catch(() => undefined);
await new Promise((r) => setTimeout(r, Number(ms)));
if (how === 'exit') process.exit(7);
throw new Error('main thread fails');
`);
try {
  const rows = [];
  for (const how of ['exit', 'throw']) {
    let aborts = 0;
    let clean = 0;
    for (let i = 0; i < trials; i++) {
      const ms = [0, 200, 500, 900, 1500][i % 5];
      const r = spawnSync(process.execPath, ['--import', 'tsx', child, how, String(ms)], { cwd: root, encoding: 'utf8', timeout: 180_000 });
      if (r.signal === 'SIGABRT' || /terminate called/.test(r.stderr)) aborts++;
      else if (r.status === (how === 'exit' ? 7 : 1)) clean++;
      else console.log(`${how} ${ms} ms: status ${r.status} signal ${r.signal}: ${r.stderr.trim().split('\n').slice(-4).join(' / ').slice(0, 400)}`);
    }
    rows.push(`${how}: ${aborts} / ${trials} aborted, ${clean} / ${trials} clean exit`);
  }
  console.log(`${root}: ${rows.join('; ')}; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
} finally {
  fs.rmSync(child, { force: true });
}
