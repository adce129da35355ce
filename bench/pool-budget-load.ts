// Issue 19: a task's time budget on a loaded machine. Two one-worker pools side by side in one process, the same
// budget: "wall" (wallCapFactor 1: the budget is wall time, as before session 16) and "own" (the default: wall time
// minus the worker thread's run-queue wait, stopped anyway at 4× the budget in wall time). While `busy` processes
// spin (plus whatever else loads the machine), N ID-card OCR tasks (ekyc-ocr on a rendered 1280×807 card) run one at
// a time, alternating wall / own; reported per pool: completed and 503, and per task its wall time, the process's
// CPU time (one task at a time: the worker, libvips/libuv helpers, the main thread), and the clock's own time and
// run-queue wait.
// Run: npm run bench -- pool-budget-load [tasks per pool=8] [busy processes=6] [budgetMs=2000]
import os from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { WorkerPool } from '../src/pool/pool.js';
import { renderCard } from '../test/helpers/id-cards.js';

const n = Number(process.argv[2] ?? 8), busyN = Number(process.argv[3] ?? 6), budget = Number(process.argv[4] ?? 2000);
const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const card = (await renderCard('jumin', { seed: 3 })).image;
const pools = { wall: new WorkerPool({ workers: 1, queueSize: 10, taskTimeoutMs: budget, wallCapFactor: 1 }), own: new WorkerPool({ workers: 1, queueSize: 10, taskTimeoutMs: budget }) };
type Arm = keyof typeof pools;

const ocr = (arm: Arm, timeoutMs = budget) => pools[arm].run('ekyc-ocr', { image: card.slice(), docType: 'jumin', field: 'image' }, { timeoutMs });
// warm: worker boot, module and model loads (a long budget: the first run is not what is measured)
for (const arm of ['wall', 'own'] as const) await ocr(arm, 600_000);
const quiet = process.cpuUsage();
await ocr('own', 600_000);
const quietCpu = (process.cpuUsage(quiet).user + process.cpuUsage(quiet).system) / 1000;
console.log(JSON.stringify({ loadBefore: load(), cpuOneTaskMs: Math.round(quietCpu), budgetMs: budget, busy: busyN, tasksPerPool: n }));

const busy: ChildProcess[] = [];
for (let i = 0; i < busyN; i++) busy.push(spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
await new Promise((r) => setTimeout(r, 2000)); // let the busy processes take their share

interface Row { ok: boolean; wallMs: number; cpuMs: number; ownMs: number; waitMs: number; message?: string }
const rows: Record<Arm, Row[]> = { wall: [], own: [] };
const loads: string[] = [];
for (let i = 0; i < n; i++) {
  for (const arm of (i % 2 ? ['own', 'wall'] : ['wall', 'own']) as Arm[]) {
    const c0 = process.cpuUsage(), t0 = performance.now();
    const r = await ocr(arm).then(() => undefined, (e: Error) => e);
    const wallMs = performance.now() - t0, c = process.cpuUsage(c0), clock = pools[arm].lastClock!;
    rows[arm].push({ ok: !r, wallMs, cpuMs: (c.user + c.system) / 1000, ownMs: clock.ownMs, waitMs: clock.runQueueWaitMs, message: r?.message.slice(0, 90) });
  }
  loads.push(os.loadavg()[0]!.toFixed(1));
}
for (const p of busy) p.kill('SIGKILL');

const med = (a: number[]): number => Math.round([...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? NaN);
for (const arm of ['wall', 'own'] as const) {
  const a = rows[arm];
  console.log(JSON.stringify({
    pool: arm, completed: a.filter((x) => x.ok).length, stopped503: a.filter((x) => !x.ok).length,
    wallMs: { median: med(a.map((x) => x.wallMs)), max: Math.round(Math.max(...a.map((x) => x.wallMs))) },
    cpuMs: { median: med(a.map((x) => x.cpuMs)), max: Math.round(Math.max(...a.map((x) => x.cpuMs))) },
    ownMs: med(a.map((x) => x.ownMs)), runQueueWaitMs: med(a.map((x) => x.waitMs)),
    messages: [...new Set(a.flatMap((x) => (x.message ? [x.message] : [])))],
  }));
}
console.log(JSON.stringify({ load1DuringRun: loads.join(' '), loadAfter: load(), date: new Date().toISOString() }));
await Promise.all([pools.wall.close(), pools.own.close()]);
process.exit(0);
