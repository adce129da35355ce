// Studio benchmark: each feature on a 1024-px portrait through the real pool stages (detect, apply + PNG encode),
// p50/p99 latency of one job at a time, and throughput with 2 workers and 2 jobs in flight.
// Run: npm run bench -- studio [--runs 15] [--jobs 20]
import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { WorkerPool } from '../src/pool/pool.js';
import { detectStage } from '../src/tasks/lib/studio-pipeline.js';
import { table } from './lib/load.js';
import skinTask from '../src/tasks/studio-skin.js';
import reshapeTask from '../src/tasks/studio-reshape.js';
import makeupTask from '../src/tasks/studio-makeup.js';
import { shared } from '../test/helpers/shared.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 15);
const JOBS = arg('jobs', 20);
const SRC = shared('faces', 'public-domain', 'grace_hopper_512x512.jpg');

const FEATURES: Array<{ id: string; task: 'studio-skin' | 'studio-reshape' | 'studio-makeup'; params: Record<string, unknown> }> = [
  { id: 'skin-retouch', task: 'studio-skin', params: { strength: 1, bronzer: 0.5, eyeBrighten: 0.5, contour: 0.5 } },
  { id: 'skin (strength only)', task: 'studio-skin', params: { strength: 1, bronzer: 0, eyeBrighten: 0, contour: 0 } },
  { id: 'reshape', task: 'studio-reshape', params: { jawSlim: 1 } },
  { id: 'makeup', task: 'studio-makeup', params: { lipStrength: 1, blushStrength: 1, style: 'red' } },
];

const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function job(pool: WorkerPool, task: 'studio-skin' | 'studio-reshape' | 'studio-makeup', bytes: Buffer, params: Record<string, unknown>): Promise<{ total: number; detect: number; apply: number }> {
  const t0 = performance.now();
  const det = await pool.run('studio-detect', { stage: 'detect', image: bytes, field: 'imageUrl', maxFaces: 8 }, { transfer: false });
  const t1 = performance.now();
  if (det.faces.length === 0) throw new Error('no face in the benchmark portrait');
  const out = await pool.run(task, { stage: 'apply', rgb: det.rgb, width: det.width, height: det.height, faces: det.faces.map((f) => f.landmarks), params, encode: true });
  if (!out.png) throw new Error('no PNG');
  const t2 = performance.now();
  return { total: t2 - t0, detect: t1 - t0, apply: t2 - t1 };
}

const portrait = await sharp(fs.readFileSync(SRC)).resize(1024, 1024, { kernel: 'lanczos3' }).png().toBuffer();

// CPU time per job, measured in this thread (process.cpuUsage: user + system of the whole process, which runs
// nothing else meanwhile): independent of how loaded the machine is, unlike wall-clock latency.
const TASKS = { 'studio-skin': skinTask, 'studio-reshape': reshapeTask, 'studio-makeup': makeupTask };
const cpuMs: Record<string, { detect: number; apply: number }> = {};
for (const f of FEATURES) {
  const run = TASKS[f.task]!;
  const det: number[] = [], app: number[] = [];
  for (let i = 0; i < 6; i++) {
    const c0 = process.cpuUsage();
    const d = await detectStage({ stage: 'detect', image: portrait, field: 'imageUrl', maxFaces: 8 });
    const c1 = process.cpuUsage(c0);
    const c2 = process.cpuUsage();
    await run({ stage: 'apply', rgb: d.rgb, width: d.width, height: d.height, faces: d.faces.map((x) => x.landmarks), params: f.params, encode: true });
    const c3 = process.cpuUsage(c2);
    if (i === 0) continue; // warm-up
    det.push((c1.user + c1.system) / 1000);
    app.push((c3.user + c3.system) / 1000);
  }
  cpuMs[f.id] = { detect: pct(det, 50), apply: pct(app, 50) };
}
const pool = new WorkerPool({ workers: 2, queueSize: 64 });
const rows: Array<Record<string, string | number>> = [];
try {
  // warm both workers (module load, ONNX sessions, JIT)
  await Promise.all([0, 1].map(() => job(pool, 'studio-skin', portrait, FEATURES[0]!.params)));
  for (const f of FEATURES) {
    await job(pool, f.task, portrait, f.params);
    const lat: number[] = [], det: number[] = [], app: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await job(pool, f.task, portrait, f.params);
      lat.push(r.total); det.push(r.detect); app.push(r.apply);
    }
    const t0 = performance.now();
    let next = 0;
    await Promise.all([0, 1].map(async () => {
      while (next < JOBS) {
        next++;
        await job(pool, f.task, portrait, f.params);
      }
    }));
    const secs = (performance.now() - t0) / 1000;
    rows.push({
      feature: f.id,
      'p50 ms': Math.round(pct(lat, 50)),
      'p99 ms': Math.round(pct(lat, 99)),
      'detect p50 ms': Math.round(pct(det, 50)),
      'apply+png p50 ms': Math.round(pct(app, 50)),
      'jobs/s (2 workers)': Math.round((JOBS / secs) * 100) / 100,
      'CPU ms detect': Math.round(cpuMs[f.id]!.detect),
      'CPU ms apply+png': Math.round(cpuMs[f.id]!.apply),
      'idle 2-core jobs/s (from CPU)': Math.round((2000 / (cpuMs[f.id]!.detect + cpuMs[f.id]!.apply)) * 100) / 100,
    });
  }
} finally {
  await pool.close();
}
console.log(`studio: 1024x1024 portrait (grace_hopper upscaled), one face; ${RUNS} serial runs, ${JOBS} jobs with 2 in flight`);
console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
console.log(table(rows));
