// Image-processing benchmark (issue 3).
//  1. Per operation through the HTTP API (real server in a child process, port 0, temp LMDB): images/s and p50/p99
//     latency for a 1024x1024 and a 2048x2048 input, pool at 1 and at 2 workers, 2 x workers + 2 requests in
//     flight, and the scaling 1 -> 2 workers per operation. Beside the wall figures, load-insensitive ones from
//     /proc/PID/task/*/stat (bench/lib/threads.ts): server CPU-seconds per image, split by thread role (pool
//     workers, libvips, V8 platform + libuv, main) with each role's niceness, cores used, and the scaling ceiling
//     (cores x worker-serial CPU-s per image / all CPU-s per image): when one worker already keeps more than one
//     core busy (V8's GC threads and the main thread work beside it), 1 -> 2 workers cannot double.
//  2. Chroma key side by side with `ffmpeg -vf chromakey` on the same green-screen images: time and alpha IoU
//     against the true mask (ffmpeg gets its best similarity/blend of a small grid, to be fair).
//  3. QR recognize side by side with plain jsQR on the same distorted set: decode rate and time per image.
// Run: npm run bench -- image [--requests 24] [--inflight N] [--ops remove-background,contour] [--sizes 1024]
//        [--workers 1,2] [--skip-http] [--skip-chroma] [--skip-qr] [--rounds R] [--gc]
//        [--variants '[{"label":"main","code":"/tmp/main-copy"},{"label":"this tree","env":{"K":"V"}}]']
//      With --variants, one server per variant is up for each worker count and the variants' cells alternate
//      (order reversed every other round): A/B in the same minutes, under the same load.
//      --gc: each server runs with node's --trace-gc and each cell reports the mark-compacts and scavenges per image
//      (all of the server's isolates; the pool workers' dominate): a major GC per image is what put V8's helper
//      threads beside the worker (issue 19, bench/RESULTS.md image23).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { execFileSync, spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import jsQRmod from 'jsqr';
import { formData } from '../test/helpers/server.js';
import { spawnServer, type ServerProc } from './lib/server-proc.js';
import { greenScreen, cardScene, receiptScene, qrSamples, decodeRgba, prng } from '../test/helpers/images.js';
import { renderQrGrey } from '../src/tasks/qr-generate.js';
import qrRecognize from '../src/tasks/qr-recognize.js';
import chromaKey from '../src/tasks/chroma-key.js';
import { homography, warp } from '../src/tasks/lib/geometry.js';
import { table } from './lib/load.js';
import { snapshot, diff, group, perImage, settle } from './lib/threads.js';

const jsQR = ((jsQRmod as unknown as { default?: unknown }).default ?? jsQRmod) as (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null;
const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
/** requests per cell (after the warm-up): fewer than ~24 at 1024² leaves a cell's figure to a few stragglers */
const REQUESTS = arg('requests', 24);
/** requests kept in flight per cell; 0 = 2 x workers + 2 */
const INFLIGHT = arg('inflight', 0);
const SKIP_HTTP = process.argv.includes('--skip-http');
const SKIP_CHROMA = process.argv.includes('--skip-chroma');
const SKIP_QR = process.argv.includes('--skip-qr');
const strArg = (name: string): string[] | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]!.split(',') : undefined;
};
/** operation name prefixes to run, e.g. --ops remove-background,contour */
const OPS = strArg('ops');
const WORKERS = (strArg('workers') ?? ['1', '2']).map(Number);
/** servers compared side by side, e.g. '[{"label":"main","code":"/tmp/base"},{"label":"this tree"}]' (code: another
 * checkout; env, args: the server's environment and node arguments); their cells alternate within each operation */
