// AI jobs benchmark: 1,000 text-to-image jobs against the fake family-B provider with a fixed 200 ms latency.
// Measures: jobs/s accepted (POST generate → 200 with jobId), status-poll latency while the jobs run, and the time
// from the upstream answer (fake wrote its response) to the job being `completed` (AI mark drawn in the pool, PNG
// stored in LMDB). Server, fake and load generator share this process (2 pool workers).
// Run: npm run bench -- jobs [--jobs 1000] [--concurrency 50] [--pollers 8] [--image 512]
import os from 'node:os';
import { startTestServer } from '../test/helpers/server.js';
import { FambFake } from '../test/fakes/famb.js';
import { ai } from '../src/providers/ai/service.js';
import { table } from './lib/load.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const JOBS = arg('jobs', 1000);
const CONC = arg('concurrency', 50);
const POLLERS = arg('pollers', 8);
const IMAGE = arg('image', 512);
const LATENCY = 200;

const pct = (a: number[], p: number) => {
  if (!a.length) return NaN;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

const famb = await new FambFake({ imageBase: IMAGE }).start();
famb.latencyMs = LATENCY;
const server = await startTestServer({
  workers: 2,
  // SEJONG_TEST_STORAGE=shared runs it on PostgreSQL + Redis; SEJONG_QUEUE_IO_CONCURRENCY (shared) is passed through
  env: { SEJONG_FAMB_URL: famb.url, SEJONG_FAMB_KEY: famb.key, SEJONG_QUEUE_SIZE: '64', ...(process.env.SEJONG_QUEUE_IO_CONCURRENCY ? { SEJONG_QUEUE_IO_CONCURRENCY: process.env.SEJONG_QUEUE_IO_CONCURRENCY } : {}) },
});
ai(server.services);

// warm up: module load in both workers, canvas font, keep-alive connections
await Promise.all([0, 1, 2, 3].map(async () => {
  const r = await server.req('/api/v1/text-to-image/generate', { method: 'POST', json: { model: 'fam-b-2.5-flash-image', prompt: 'warm-up' } });
  const { jobId } = (await r.json()) as { jobId: string };
  while ((await server.services.jobs.get(jobId))?.status === 'processing') await new Promise((res) => setTimeout(res, 20));
}));
famb.reset();
famb.latencyMs = LATENCY;

const ids: string[] = new Array(JOBS);
const finishedIds = new Set<string>();
server.services.jobs.onFinished((j) => finishedIds.add(j.id));
const acceptMs: number[] = [];
let failedAccept = 0;
let done = false;
const pollMs: number[] = [];

const pollers = Array.from({ length: POLLERS }, async () => {
  while (!done) {
    const known = ids.filter(Boolean);
    if (!known.length) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const id = known[Math.floor(Math.random() * known.length)]!;
    const t0 = performance.now();
    const r = await server.req(`/api/v1/text-to-image/status/${id}`);
    await r.arrayBuffer();
    pollMs.push(performance.now() - t0);
  }
});

const tStart = performance.now();
// CPU of this whole process (main thread, pool workers, libuv and libvips threads; also the fake and the load
// generator, which live here): per finished job it says what 2 idle cores could sustain, whatever the machine's load
const cpuStart = process.cpuUsage();
const loadStart = os.loadavg()[0]!;
let next = 0;
await Promise.all(Array.from({ length: CONC }, async () => {
  while (next < JOBS) {
    const i = next++;
    const t0 = performance.now();
    const r = await server.req('/api/v1/text-to-image/generate', { method: 'POST', json: { model: 'fam-b-2.5-flash-image', prompt: `bench #${i}` } });
    const b = (await r.json()) as { jobId?: string };
    acceptMs.push(performance.now() - t0);
    if (r.status === 200 && b.jobId) ids[i] = b.jobId;
    else failedAccept++;
  }
}));
const acceptSecs = (performance.now() - tStart) / 1000;

// wait for every job to finish: counted from the engine's finished events (polling 1,000 records every 50 ms
// cost the shared main thread more than the jobs' own bookkeeping)
const deadline = Date.now() + 300_000;
const accepted = new Set(ids.filter(Boolean));
while (accepted.size > 0 && [...finishedIds].filter((id) => accepted.has(id)).length < accepted.size && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 50));
}
const totalSecs = (performance.now() - tStart) / 1000;
const cpuUsed = process.cpuUsage(cpuStart);
const cpuMsPerJob = (cpuUsed.user + cpuUsed.system) / 1000 / JOBS;
done = true;
await Promise.all(pollers);

// upstream answer → completed, matched by the prompt number
const answered = new Map<number, number>();
for (const rec of famb.requests) {
  const m = /bench #(\d+)/.exec(rec.body?.contents?.[0]?.parts?.[0]?.text ?? '');
  if (m && rec.answeredAt) answered.set(Number(m[1]), rec.answeredAt);
}
const toComplete: number[] = [];
let completed = 0, failed = 0;
const records = await Promise.all(ids.map((id) => (id ? server.services.jobs.get(id) : undefined)));
ids.forEach((_id, i) => {
  const j = records[i];
  if (j?.status === 'completed') completed++;
  if (j?.status === 'failed') failed++;
  const a = answered.get(i);
  if (j?.completedAt && a) toComplete.push(j.completedAt - a);
});
const rss = Math.round(process.memoryUsage().rss / 1e6);
await server.close();
await famb.close();

console.log(`ai-jobs: ${JOBS} txt2img jobs (fam-b-2.5-flash-image, ${IMAGE}px PNG from the fake, ${LATENCY} ms upstream latency), ${CONC} creators in flight, ${POLLERS} status pollers; 2 pool workers`);
console.log(`machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}, rss ${rss} MB`);
console.log(table([
  { metric: 'accepted jobs/s', value: r1(JOBS / acceptSecs), note: `${JOBS - failedAccept} accepted, ${failedAccept} refused, in ${r1(acceptSecs)} s` },
  { metric: 'POST generate p50 / p99 ms', value: `${r1(pct(acceptMs, 50))} / ${r1(pct(acceptMs, 99))}`, note: '' },
  { metric: 'status poll p50 / p99 ms', value: `${r1(pct(pollMs, 50))} / ${r1(pct(pollMs, 99))}`, note: `${pollMs.length} polls during the run` },
  { metric: 'upstream answer → completed p50 / p99 ms', value: `${r1(pct(toComplete, 50))} / ${r1(pct(toComplete, 99))}`, note: 'AI mark in the pool + PNG into LMDB' },
  { metric: 'all jobs finished in s', value: r1(totalSecs), note: `${completed} completed, ${failed} failed` },
  { metric: 'jobs/s (finished)', value: r1(JOBS / totalSecs), note: `load average ${loadStart.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}` },
  { metric: 'process CPU ms per job', value: r1(cpuMsPerJob), note: `all threads, fake and load generator included: ${r1((os.cpus().length * 1000) / cpuMsPerJob)} jobs/s on ${os.cpus().length} idle cores` },
]));
