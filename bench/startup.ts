// `npm run bench -- startup [runs]`: start-up time and memory of `sejong serve`, built JavaScript (dist/, what
// `npm start` runs) against the TypeScript sources through tsx, side by side. Per run: a fresh data dir, time from
// spawn to the listening line, RSS of the process after the first pool task (a QR code: every worker loaded).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listeningPort } from './lib/listening.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 3);

interface Sample { listenMs: number; rssMb: number; firstTaskMs: number }

const modes: Record<string, string[]> = {
  'built (dist/)': [path.join(root, 'bin', 'sejong.js'), 'serve'],
  'sources (tsx)': ['--import', 'tsx', '-e', `import(${JSON.stringify(path.join(root, 'src', 'main.ts'))}).then((m) => m.main(['serve']))`],
};

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function once(args: string[]): Promise<Sample> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-startup-'));
  const env = { ...process.env, SEJONG_PORT: '0', SEJONG_HOST: '127.0.0.1', SEJONG_DATA_DIR: dir, SEJONG_ADMIN_KEY: 'sk_bench_admin_' + 'x'.repeat(20), SEJONG_LOG_LEVEL: 'warn' };
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await listeningPort(child);
    const listenMs = performance.now() - t0;
    const t1 = performance.now();
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/qrcode/generate?data=startup`);
    const png = Buffer.from(await r.arrayBuffer());
    if (r.status !== 200 || png.readUInt32BE(0) !== 0x89504e47) throw new Error(`QR generate answered ${r.status}`);
    const firstTaskMs = performance.now() - t1;
    return { listenMs, rssMb: rssMb(child.pid!), firstTaskMs };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!fs.existsSync(path.join(root, 'dist', '.stamp'))) {
  console.error('run `npm run build` first');
  process.exit(2);
}
console.log(`| mode | start → listening (ms) | first pool task (ms) | RSS after it (MB) |  (median of ${runs}; load ${os.loadavg()[0]!.toFixed(1)})`);
console.log('|---|---|---|---|');
for (const [name, args] of Object.entries(modes)) {
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once(args));
  console.log(`| ${name} | ${median(samples.map((s) => s.listenMs)).toFixed(0)} | ${median(samples.map((s) => s.firstTaskMs)).toFixed(0)} | ${median(samples.map((s) => s.rssMb)).toFixed(0)} |`);
}
