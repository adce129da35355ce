// Plain-question miss diagnostics (issue 15, plain21): for the plain questions of the studied sets whose wanted law is
// not first, the analysed query (core, mapped terms), each scored bigram's df, and the first five hits with their
// score, kind and best article beside the wanted law's place and score. The blind set is never read.
// Usage: npx tsx bench/plain-miss-diag.ts --data DIR [--sets holdout7,holdout8] [--category admrul] [--all]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { analyseQuery } from '../src/law/search/query.js';
import { VALIDATION, isBlind, loadQuestions, runQuestion } from './law-quality/evaluate.js';
import { nameKey } from '../src/law/normalize.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const law = openLaw(new Store(arg('--data')!));
law.reload();
const sets = (arg('--sets') ?? 'holdout7,holdout8').split(',');
// the validation set is scored by its aggregate lines only (law-switch-ab): its questions are not printed here
if (sets.includes(VALIDATION)) { console.error(`${VALIDATION} is the validation set: not studied here`); process.exit(2); }
const r = (q: object) => q as unknown as Record<string, unknown>;
for (const q of loadQuestions()) {
  if (isBlind(q) || q.category !== (arg('--category') ?? 'plain') || !sets.some((s) => s === 'tuned' ? !Object.keys(r(q)).some((k) => /^holdout\d*$/.test(k)) : r(q)[s])) continue;
  const o = runQuestion(law, q);
  if (o.rank === 1 && !process.argv.includes('--all')) continue;
  const aq = analyseQuery(q.query, law.search['abbr' as never]);
  const hits = law.search.query(q.query, { categories: null, ministry: null }, null);
  const want = hits.findIndex((h) => nameKey(h.doc.name) === nameKey(q.law));
  const toc = (id: string, s: number | undefined) => s === undefined ? '' : law.tocOf(id)[s]?.no + ' ' + (law.tocOf(id)[s]?.title ?? '');
  console.log(`\n[${q.id}] rank ${o.rank} ${q.query}\n  want ${q.law} ${q.article ?? ''}\n  core=${aq.core} | mapped=${aq.mapped} | words=${aq.words.join(',')}`);
  hits.slice(0, 5).forEach((h, i) => console.log(`   ${i + 1}. ${h.score.toFixed(2)} ${h.doc.category} ${h.match} ${h.doc.name} | ${toc(h.doc.id, h.seqs[0])}`));
  if (want >= 5) { const h = hits[want]!; console.log(`   → ${want + 1}. ${h.score.toFixed(2)} ${h.doc.category} ${h.match} ${h.doc.name} | ${toc(h.doc.id, h.seqs[0])}`); }
  else if (want < 0) console.log('   → wanted law not among the hits');
}
process.exit(0);
