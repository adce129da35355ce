// Per-question A/B of law-search switches in one process (issue 15): which studied questions change their rank or
// their first article between two settings, the per-set counts (hits@1 / hits@5 / right article first), and with
// --cpu the search compute of each setting, the settings run in turn on every question (same load for both).
// The blind set is left out. Usage: npx tsx bench/law-switch-ab.ts --data DIR "titleCue=0" "" [--cpu]
import os from 'node:os';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { VALIDATION, isBlind, loadQuestions, runQuestion, type Outcome, type Question } from './law-quality/evaluate.js';

const argv = process.argv.slice(2);
const di = argv.indexOf('--data');
const law = openLaw(new Store(argv[di + 1]!));
law.reload();
// the validation set (--validate, default VALIDATION): scored in the per-set lines, its questions never printed
const vi = argv.indexOf('--validate');
const validate = vi >= 0 ? argv[vi + 1]! : VALIDATION;
const [cfgA = '', cfgB = ''] = argv.filter((a, i) => i !== di && i !== di + 1 && i !== vi && i !== vi + 1 && a !== '--cpu');
const qs = loadQuestions().filter((q) => !isBlind(q));
const base = { ...SEARCH_SWITCHES };
const apply = (cfg: string) => {
  Object.assign(SEARCH_SWITCHES, base);
  for (const kv of cfg.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (!(k! in SEARCH_SWITCHES)) throw new Error(`unknown switch ${k}`);
    (SEARCH_SWITCHES as Record<string, number>)[k!] = Number(v);
  }
};
const run = (cfg: string) => { apply(cfg); return qs.map((q) => runQuestion(law, q)); };
const A = run(cfgA), B = run(cfgB);
const setOf = (q: Question) => Object.keys(q).find((k) => /^holdout\d*$/.test(k) && (q as unknown as Record<string, unknown>)[k]) ?? 'tuned';
const right = (o: Outcome) => o.rank === 1 && o.articleOk !== false;
let up = 0, down = 0;
qs.forEach((q, i) => {
  const a = A[i]!, b = B[i]!;
  if (a.rank === b.rank && right(a) === right(b)) return;
  if (setOf(q) === validate) return;
  if (right(a) !== right(b)) { if (right(b)) up++; else down++; }
  console.log(`${right(b) && !right(a) ? '+' : right(a) && !right(b) ? '-' : '~'} [${setOf(q)}] ${q.id} ${a.rank}→${b.rank} ${q.query} | want ${q.law} ${q.article ?? ''} | A ${a.top[0]} | B ${b.top[0]}`);
});
for (const cat of ['all', 'plain', 'admrul']) for (const st of [...new Set(qs.map(setOf))]) {
  const ix = qs.map((_, i) => i).filter((i) => setOf(qs[i]!) === st && (cat === 'all' || qs[i]!.category === cat));
  const f = (O: Outcome[]) => `${ix.filter((i) => O[i]!.rank === 1).length}/${ix.filter((i) => O[i]!.rank >= 1 && O[i]!.rank <= 5).length}/${ix.filter((i) => right(O[i]!)).length}`;
  console.log(`  ${st} ${cat} n=${ix.length}: A ${f(A)}  B ${f(B)}  (hits@1 / hits@5 / right article first)`);
}
for (const cat of ['all', 'plain', 'admrul']) {
  const ix = qs.map((_, i) => i).filter((i) => setOf(qs[i]!) !== validate && (cat === 'all' || qs[i]!.category === cat));
  const f = (O: Outcome[]) => `${ix.filter((i) => O[i]!.rank === 1).length}/${ix.filter((i) => O[i]!.rank >= 1 && O[i]!.rank <= 5).length}/${ix.filter((i) => right(O[i]!)).length}`;
  console.log(`  studied (all but ${validate}) ${cat} n=${ix.length}: A ${f(A)}  B ${f(B)}`);
}
console.log(`B "${cfgB}" vs A "${cfgA}": right article first +${up} −${down} (studied sets; ${validate} not printed)`);
if (argv.includes('--cpu')) {
  // the settings in turn on every question, 1 warm-up and 3 counted rounds; CPU time of the search alone
  const cpu: number[][] = [[], []];
  const l0 = os.loadavg()[0]!;
  for (let round = 0; round < 4; round++) for (const q of qs) {
    const text = q.query.replace(/제?\s*\d+\s*조(?:\s*의\s*\d+)?/, ' ').trim() || q.query;
    [cfgA, cfgB].forEach((c, k) => {
      apply(c);
      const c0 = process.cpuUsage();
      law.search.query(text, { categories: null, ministry: null }, null);
      const u = process.cpuUsage(c0);
      if (round > 0) cpu[k]!.push((u.user + u.system) / 1000);
    });
  }
  const pct = (xs: number[], p: number) => xs.slice().sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  [cfgA, cfgB].forEach((c, k) => console.log(`"${c}": CPU p50 ${pct(cpu[k]!, 0.5).toFixed(3)} ms, p90 ${pct(cpu[k]!, 0.9).toFixed(3)}, p99 ${pct(cpu[k]!, 0.99).toFixed(3)} ms (n ${cpu[k]!.length})`));
  console.log(`load ${l0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`);
}
process.exit(0);