const VARIANTS = (() => {
  const i = process.argv.indexOf('--variants');
  return JSON.parse(i > 0 ? process.argv[i + 1]! : '[{"label":"this tree"}]') as Array<{ label: string; code?: string; env?: Record<string, string>; args?: string[] }>;
})();
/** measured cells per variant and operation (the figures sum them) */
const ROUNDS = arg('rounds', 1);
const TRACE_GC = process.argv.includes('--gc');
/** mark-compacts and scavenges in a server's --trace-gc log so far */
const gcCounts = (file: string): { mc: number; sc: number } => {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '';
  return { mc: text.split('Mark-Compact').length - 1, sc: text.split('Scavenge').length - 1 };
};
const pct = (a: number[], p: number): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const r1 = (v: number): number => Math.round(v * 10) / 10;
const r2 = (v: number): number => Math.round(v * 100) / 100;

function iou(alpha: Uint8Array, ch: number, truth: Float32Array): number {
  let inter = 0, uni = 0;
  for (let i = 0; i < truth.length; i++) {
    const a = alpha[i * ch + ch - 1]! > 127, b = truth[i]! > 0.5;
    if (a && b) inter++;
    if (a || b) uni++;
  }
  return inter / uni;
}

// ------------------------------------------------------------------ inputs
const sizes = (strArg('sizes') ?? ['1024', '2048']).map(Number);
const inputs: Record<number, { green: Awaited<ReturnType<typeof greenScreen>>; card: Buffer; receipt: Buffer; qr: Buffer; plain: Buffer }> = {};
for (const n of sizes) {
  const green = await greenScreen({ width: n, height: n, feather: 2.5 * (n / 640), seed: 3 });
  const k = n / 1200;
  const card = (await cardScene({ width: n, height: n, corners: [[260 * k, 300 * k], [930 * k, 260 * k], [990 * k, 730 * k], [210 * k, 780 * k]] })).jpeg;
  const rs = await receiptScene({ angle: 10 });
  const receipt = await sharp(rs.jpeg).resize(n, n, { fit: 'fill' }).jpeg({ quality: 88 }).toBuffer();
  const q = renderQrGrey({ data: 'https://sejong.example/bench?id=42', width: Math.round(n / 2), height: Math.round(n / 2) });
  const qr = await sharp(Buffer.from(q.grey), { raw: { width: q.width, height: q.height, channels: 1 } }).extend({ top: n / 4, bottom: n / 4, left: n / 4, right: n / 4, background: '#ffffff' }).rotate(20, { background: '#ffffff' }).resize(n, n).blur(1.5).jpeg({ quality: 85 }).toBuffer();
  inputs[n] = { green, card, receipt, qr, plain: card };
}

