// Rule-question reach diagnostics (issue 15, admrul25): for the admrul questions of the studied sets whose rule is not
// first, the wanted rule's place and the rule-coverage evidence (rule-coverage.ts) of its best articles, of its best
// article over all its articles, and of every hit above it. The blind set is never read; the validation set is left out.
// Usage: npx tsx bench/rule-reach-diag.ts --data DIR [--sets holdout10,holdout11]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { analyseQuery } from '../src/law/search/query.js';
import { coverageOf, coverageWords } from '../src/law/search/rule-coverage.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { VALIDATION, isBlind, loadQuestions, runQuestion } from './law-quality/evaluate.js';
import { nameKey } from '../src/law/normalize.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const law = openLaw(new Store(arg('--data')!));
law.reload();
const sets = arg('--sets')?.split(',');
const r = (q: object) => q as unknown as Record<string, unknown>;
const s = law.search as unknown as { N: number; df(t: number): number; bodies: { of(id: string, s: number): string } };
for (const q of loadQuestions()) {
  const set = Object.keys(r(q)).find((k) => /^holdout\d*$/.test(k) && r(q)[k]) ?? 'tuned';
  if (isBlind(q) || set === VALIDATION || q.category !== 'admrul' || (sets && !sets.includes(set))) continue;
  const o = runQuestion(law, q);
  if (o.rank === 1) continue;
  const aq = analyseQuery(q.query, law.search['abbr' as never]);
  const words = coverageWords(aq.core, s.N, (t) => s.df(t), aq.mappedGroups, aq.mappedFrom);
  const hits = law.search.query(q.query, { categories: null, ministry: null }, null);
  const want = hits.findIndex((h) => nameKey(h.doc.name) === nameKey(q.law));
  const cov = (id: string, seqs: number[]) => seqs.map((x) => coverageOf(s.bodies.of(id, x), words)).reduce((a, b) => (b.share > a.share ? b : a), { share: 0, found: 0 });
  console.log(`\n[${q.id}] rank ${o.rank} ${q.query}\n  want ${q.law} ${q.article ?? ''} | words ${words.map((w) => `${w.w}:${w.idf.toFixed(1)}${w.alt ? '(' + w.alt.join('/') + ')' : ''}`).join(' ')}`);
  const n = want >= 0 ? Math.min(want, 12) : 5;
  for (let i = 0; i < n; i++) { const h = hits[i]!; const c = cov(h.doc.id, h.seqs.slice(0, SEARCH_SWITCHES.ruleCoverageArticles)); console.log(`   ${i + 1}. ${h.score.toFixed(1)} ${h.doc.category} ${h.doc.name} cov ${c.share.toFixed(2)}/${c.found}`); }
  if (want < 0) { console.log('   → not among the hits'); continue; }
  const h = hits[want]!, toc = law.tocOf(h.doc.id);
  const c3 = cov(h.doc.id, h.seqs.slice(0, SEARCH_SWITCHES.ruleCoverageArticles));
  let bestAll = { share: 0, found: 0 }, at = -1;
  for (let x = 0; x < toc.length; x++) { const c = coverageOf(s.bodies.of(h.doc.id, x), words); if (c.share > bestAll.share) { bestAll = c; at = x; } }
  console.log(`   → ${want + 1}. ${h.score.toFixed(1)} best3 ${c3.share.toFixed(2)}/${c3.found} (${h.seqs.slice(0, 3).map((x) => toc[x]?.no).join(',')}) all-articles ${bestAll.share.toFixed(2)}/${bestAll.found} at ${toc[at]?.no} ${toc[at]?.title ?? ''} (of ${toc.length}, matched ${h.seqs.length})`);
}
process.exit(0);
