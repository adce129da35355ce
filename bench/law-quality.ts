// Law search quality on the full corpus: hits@1, hits@5, MRR, article@1 and empty answers over
// bench/law-quality/questions.json (tuned and the two held-out sets, per category), plus the search compute cost.
// Usage: npm run bench -- law-quality [--data DIR (an imported store; default: import the full corpus into a temp dir)] [--misses]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { Importer } from '../src/law/import.js';
import { shared } from '../test/helpers/shared.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { BLIND, HELD_OUT, evaluate, formatScore, isTuned, loadQuestions, type Question } from './law-quality/evaluate.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
// the blind set's misses are refused before anything is imported or run
if (BLIND !== null && process.argv.includes('--misses') && arg('--misses') === BLIND) { console.error(`law-quality: ${BLIND} is the blind set; its misses are not printed`); process.exit(2); }
let dataDir = arg('--data');
if (!dataDir) {
  const full = [shared('law-corpus', 'full', 'statutes.tar.gz'), shared('law-corpus', 'full', 'admrul.tar.gz')];
  if (!full.every((f) => fs.existsSync(f))) { console.error('law-quality: ../shared/law-corpus/full is missing'); process.exit(2); }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-lawq-'));
  const created = dataDir;
  process.once('exit', () => fs.rmSync(created, { recursive: true, force: true }));
  const st0 = new Store(dataDir);
  const l0 = openLaw(st0);
  l0.reload();
  const r = await new Importer(l0).run(full);
  console.log(`imported the full corpus in ${(r.ms / 1000).toFixed(1)} s (${r.statutes} statutes, ${r.admin_rules} rules, ${r.articles} articles)`);
  await st0.close();
}
// measurement switches of the search (e.g. --set everyday=0): each part measured on and off
for (let i = process.argv.indexOf('--set'); i >= 0; i = process.argv.indexOf('--set', i + 1)) {
  const [k, v] = process.argv[i + 1]!.split('=');
  if (!(k! in SEARCH_SWITCHES)) { console.error(`law-quality: unknown switch ${k} (${Object.keys(SEARCH_SWITCHES).join(', ')})`); process.exit(2); }
  (SEARCH_SWITCHES as Record<string, number | boolean>)[k!] = v === 'true' ? true : v === 'false' ? false : Number(v);
}
const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
const qs = loadQuestions();
evaluate(law, qs); // warm-up (posting cache, toc cache)
const r = evaluate(law, qs);
console.log(formatScore('all', r.all));
console.log(formatScore('tuned', r.tuned));
for (const k of HELD_OUT) console.log(formatScore(k, r[k]));
for (const [c, s] of Object.entries(r.byCategory)) console.log(formatScore(c, s));
for (const k of HELD_OUT.slice(1)) for (const [c, s] of Object.entries(r.bySet[k])) console.log(formatScore(`h${k.slice(7)} ${c}`, s));
// compute cost of the ranking itself (law.search.query, no cache), over the question set: wall and CPU time per query
// (process.cpuUsage, µs), and the per-query minimum of the three runs (the compute cost without scheduling noise)
const times: number[] = [], cpu: number[] = [];
const minOf = new Float64Array(qs.length).fill(Infinity);
const load0 = os.loadavg()[0]!;
for (let k = 0; k < 3; k++) qs.forEach((q, i) => {
  const text = q.query.replace(/제?\s*\d+\s*조(?:\s*의\s*\d+)?/, ' ').trim() || q.query;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  law.search.query(text, { categories: null, ministry: null }, null);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  times.push(ms);
  cpu.push((c.user + c.system) / 1000);
  if (ms < minOf[i]!) minOf[i] = ms;
});
const pct = (xs: ArrayLike<number>) => { const a = Float64Array.from(xs).sort(); return (x: number) => a[Math.min(a.length - 1, Math.floor(x * a.length))]!; };
const pw = pct(times), pc = pct(cpu), pm = pct(minOf);
console.log(`search compute over ${times.length} queries (load ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}): wall p50 ${pw(0.5).toFixed(3)} ms, p99 ${pw(0.99).toFixed(3)} ms, max ${pw(1).toFixed(2)} ms; CPU p50 ${pc(0.5).toFixed(3)} ms, p99 ${pc(0.99).toFixed(3)} ms; per-query minimum of 3 p50 ${pm(0.5).toFixed(3)} ms, p99 ${pm(0.99).toFixed(3)} ms; RSS ${Math.round(process.memoryUsage().rss / 1048576)} MB`);
// misses of the tuned questions only (the held-out sets are scored, never looked at while tuning); `--misses holdoutN`
// prints the misses of a held-out set already studied (the blind one is refused)
if (process.argv.includes('--misses')) {
  const set = arg('--misses');
  const pick = set && /^holdout\d?$/.test(set) ? (q: Question) => Boolean((q as unknown as Record<string, unknown>)[set]) : isTuned;
  for (const o of r.outcomes) if (pick(o.q) && (o.rank !== 1 || o.articleOk === false)) console.log(`  ${o.q.id} [${o.rank}] ${o.q.query} → want ${o.q.law} ${o.q.article ?? ''} | got ${o.top.join(' ; ')}`);
}
await store.close();