// ------------------------------------------------------------------ 1. HTTP API
// The server runs in its own process (bench/lib/server-proc.ts); this process is only the load generator (and
// the file server for imageUrl). Each cell keeps `inflight` requests open (default 2 x workers + 2, enough to
// keep every worker busy while answers travel), so images/s measures the pool, not the client's round trips.
const httpRows: Array<Record<string, string | number>> = [];
const scaleRows: Array<Record<string, string | number>> = [];
if (!SKIP_HTTP) {
  const files: Record<string, Buffer> = {};
  for (const n of sizes) {
    files[`/green${n}.png`] = inputs[n]!.green.png;
    files[`/card${n}.jpg`] = inputs[n]!.card;
  }
  const srv = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url!.endsWith('.png') ? 'image/png' : 'image/jpeg' }).end(f);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  // multipart bodies encoded once (bytes + content-type with its boundary): the load generator shares the 2 cores
  // with the server, and undici re-encoding a FormData per request cost it ≈ 1–2 ms of CPU per image
  const encoded = async (fields: Record<string, string>, files: Parameters<typeof formData>[1]): Promise<{ body: Buffer; type: string }> => {
    const r = new Response(formData(fields, files));
    return { body: Buffer.from(await r.arrayBuffer()), type: r.headers.get('content-type')! };
  };
  const multipart = (s: { req: (u: string, i: RequestInit) => Promise<Response> }, url: string, b: { body: Buffer; type: string }) => s.req(url, { method: 'POST', body: b.body, headers: { 'content-type': b.type } });
  const bodies: Record<number, { qr: { body: Buffer; type: string }; card: { body: Buffer; type: string }; receipt: { body: Buffer; type: string } }> = {};
  for (const n of sizes) {
    bodies[n] = {
      qr: await encoded({}, { image: { data: inputs[n]!.qr, type: 'image/jpeg' } }),
      card: await encoded({}, { image: { data: inputs[n]!.card, type: 'image/jpeg' } }),
      receipt: await encoded({}, { image: { data: inputs[n]!.receipt, type: 'image/jpeg' } }),
    };
  }
  type Op = { name: string; call: () => Promise<Response> };
  const opsFor = (s: ServerProc, n: number): Op[] => {
    const b = bodies[n]!;
    return [
      { name: 'remove-background', call: () => s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl: `${base}/green${n}.png`, chromaKey: { color: 'auto' }, storageType: 'url_a' } }) },
      { name: 'qrcode/recognize', call: () => multipart(s, '/api/v1/qrcode/recognize', b.qr) },
      { name: 'contour/extract', call: () => multipart(s, '/api/v1/contour/extract', b.card) },
      { name: 'quality-check', call: () => multipart(s, '/api/v1/ekyc/image/quality-check', b.card) },
      { name: 'perspective-crop', call: () => multipart(s, '/api/v1/ekyc/perspective-crop', b.card) },
      { name: 'studio/mosaic', call: () => s.req('/api/v1/studio/mosaic', { method: 'POST', json: { imageUrl: `${base}/card${n}.jpg`, regions: [{ x: 0, y: 0, width: n / 2, height: n / 2 }], blockSize: 16 } }) },
      {
        name: 'receipt (job, until completed)',
        call: async () => {
          const c = await (await multipart(s, '/api/v1/receipt/optimize', b.receipt)).json() as { jobId: string };
          for (;;) {
            const st = await s.req(`/api/v1/receipt/status/${c.jobId}`);
            const b = await st.clone().json() as { status: string };
            if (b.status !== 'processing') return st;
            await new Promise((r) => setTimeout(r, 25));
          }
        },
      },
    ].filter((o) => !OPS || OPS.some((f) => o.name.startsWith(f)));
  };
  // sums over a variant's rounds, per operation, size and worker count: requests, seconds, server CPU, serial CPU
  const sums = new Map<string, { req: number; secs: number; cpu: number; serial: number }>();
  const multi = VARIANTS.length > 1 || ROUNDS > 1;
  for (const workers of WORKERS) {
    const inflight = INFLIGHT > 0 ? INFLIGHT : 2 * workers + 2;
    const requests = Math.max(REQUESTS, 2 * inflight);
    // one server per variant, all up for the whole worker count: the variants' cells alternate in the same minutes
    const servers: ServerProc[] = [];
    const gcLogs = VARIANTS.map((_, i) => path.join(os.tmpdir(), `sejong-bench-image-gc-${process.pid}-${workers}-${i}.log`));
    try {
      for (const [i, v] of VARIANTS.entries()) {
        const args = [...(TRACE_GC ? ['--trace-gc'] : []), ...(v.args ?? [])];
        servers.push(await spawnServer({ workers, env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '64', ...v.env } }, args, { code: v.code, log: TRACE_GC ? gcLogs[i] : undefined }));
      }
      for (const n of sizes) {
        const opNames = opsFor(servers[0]!, n).map((o) => o.name);
        for (const name of opNames) {
          const ops = servers.map((s) => opsFor(s, n).find((o) => o.name === name)!);
          // warm-up: every worker loads the task's module and JIT-compiles it (`workers` requests at once, twice);
          // with one warm-up request the second worker's first task (module load, cold code) landed in the cell
          for (const op of ops) {
            for (let round = 0; round < 2; round++) {
              await Promise.all(Array.from({ length: workers }, async () => {
                const w = await op.call();
                if (w.status !== 200) throw new Error(`${op.name} ${n}: HTTP ${w.status} ${await w.text()}`);
                await w.arrayBuffer();
              }));
            }
          }
          for (let round = 0; round < ROUNDS; round++) {
            // the order alternates round by round, so that neither variant always runs first
            const order = VARIANTS.map((_, i) => i);
            if (round % 2 === 1) order.reverse();
            for (const vi of order) {
              const s = servers[vi]!, op = ops[vi]!, label = VARIANTS[vi]!.label;
              // the fresh server's own start-up (law workers loading after it listens) must not fall inside a cell
              await settle(s.pid);
              const before = snapshot(s.pid);
              const gc0 = TRACE_GC ? gcCounts(gcLogs[vi]!) : undefined;
              const cpu0 = process.cpuUsage();
              const lat: number[] = [];
              let next = 0;
              const t0 = performance.now();
              await Promise.all(Array.from({ length: inflight }, async () => {
                while (next < requests) {
                  next++;
                  const a = performance.now();
                  const res = await op.call();
                  await res.arrayBuffer();
                  if (res.status !== 200) throw new Error(`${op.name}: HTTP ${res.status}`);
                  lat.push(performance.now() - a);
                }
              }));
              const secs = (performance.now() - t0) / 1000;
              // server CPU from /proc/PID/task/*/stat (load-insensitive): per image, per thread role, and cores used
              const groups = group(diff(before, snapshot(s.pid)), s.pid);
              const cpu = groups.reduce((a, g) => a + g.cpu, 0);
              // 1 worker at best runs one image per (its own JS + the libvips work it waits for) CPU-seconds
              const serial = groups.filter((g) => g.role === 'pool' || g.role === 'libvips').reduce((a, g) => a + g.cpu, 0);
              const gen = process.cpuUsage(cpu0);
              // the log is written as the server's stdout arrives: let the cell's last lines land
              if (gc0) await new Promise((r) => setTimeout(r, 200));
              const gc1 = gc0 ? gcCounts(gcLogs[vi]!) : undefined;
              const gcPerImg: Record<string, string> = gc0 && gc1 ? { 'MC / scav per img': `${((gc1.mc - gc0.mc) / requests).toFixed(2)} / ${((gc1.sc - gc0.sc) / requests).toFixed(2)}` } : {};
              const sum = sums.get(`${label}|${op.name}|${n}|${workers}`) ?? { req: 0, secs: 0, cpu: 0, serial: 0 };
              sums.set(`${label}|${op.name}|${n}|${workers}`, { req: sum.req + requests, secs: sum.secs + secs, cpu: sum.cpu + cpu, serial: sum.serial + serial });
              httpRows.push({ ...(multi ? { variant: label, round: round + 1 } : {}), operation: op.name, input: `${n}x${n}`, workers, 'in flight': inflight, requests, 'images/s': r2(requests / secs), 'p50 ms': Math.round(pct(lat, 50)), 'p99 ms': Math.round(pct(lat, 99)), 'CPU s/img': (cpu / requests).toFixed(3), 'cores used': r2(cpu / secs), 'CPU s/img by thread role @nice': perImage(groups, requests), 'load gen CPU s/img': ((gen.user + gen.system) / 1e6 / requests).toFixed(3), ...gcPerImg, load: os.loadavg()[0]!.toFixed(1) });
              console.error(JSON.stringify(httpRows[httpRows.length - 1]));
            }
          }
        }
      }
    } finally {
      for (const s of servers) await s.close();
      for (const f of gcLogs) fs.rmSync(f, { force: true });
    }
  }
  // scaling per variant, operation and size, from the sums over its rounds; load-insensitive ceiling of 1 -> 2 on
  // this machine's cores: 2 workers at best run cores / (all CPU-seconds per image), since V8's GC threads, libuv
  // and the main thread use cores beside the workers, and 1 worker at best one image per serial CPU-seconds
  for (const [k, two] of sums) {
    const [label, name, n, w] = k.split('|');
    if (w !== '2') continue;
    const one = sums.get(`${label}|${name}|${n}|1`);
    if (!one) continue;
    const ceiling = Math.min(2, os.cpus().length * (two.serial / two.req) / (two.cpu / two.req));
    scaleRows.push({ ...(multi ? { variant: label!, rounds: ROUNDS } : {}), operation: name!, input: `${n}x${n}`, '1 worker img/s': r2(one.req / one.secs), '2 workers img/s': r2(two.req / two.secs), 'scaling 1 → 2': `${r2((two.req / two.secs) / (one.req / one.secs))}x`, 'CPU s/img 1w / 2w': `${(one.cpu / one.req).toFixed(3)} / ${(two.cpu / two.req).toFixed(3)}`, 'worker-serial CPU s/img 1w / 2w': `${(one.serial / one.req).toFixed(3)} / ${(two.serial / two.req).toFixed(3)}`, [`CPU-bound ceiling on ${os.cpus().length} cores`]: `${r2(ceiling)}x` });
  }
  srv.close();
}

