// Does a task budget ending during the start-up model warm-up (models-ready) abort the process? One server child per
// trial (SEJONG_WORKERS=1, SEJONG_TASK_TIMEOUT_MS cycling 150 – 3000 ms so the stop lands in different phases of the
// binding load and the session creates), /ready read after 6 s, then closed; a SIGABRT or "terminate called" counts.
// Usage: node bench/warmup-budget-abort.mjs run <checkout (built dist/)> [trials=10]
import { spawnSync } from 'node:child_process'; import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path'; import { createRequire } from 'node:module';
const root = path.resolve(process.argv[3] ?? '.');
if (process.argv[2] === 'trial') {
  const pino = createRequire(root + '/package.json')('pino');
  const { loadConfig } = await import(root + '/dist/config.js'); const { startServer } = await import(root + '/dist/server/start.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-warm-'));
  const config = loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dir, SEJONG_ADMIN_KEY: 'sk_bench_admin_key_000000', SEJONG_WORKERS: '1', SEJONG_TASK_TIMEOUT_MS: process.argv[4] });
  const srv = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
  await new Promise((r) => setTimeout(r, Number(process.argv[5] ?? 6000)));
  const ready = await (await fetch(srv.url + '/ready')).json();
  console.log(JSON.stringify(ready.checks?.models ?? ready));
  await srv.close(); fs.rmSync(dir, { recursive: true, force: true }); process.exit(0);
} else {
  const n = Number(process.argv[4] ?? 6); let aborts = 0;
  for (let i = 0; i < n; i++) {
    const budget = String([150, 400, 800, 1500, 3000][i % 5]);
    const r = spawnSync(process.execPath, [new URL(import.meta.url).pathname, 'trial', root, budget, '6000'], { encoding: 'utf8', timeout: 120000 });
    const ab = r.signal === 'SIGABRT' || /terminate called/.test(r.stderr);
    if (ab) aborts++;
    console.log(`budget ${budget} ms: ${ab ? 'ABORT' : 'ok'} ${r.signal ?? r.status} ${(r.stdout || '').trim().slice(0, 150)} ${(r.stderr || '').trim().split('\n')[0].slice(0, 120)}`);
  }
  console.log(`${aborts} / ${n} aborted, load ${os.loadavg()[0].toFixed(1)}`);
}
