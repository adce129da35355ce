// Event-loop freedom under a saturated pool (issue 19 item 1): the server runs in its own process (2 workers);
// this process keeps `inflight` contour/extract (multipart JPEG) and remove-background (imageUrl PNG) requests open
// and meanwhile asks GET /health one at a time every 20 ms; /health p50/p99/max is what the event loop costs.
// Beside it, the server's CPU-seconds per image by thread role and niceness (bench/lib/threads.ts).
// Usage: npm run bench -- loop [--seconds 15] [--inflight 6] [--size 1024] [--nice 0,10] [--cpu-prof DIR]
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { formData } from '../test/helpers/server.js';
import { greenScreen, cardScene } from '../test/helpers/images.js';
import { spawnServer } from './lib/server-proc.js';
import { table } from './lib/load.js';
import { snapshot, diff, group, perImage } from './lib/threads.js';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const SECONDS = Number(arg('seconds', '15'));
const INFLIGHT = Number(arg('inflight', '6'));
const N = Number(arg('size', '1024'));
const PROF = arg('cpu-prof', '');
/** SEJONG_WORKER_NICE values to compare, side by side in one run */
const NICE = arg('nice', '0,10').split(',').map(Number);
const pct = (a: number[], p: number): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const green = (await greenScreen({ width: N, height: N, feather: 2.5 * (N / 640), seed: 3 })).png;
const k = N / 1200;
const card = (await cardScene({ width: N, height: N, corners: [[260 * k, 300 * k], [930 * k, 260 * k], [990 * k, 730 * k], [210 * k, 780 * k]] })).jpeg;
const files = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(green));
await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
const imageUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/g.png`;

const rows: Array<Record<string, string | number>> = [];
for (const nice of NICE) {
  const s = await spawnServer({ workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '64', SEJONG_WORKER_NICE: String(nice) } }, PROF ? ['--cpu-prof', '--cpu-prof-dir', PROF] : []);
  const ops = [
    () => s.req('/api/v1/contour/extract', { method: 'POST', body: formData({}, { image: { data: card, type: 'image/jpeg' } }) }),
    () => s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl, chromaKey: { color: 'auto' }, storageType: 'url_a' } }),
  ];
  for (const op of ops) {
    const r = await op();
    if (r.status !== 200) throw new Error(`warm-up: HTTP ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  }
  const health: number[] = [];
  const before = snapshot(s.pid);
  let done = 0, failed = 0, stop = false;
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  const workers = Array.from({ length: INFLIGHT }, async (_, j) => {
    while (performance.now() < until) {
      const r = await ops[j % 2]!();
      await r.arrayBuffer();
      if (r.status === 200) done++;
      else failed++;
    }
  });
  const pinger = (async () => {
    await new Promise((r) => setTimeout(r, 1000)); // let the pool fill
    while (!stop) {
      const a = performance.now();
      const r = await fetch(`${s.url}/health`);
      await r.arrayBuffer();
      health.push(performance.now() - a);
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  await Promise.all(workers);
  stop = true;
  await pinger;
  const secs = (performance.now() - t0) / 1000;
  // which threads used the cores, at which niceness (/proc): the event loop competes with those at its own niceness
  const groups = group(diff(before, snapshot(s.pid)), s.pid);
  await s.close();
  rows.push({ 'worker nice': nice, 'image requests/s': Math.round((done / secs) * 100) / 100, failed, 'health n': health.length, 'health p50 ms': Math.round(pct(health, 50) * 10) / 10, 'health p99 ms': Math.round(pct(health, 99) * 10) / 10, 'health max ms': Math.round(Math.max(...health) * 10) / 10, 'server CPU s/img by thread role @nice': perImage(groups, done), load: os.loadavg()[0]!.toFixed(1) });
  console.error(JSON.stringify(rows[rows.length - 1]));
}
files.close();
console.log(`loop: ${SECONDS} s per row, ${INFLIGHT} in flight (contour/extract + remove-background at ${N}x${N}), 2 workers, server in its own process; ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z`);
console.log(table(rows));