// ------------------------------------------------------------------ 2. chroma key vs ffmpeg
const ffmpegOk = spawnSync('ffmpeg', ['-version']).error === undefined;
const chromaRows: Array<Record<string, string | number>> = [];
const stepRows: Array<Record<string, string | number>> = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-image-'));
for (const n of SKIP_CHROMA ? [] : sizes) {
  const g = inputs[n]!.green;
  const runs = 3;
  const ours: number[] = [];
  let oursIou = 0, key = '';
  const steps: Record<string, number[]> = {};
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const r = await chromaKey({ image: g.png, color: 'auto', trimTransparent: false });
    if (i > 0) ours.push(performance.now() - t0);
    if (i > 0) for (const [k, v] of Object.entries(r.timings_ms)) (steps[k] ??= []).push(v);
    const rgba = await decodeRgba(r.png);
    oursIou = iou(rgba.data, 4, g.alpha);
    key = r.removedColor;
  }
  stepRows.push({ input: `${n}x${n}`, ...Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, r1(pct(v, 50))])) });
  chromaRows.push({ tool: 'sejong chroma-key (in-process, auto colour + tolerance)', input: `${n}x${n}`, 'p50 ms': Math.round(pct(ours, 50)), 'alpha IoU': oursIou.toFixed(4), settings: `auto → ${key}`, load: os.loadavg()[0]!.toFixed(1) });
  if (ffmpegOk) {
    const src = path.join(tmp, `g${n}.png`);
    fs.writeFileSync(src, g.png);
    let best = { iou: -1, sim: 0, blend: 0, ms: 0 };
    for (const sim of [0.05, 0.1, 0.15, 0.2, 0.3]) {
      for (const blend of [0, 0.05, 0.1]) {
        const out = path.join(tmp, `o${n}.png`);
        const t0 = performance.now();
        execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', src, '-vf', `chromakey=0x${key.slice(1)}:${sim}:${blend},format=rgba`, '-frames:v', '1', out]);
        const ms = performance.now() - t0;
        const rgba = await decodeRgba(fs.readFileSync(out));
        const v = iou(rgba.data, 4, g.alpha);
        if (v > best.iou) best = { iou: v, sim, blend, ms };
      }
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', src, '-vf', `chromakey=0x${key.slice(1)}:${best.sim}:${best.blend},format=rgba`, '-frames:v', '1', path.join(tmp, `o${n}.png`)]);
      times.push(performance.now() - t0);
    }
    chromaRows.push({ tool: 'ffmpeg -vf chromakey (CLI: decode + key + PNG encode)', input: `${n}x${n}`, 'p50 ms': Math.round(pct(times, 50)), 'alpha IoU': best.iou.toFixed(4), settings: `same colour, best of grid: similarity ${best.sim}, blend ${best.blend}`, load: os.loadavg()[0]!.toFixed(1) });
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

// ------------------------------------------------------------------ 3. QR vs jsQR
const qset = SKIP_QR ? [] : await qrSamples();
const rnd = prng(21);
// a harder set: more noise / blur / contrast / perspective
const data = 'https://sejong.example/receipt/20261122?id=42&lang=ko';
const base = renderQrGrey({ data, width: 420, height: 420 });
const baseRaw = { data: base.grey, width: base.width, height: base.height, channels: 1 as const };
for (let k = 0; k < (SKIP_QR ? 0 : 12); k++) {
  const skew = 20 + 50 * rnd();
  const Hinv = homography([[skew, 10 + 30 * rnd()], [420 - 30 * rnd(), skew], [420 - skew * rnd(), 420 - 20 * rnd()], [10 + 30 * rnd(), 420 - skew]], [[0, 0], [420, 0], [420, 420], [0, 420]]);
  const w = warp(baseRaw, Hinv, 420, 420, [255]);
  const px = Buffer.from(w.data);
  const noise = 20 + 60 * rnd(), lo = 60 + 80 * rnd(), hi = lo + 30 + 60 * rnd();
  for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, Math.round(lo + (px[i]! / 255) * (hi - lo) + (rnd() - 0.5) * 2 * noise)));
  const bytes = await sharp(px, { raw: { width: 420, height: 420, channels: 1 } }).blur(0.5 + 2 * rnd()).rotate(Math.round(rnd() * 90), { background: '#ffffff' }).jpeg({ quality: 60 + Math.round(30 * rnd()) }).toBuffer();
  qset.push({ name: `hard-${k}`, bytes, data });
}
let oursOk = 0, jsOk = 0;
const oursT: number[] = [], jsT: number[] = [];
const methods: Record<string, number> = {};
if (qset.length) await qrRecognize({ image: qset[0]!.bytes }); // warm (wasm)
for (const s of qset) {
  const t0 = performance.now();
  const r = await qrRecognize({ image: s.bytes });
  oursT.push(performance.now() - t0);
  if (r.success && r.data === s.data) {
    oursOk++;
    methods[r.method!] = (methods[r.method!] ?? 0) + 1;
  }
  const t1 = performance.now();
  const { data: d, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const j = jsQR(new Uint8ClampedArray(d.buffer, d.byteOffset, d.length), info.width, info.height);
  jsT.push(performance.now() - t1);
  if (j?.data === s.data) jsOk++;
}
const qrRows = [
  { decoder: 'sejong qr-recognize (zxing-wasm + variants)', decoded: `${oursOk}/${qset.length}`, 'p50 ms': Math.round(pct(oursT, 50)), 'p99 ms': Math.round(pct(oursT, 99)), note: Object.entries(methods).map(([k, v]) => `${k} ${v}`).join(', ') },
  { decoder: 'jsQR 1.4.0 (decode + RGBA conversion)', decoded: `${jsOk}/${qset.length}`, 'p50 ms': Math.round(pct(jsT, 50)), 'p99 ms': Math.round(pct(jsT, 99)), note: 'inversion attempts on' },
];

console.log(`image: >= ${REQUESTS} requests per cell, ${INFLIGHT || '2 x workers + 2'} in flight, server in its own process; machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z, load average ${os.loadavg().map((v) => v.toFixed(1)).join(' ')}`);
if (httpRows.length) console.log('\nHTTP API\n' + table(httpRows));
if (scaleRows.length) console.log('\nScaling 1 -> 2 workers\n' + table(scaleRows));
if (chromaRows.length) console.log('\nChroma key vs ffmpeg' + (ffmpegOk ? '' : ' (ffmpeg not installed: apt-get install -y ffmpeg)') + '\n' + table(chromaRows));
if (stepRows.length) console.log('\nChroma key steps, p50 ms (timings_ms)\n' + table(stepRows));
if (qset.length) console.log(`\nQR recognize vs jsQR (${qset.length} images: 7 distortions of tests + 12 random perspective/noise/contrast/blur/rotation)\n` + table(qrRows));
