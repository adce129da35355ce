// Law search compute cost on the full corpus: law.search.query (no result cache) over every question of
// bench/law-quality, after one warm-up pass (posting and title caches filled), R passes. Prints CPU time per query
// (process.cpuUsage: µs, every thread of the process) p50/p90/p99/max, the per-query minimum wall time of the R passes,
// the load average and the RSS.
// Usage: npm run bench -- law-speed --data DIR [--runs R] [--label TEXT]
// Profile: nice -n 19 node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/law-speed.ts --data DIR
import os from 'node:os';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { loadQuestions } from './law-quality/evaluate.js';
import { searchCall } from './law-quality/calls.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const dataDir = arg('--data');
if (!dataDir) { console.error('Usage: law-speed --data DIR [--runs R] [--label TEXT]'); process.exit(2); }
const runs = Number(arg('--runs') ?? 5), label = arg('--label') ?? '';

const store = new Store(dataDir);
const law = openLaw(store);
const rss0 = process.memoryUsage().rss;
law.reload();
// the calls searchLaws makes (article reference out of the text, type and ministry as filters)
const calls = loadQuestions().map(searchCall);
for (const c of calls) law.search.query(c.text, c.filters, c.ref); // warm-up
const cpu: number[] = [];
const minWall = new Float64Array(calls.length).fill(Infinity);
const load0 = os.loadavg()[0]!;
const t0 = performance.now();
for (let r = 0; r < runs; r++) calls.forEach((c, i) => {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  law.search.query(c.text, c.filters, c.ref);
  const w = performance.now() - w0;
  const u = process.cpuUsage(c0);
  cpu.push((u.user + u.system) / 1000);
  if (w < minWall[i]!) minWall[i] = w;
});
const secs = (performance.now() - t0) / 1000;
const pct = (xs: ArrayLike<number>) => { const a = Float64Array.from(xs).sort(); return (x: number) => a[Math.min(a.length - 1, Math.floor(x * a.length))]!; };
const pc = pct(cpu), pm = pct(minWall);
const f = (x: number) => x.toFixed(3);
const mem = process.memoryUsage();
console.log(`law-speed ${label} ${runs} × ${calls.length} queries in ${secs.toFixed(1)} s, load ${load0.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}`);
console.log(`  CPU per query ms: p50 ${f(pc(0.5))} p90 ${f(pc(0.9))} p99 ${f(pc(0.99))} max ${f(pc(1))}; mean ${f(cpu.reduce((a, b) => a + b, 0) / cpu.length)}`);
console.log(`  minimum wall of ${runs} per query ms: p50 ${f(pm(0.5))} p90 ${f(pm(0.9))} p99 ${f(pm(0.99))} max ${f(pm(1))}`);
console.log(`  RSS ${Math.round(mem.rss / 1048576)} MB (${Math.round(rss0 / 1048576)} MB before reload), heap used ${Math.round(mem.heapUsed / 1048576)} MB`);
await store.close();
