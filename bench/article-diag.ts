// Article choice diagnostics (issue 15): for plain questions of the studied sets whose law is first but whose article
// is not, the article chosen and the one wanted, with their titles and seqs of the text evidence.
// Usage: npx tsx bench/article-diag.ts --data DIR [--cat plain]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { analyseQuery } from '../src/law/search/query.js';
import { isBlind, loadQuestions, runQuestion } from './law-quality/evaluate.js';
import { nameKey } from '../src/law/normalize.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const law = openLaw(new Store(arg('--data')!));
law.reload();
const cat = arg('--cat') ?? 'plain';
for (const q of loadQuestions()) {
  const r = q as unknown as Record<string, unknown>;
  // the blind set is never studied: its questions are skipped here
  if (isBlind(q) || q.category !== cat || !q.article) continue;
  const o = runQuestion(law, q);
  if (o.rank !== 1 || o.articleOk) continue;
  const hits = law.search.query(q.query, { categories: null, ministry: null }, null);
  const h = hits.find((x) => nameKey(x.doc.name) === nameKey(q.law))!;
  const toc = law.tocOf(h.doc.id);
  const want = law.articleSeq(h.doc.id, q.article);
  const aq = analyseQuery(q.query, law.search['abbr' as never]);
  const set = Object.keys(r).find((k) => /^holdout\d?$/.test(k) && r[k]) ?? 'tuned';
  console.log(`[${set}] ${q.query}\n  core=${aq.core} | mapped=${aq.mapped}\n  law=${q.law} chosen=${h.seqs.map((s) => `${toc[s]?.no} ${toc[s]?.title}`).join(' ; ')}\n  want=${q.article} ${want !== undefined ? toc[want]?.title : '?'} (in text seqs: ${want !== undefined && h.seqs.includes(want)})`);
}
process.exit(0);
