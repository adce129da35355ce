// Article-miss diagnostics (issue 15, article25): for every question of the studied sets whose instrument is first but
// whose first article is not the expected one — the article chosen, where the expected one stands inside the
// instrument (by the share of the question's words its title and its text hold), and the kind of miss: a purpose or
// definitions article first, a penalty article first for a question on the duty (or the reverse), the chosen article
// citing the expected one (제N조), the expected one's words only in its text (항/호), none of its words anywhere.
// The validation set and the blind set are refused: their questions are never printed.
// Usage: npx tsx bench/article-miss-diag.ts --data DIR [--sets tuned,holdout7] [--category plain] [--summary]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { analyseQuery } from '../src/law/search/query.js';
import { bodyText } from '../src/law/search/titles.js';
import { BLIND, HELD_OUT, VALIDATION, isBlind, loadQuestions, runQuestion, type Question } from './law-quality/evaluate.js';
import { nameKey } from '../src/law/normalize.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const REFUSED = new Set<string>([VALIDATION, ...(BLIND ? [BLIND] : [])]);
const setOf = (q: Question) => HELD_OUT.find((k) => q[k]) ?? 'tuned';
const sets = arg('--sets')?.split(',');
if (sets?.some((s) => REFUSED.has(s))) { console.error(`${VALIDATION} (validation) and ${BLIND} (blind) are not studied here`); process.exit(2); }
const law = openLaw(new Store(arg('--data')!));
law.reload();

/** an article's kind read from its title (the kinds the brief names) */
const kindOf = (title: string): string => /목적/.test(title) ? 'purpose' : /^정의|정의$/.test(title) ? 'definition'
  : /벌칙|과태료|양벌|벌금/.test(title) ? 'penalty' : /준용|위임|위탁|의제|경과/.test(title) ? 'pointer' : 'rule';
/** "76-2" → 제76조의2 (how a statute's text cites an article) */
const citation = (no: string) => { const [n, ...sub] = no.split('-'); return `제${n}조${sub.map((x) => `의${x}`).join('')}`; };
/** share of the words held by a text (name key) */
const share = (text: string, words: string[]) => words.length ? words.filter((w) => text.includes(w)).length / words.length : 0;

const tally = new Map<string, number>();
let n = 0;
for (const q of loadQuestions()) {
  const st = setOf(q);
  if (isBlind(q) || REFUSED.has(st) || !q.article) continue;
  if (sets && !sets.includes(st)) continue;
  if (arg('--category') && q.category !== arg('--category')) continue;
  const o = runQuestion(law, q);
  if (o.rank !== 1 || o.articleOk) continue;
  n++;
  const aq = analyseQuery(q.query, law.search['abbr' as never]);
  const hits = law.search.query(q.query, { categories: null, ministry: null }, null);
  const h = hits.find((x) => nameKey(x.doc.name) === nameKey(q.law));
  if (!h) continue;
  const toc = law.tocOf(h.doc.id);
  const want = law.articleSeq(h.doc.id, q.article);
  const chosen = h.ref ?? h.seqs[0];
  const own = nameKey(h.doc.name);
  const words = [...new Set(`${aq.core} ${aq.mapped}`.split(/\s+/).map(nameKey).filter((w) => w.length >= 2 && !own.includes(w)))];
  const body = (s: number) => bodyText(nameKey(law.arts.get([h.doc.id, s])?.content ?? ''));
  // every article of the instrument by the share of the words its title holds, then its text's share
  const scored = toc.map((t, s) => ({ s, t: share(nameKey(t.title), words), b: share(body(s), words) }));
  const order = scored.slice().sort((a, b) => b.t - a.t || b.b - a.b).map((x) => x.s);
  const rankOf = (s: number | undefined) => s === undefined ? '?' : String(order.indexOf(s) + 1);
  const cw = chosen !== undefined ? toc[chosen] : undefined, ww = want !== undefined ? toc[want] : undefined;
  const reasons: string[] = [];
  const ck = cw ? kindOf(cw.title) : '?', wk = ww ? kindOf(ww.title) : '?';
  if (ck !== 'rule' && ck !== wk) reasons.push(`chosen-${ck}`);
  if (wk !== 'rule' && ck !== wk) reasons.push(`wanted-${wk}`);
  if (chosen !== undefined && want !== undefined && (law.arts.get([h.doc.id, chosen])?.content ?? '').includes(citation(q.article))) reasons.push('chosen-cites-wanted');
  if (want !== undefined) {
    const wt = scored[want]!, ct = chosen !== undefined ? scored[chosen]! : null;
    if (wt.t === 0 && wt.b > 0) reasons.push('wanted-words-in-text-only');
    if (wt.t === 0 && wt.b === 0) reasons.push('wanted-holds-no-word');
    if (ct && ct.t > wt.t) reasons.push('chosen-title-more-words');
    if (ct && ct.t === wt.t && ct.b > wt.b) reasons.push('chosen-text-more-words');
    if (h.seqs.includes(want)) reasons.push('wanted-in-text-best3');
    if (aq.cues.length && ww && aq.cues.some((c) => ww.title.includes(c))) reasons.push('wanted-holds-cue');
    if (aq.cues.length && cw && aq.cues.some((c) => cw.title.includes(c))) reasons.push('chosen-holds-cue');
  }
  for (const r of reasons) tally.set(r, (tally.get(r) ?? 0) + 1);
  if (process.argv.includes('--summary')) continue;
  const line = (s: number | undefined) => s === undefined ? '?' : `${toc[s]?.no} ${toc[s]?.title} [title ${scored[s]!.t.toFixed(2)} text ${scored[s]!.b.toFixed(2)} rank ${rankOf(s)}]`;
  console.log(`\n[${st} ${q.id} ${q.category}] ${q.query}\n  words=${words.join(',')} | cues=${aq.cues.join(',')}\n  ${q.law}\n  chosen ${line(chosen)}\n  wanted ${line(want)}\n  text best3 ${h.seqs.map((s) => toc[s]?.no).join(',')} | ${reasons.join(' ')}`);
}
console.log(`\n${n} questions with the instrument first and another article; reasons:`);
for (const [r, c] of [...tally].sort((a, b) => b[1] - a[1])) console.log(`  ${r}: ${c}`);
process.exit(0);
