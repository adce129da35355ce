// Event-loop freedom under a saturated pool (issue 19 item 1): the server runs in its own process (2 workers);
// this process keeps `inflight` contour/extract (multipart JPEG) and remove-background (imageUrl PNG) requests open
// and meanwhile asks GET /health one at a time every 20 ms; /health p50/p99/max is what the event loop costs.
// Two probes side by side: "in-process" pings from this (load generator) process, so its own event loop (multipart
// bodies, image answers) adds to the figure; "prober" pings from a process of its own (bench/lib/prober.ts). The
// server's own event-loop delay (perf_hooks, inside the server process) is the third view.
// Beside it, the server's CPU-seconds per image by thread role and niceness (bench/lib/threads.ts). Each row
// starts once the fresh server is quiet (bench/lib/threads.ts settle: its law workers load after it listens).
// Usage: npm run bench -- loop [--seconds 15] [--inflight 6] [--size 1024] [--nice 0,10] [--cpu-prof DIR]
//          [--gc-log DIR] (server run with --trace-gc, one log per row)
//          [--variants '[{"label":"base"},{"label":"x","args":["--v8-pool-size=2"],"env":{"K":"V"}}]']
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { formData } from '../test/helpers/server.js';
import { greenScreen, cardScene } from '../test/helpers/images.js';
import { spawnServer } from './lib/server-proc.js';
import { table } from './lib/load.js';
import { snapshot, diff, group, perImage, settle } from './lib/threads.js';
import { startProber } from './lib/prober.js';

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
const GC_LOG = arg('gc-log', '');
/** server variants (node arguments, environment) compared side by side, each at every --nice value */
const VARIANTS = JSON.parse(arg('variants', '[{"label":"default"}]')) as Array<{ label: string; args?: string[]; env?: Record<string, string> }>;
const pct = (a: number[], p: number): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const green = (await greenScreen({ width: N, height: N, feather: 2.5 * (N / 640), seed: 3 })).png;
const k = N / 1200;
const card = (await cardScene({ width: N, height: N, corners: [[260 * k, 300 * k], [930 * k, 260 * k], [990 * k, 730 * k], [210 * k, 780 * k]] })).jpeg;
// the multipart body encoded once (the load generator shares the cores with the server)
const cardBody = await (async () => {
  const r = new Response(formData({}, { image: { data: card, type: 'image/jpeg' } }));
  return { body: Buffer.from(await r.arrayBuffer()), type: r.headers.get('content-type')! };
})();
const files = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(green));
await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
const imageUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/g.png`;

const rows: Array<Record<string, string | number>> = [];
for (const variant of VARIANTS) for (const nice of NICE) {
  const nodeArgs = [...(PROF ? ['--cpu-prof', '--cpu-prof-dir', PROF] : []), ...(GC_LOG ? ['--trace-gc'] : []), ...(variant.args ?? [])];
  const log = GC_LOG ? `${GC_LOG}/loop-${variant.label}-nice${nice}.log` : undefined;
  const s = await spawnServer({ workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '64', SEJONG_WORKER_NICE: String(nice), ...variant.env } }, nodeArgs, { log });
  const ops = [
    () => s.req('/api/v1/contour/extract', { method: 'POST', body: cardBody.body, headers: { 'content-type': cardBody.type } }),
    () => s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl, chromaKey: { color: 'auto' }, storageType: 'url_a' } }),
  ];
  for (const op of ops) {
    const r = await op();
    if (r.status !== 200) throw new Error(`warm-up: HTTP ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
  }
  await settle(s.pid);
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
  let prober: Awaited<ReturnType<typeof startProber>> | undefined;
  const pinger = (async () => {
    await new Promise((r) => setTimeout(r, 1000)); // let the pool fill
    await s.loopDelay(); // the server's own histogram starts now
    prober = await startProber(`${s.url}/health`, 20);
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
  const eld = await s.loopDelay();
  const probed = (await prober?.stop()) ?? [];
  const secs = (performance.now() - t0) / 1000;
  // which threads used the cores, at which niceness (/proc): the event loop competes with those at its own niceness
  const groups = group(diff(before, snapshot(s.pid)), s.pid);
  await s.close();
  const r1 = (v: number): number => Math.round(v * 10) / 10;
  const three = (a: number[]): string => `${r1(pct(a, 50))} / ${r1(pct(a, 99))} / ${r1(Math.max(...a))}`;
  rows.push({ variant: variant.label, 'worker nice': nice, 'image requests/s': Math.round((done / secs) * 100) / 100, failed, 'health n (in-process / prober)': `${health.length} / ${probed.length}`, '/health p50 / p99 / max ms, in-process': three(health), '/health p50 / p99 / max ms, prober': three(probed), 'server event-loop delay p50 / p99 / max ms': `${eld.p50} / ${eld.p99} / ${eld.max}`, 'server CPU s/img by thread role @nice': perImage(groups, done), load: os.loadavg()[0]!.toFixed(1) });
  console.error(JSON.stringify(rows[rows.length - 1]));
}
files.close();
console.log(`loop: ${SECONDS} s per row, ${INFLIGHT} in flight (contour/extract + remove-background at ${N}x${N}), 2 workers, server in its own process; ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z`);
console.log(table(rows));
