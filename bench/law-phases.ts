// Where law.search.query spends its CPU, per question: each phase (name matching, posting reads, term weighting, BM25,
// the text-match loop, ranking, snippets) timed by process.cpuUsage around the index's own methods, the minimum of R
// passes per question after a warm-up; prints the share of each phase and the N most costly questions.
// Usage: nice -n 19 npx tsx bench/law-phases.ts DATA_DIR [R] [N]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { loadQuestions } from './law-quality/evaluate.js';
import { searchCall } from './law-quality/calls.js';
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const store = new Store(process.argv[2]!);
const law = openLaw(store);
law.reload();
const s = law.search as any;
const phases = ['textMatches', 'rank', 'attachMatches'];
const acc: Record<string, number> = {};
const wrap = (obj: any, m: string, label: string) => { const o = obj[m].bind(obj); obj[m] = (...a: unknown[]) => { const t = cpuNow(); try { return o(...a); } finally { acc[label] = (acc[label] ?? 0) + cpuNow() - t; } }; };
for (const p of phases) wrap(s, p, p);
wrap(s.bm25, 'run', 'bm25');
wrap(s.nameIndex, 'match', 'names');
wrap(s, 'posting', 'posting');
// term weighting (search/query-terms.ts) reads each term's df
wrap(s, 'df', 'df');
const calls = loadQuestions().map(searchCall);
const qs = loadQuestions();
for (const c of calls) s.query(c.text, c.filters, c.ref);
const R = Number(process.argv[3] ?? 3);
const best: Array<{ i: number; ms: number; ph: Record<string, number> }> = calls.map((_, i) => ({ i, ms: Infinity, ph: {} }));
const tot: Record<string, number> = {}; let total = 0;
for (let r = 0; r < R; r++) calls.forEach((c, i) => {
  for (const k of Object.keys(acc)) acc[k] = 0;
  const t = cpuNow(); s.query(c.text, c.filters, c.ref); const ms = cpuNow() - t;
  total += ms; for (const k of Object.keys(acc)) tot[k] = (tot[k] ?? 0) + acc[k]!;
  if (ms < best[i]!.ms) best[i] = { i, ms, ph: { ...acc } };
});
console.log('share of total', Object.fromEntries(Object.entries(tot).map(([k, v]) => [k, (v / total * 100).toFixed(1) + '%'])), 'mean ms', (total / R / calls.length).toFixed(3));
best.sort((a, b) => b.ms - a.ms);
const f = (x: number) => x.toFixed(2);
for (const b of best.slice(0, Number(process.argv[4] ?? 25))) console.log(f(b.ms), JSON.stringify(qs[b.i]!.query), qs[b.i]!.type ?? '', Object.entries(b.ph).map(([k, v]) => `${k} ${f(v)}`).join(', '));
const sorted = best.map((b) => b.ms).sort((a, b) => a - b);
console.log('min-of-R p50', f(sorted[Math.floor(sorted.length / 2)]!), 'p90', f(sorted[Math.floor(sorted.length * 0.9)]!), 'p99', f(sorted[Math.floor(sorted.length * 0.99)]!));
