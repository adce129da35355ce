// A/B of the law search compute cost in one process: law.search.query (no result cache) of another checkout of the
// project (--base, e.g. `git archive <commit> | tar -x -C DIR` with node_modules linked) and of this tree, over every
// question of bench/law-quality, interleaved query by query (the order alternating per round) after one warm-up
// pass each; CPU per query from process.cpuUsage (µs, every thread of the process), and each question's minimum over
// the rounds. --base-data DIR: the base reads another data dir (e.g. the same corpus in another store layout).
// --slowest N: the N questions slowest on this tree (per-query minimum), with the base's minimum beside.
// --set k=v[,k=v]: switches of this tree's search (src/law/search/switches.ts) for the run (what one part costs).
// Usage: npm run bench -- law-speed-ab --data DIR --base DIR [--base-data DIR] [--rounds R] [--slowest N] [--set k=v]
import os from 'node:os';
import path from 'node:path';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { loadQuestions } from './law-quality/evaluate.js';
import { searchCall } from './law-quality/calls.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const dir = arg('--data'), baseDir = arg('--base'), rounds = Number(arg('--rounds') ?? 4);
if (!dir || !baseDir) { console.error('Usage: law-speed-ab --data DIR --base DIR [--rounds R]'); process.exit(2); }
for (const kv of arg('--set')?.split(',') ?? []) {
  const [k, v] = kv.split('=');
  if (!(k! in SEARCH_SWITCHES)) { console.error(`law-speed-ab: no switch ${k}`); process.exit(2); }
  (SEARCH_SWITCHES as Record<string, number>)[k!] = Number(v);
}
const baseOpen = (await import(path.resolve(baseDir, 'src/law/open.ts'))).openLaw as unknown as typeof openLaw;
const BaseStore = (await import(path.resolve(baseDir, 'src/store/env.ts'))).Store as unknown as typeof Store;
const sNew = new Store(dir), sBase = new BaseStore(arg('--base-data') ?? dir);
const lNew = openLaw(sNew), lBase = baseOpen(sBase as unknown as Store);
lNew.reload(); lBase.reload();
const calls = loadQuestions().map(searchCall);
const cpu: Record<string, number[]> = { base: [], new: [] };
const laws = { base: lBase, new: lNew };
for (const l of Object.values(laws)) for (const c of calls) l.search.query(c.text, c.filters, c.ref);
const load0 = os.loadavg()[0]!;
for (let r = 0; r < rounds; r++) for (const c of calls) for (const k of (r % 2 ? ['new', 'base'] : ['base', 'new']) as Array<'base' | 'new'>) {
  const c0 = process.cpuUsage();
  laws[k].search.query(c.text, c.filters, c.ref);
  const u = process.cpuUsage(c0);
  cpu[k]!.push((u.user + u.system) / 1000);
}
const pct = (xs: number[]) => { const a = Float64Array.from(xs).sort(); return (x: number) => a[Math.min(a.length - 1, Math.floor(x * a.length))]!.toFixed(3); };
console.log(`A/B (base ${baseDir}${arg('--set') ? `; this tree with ${arg('--set')}` : ''}) ${rounds} × ${calls.length} queries each, interleaved per query, load ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`);
for (const k of ['base', 'new']) { const p = pct(cpu[k]!); const m = cpu[k]!.reduce((a, b) => a + b, 0) / cpu[k]!.length; console.log(`  ${k.padEnd(4)} CPU per query ms: p50 ${p(0.5)} p90 ${p(0.9)} p99 ${p(0.99)} max ${p(1)} mean ${m.toFixed(3)}`); }
// the per-query minimum over the rounds (the run in order rounds × questions): the compute cost with less of the
// machine's scheduling noise
for (const k of ['base', 'new']) {
  const min = calls.map((_, i) => Math.min(...Array.from({ length: rounds }, (_, r) => cpu[k]![r * calls.length + i]!)));
  const p = pct(min);
  console.log(`  ${k.padEnd(4)} per-query minimum of ${rounds} ms: p50 ${p(0.5)} p90 ${p(0.9)} p99 ${p(0.99)} max ${p(1)}`);
}
const slowest = Number(arg('--slowest') ?? 0);
if (slowest > 0) {
  const questions = loadQuestions();
  const minOf = (k: 'base' | 'new', i: number) => Math.min(...Array.from({ length: rounds }, (_, r) => cpu[k]![r * calls.length + i]!));
  const order = calls.map((_, i) => i).sort((a, b) => minOf('new', b) - minOf('new', a));
  console.log(`  slowest ${slowest} on this tree (per-query minimum ms: new / base, question):`);
  for (const i of order.slice(0, slowest)) console.log(`    ${minOf('new', i).toFixed(2)} / ${minOf('base', i).toFixed(2)}  ${questions[i]!.id} ${calls[i]!.text}`);
}
await sNew.close(); await sBase.close();
