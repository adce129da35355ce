// How late the event loop wakes while a law-like thread keeps a CPU busy (niceness +5 like SEJONG_LAW_WORKER_NICE),
// with the busy thread on every CPU (SEJONG_LAW_CPUS=any) or off the first (spare-one, dist/law/thread-affinity.js),
// and with no busy thread: the mechanism behind /health under an MCP flood, without the flood's client, prober and
// sockets. The main thread sleeps 2 ms at a time (setTimeout) and records how late each wake-up was; the busy thread
// allocates and sorts small arrays (search-like garbage). Rows alternate, so every row sees the same machine load.
// Usage: node bench/law-thread-wake.mjs [seconds per row = 3] [rounds = 3] [tree = .]
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const secs = Number(process.argv[2] ?? 3), rounds = Number(process.argv[3] ?? 3);
const url = pathToFileURL(path.join(path.resolve(process.argv[4] ?? '.'), 'dist/law/thread-affinity.js')).href;
await import(url); // a missing build fails here, before the rows
const BUSY = `
const { parentPort, workerData } = require('node:worker_threads');
const os = require('node:os');
os.setPriority(Math.min(19, os.getPriority() + 5));
import(workerData.url).then(async ({ pinOwnThread }) => {
  const r = await pinOwnThread(workerData.cpus);
  parentPort.postMessage(r instanceof Error ? r.message : '');
  let x = 0;
  for (;;) { const a = Array.from({ length: 64 }, (_, i) => (i * 7919 + x) % 1000); a.sort((p, q) => p - q); x += a[3]; }
});`;

async function row(cpus) {
  let w;
  if (cpus !== 'none') {
    w = new Worker(BUSY, { eval: true, workerData: { cpus, url } });
    const why = await new Promise((r) => w.once('message', r));
    if (why) console.error(cpus, why);
    await new Promise((r) => setTimeout(r, 200));
  }
  const late = [];
  const cpu0 = process.cpuUsage();
  const end = performance.now() + secs * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 2));
    late.push(performance.now() - t0 - 2);
  }
  const cpu = process.cpuUsage(cpu0);
  if (w) await w.terminate();
  late.sort((a, b) => a - b);
  const q = (p) => late[Math.min(late.length - 1, Math.floor(p * late.length))].toFixed(2);
  return `${late.length} | ${q(0.5)} / ${q(0.99)} / ${late.at(-1).toFixed(2)} | ${((cpu.user + cpu.system) / 1000).toFixed(0)} | ${os.loadavg()[0].toFixed(1)}`;
}

console.log(`law-thread-wake ${new Date().toISOString()}, ${os.cpus().length} CPUs, ${secs} s per row, ${rounds} rounds`);
console.log('| round | busy thread (nice +5) | wake-ups | late p50 / p99 / max ms | process CPU ms | load (1 min) |');
console.log('|---|---|---|---|---|---|');
for (let r = 1; r <= rounds; r++) {
  for (const c of ['none', 'any', 'spare-one']) console.log(`| ${r} | ${c === 'none' ? 'none' : `SEJONG_LAW_CPUS=${c}`} | ${await row(c)} |`);
}
