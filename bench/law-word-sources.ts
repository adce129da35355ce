// Where a plain question's own words stand in the corpus (issue #15, learned vocabulary): for each studied plain
// question, whether its content words (query.ts's analysis, before any vocabulary mapping) are written in the wanted
// 법률's own articles, only in its family's 시행령/시행규칙 (DocRec.family), or in some 법률's 정의 article (the
// defined term and its law). It bounds what each corpus-learned mechanism can bring before one is built: a word found
// nowhere near the wanted law can only be bridged by a general vocabulary or by co-occurrence elsewhere.
// Presence is a substring test (a two-syllable word can sit inside another word: 조개 in 구조개선); read it as an
// upper bound. The blind set is refused.
// With --words a,b,c: every article of the store is read once and each word's articles are counted per instrument
// (where in the corpus an everyday word is written at all: its 법률, decrees, rules or 고시).
// Usage: npx tsx bench/law-word-sources.ts --data DIR [--sets holdout6,holdout7] [--words 막걸리,조현병]
import os from 'node:os';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { nameKey } from '../src/law/normalize.js';
import { analyseQuery } from '../src/law/search/query.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { BLIND, isBlind, loadQuestions, type Question } from './law-quality/evaluate.js';
import type { DocRec } from '../src/law/parse.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const sets = (arg('--sets') ?? 'holdout6,holdout7').split(',');
if (BLIND !== null && sets.includes(BLIND)) { console.error(`law-word-sources: ${BLIND} is the blind set`); process.exit(2); }
const store = new Store(arg('--data')!);
const law = openLaw(store);
law.reload();
const wordList = arg('--words')?.split(',').filter(Boolean);
if (wordList) {
  const t1 = performance.now();
  const per = new Map(wordList.map((w) => [w, new Map<string, number>()]));
  let n = 0;
  for (const { key, value } of law.arts.getRange({})) {
    n++;
    for (const w of wordList) if (value.content?.includes(w)) { const d = law.byId.get(key[0]); const k = d ? `${d.name} [${d.category}]` : key[0]; const m = per.get(w)!; m.set(k, (m.get(k) ?? 0) + 1); }
  }
  console.log(`${n} articles read in ${Math.round(performance.now() - t1)} ms (load ${os.loadavg()[0]!.toFixed(1)})`);
  for (const w of wordList) {
    const m = [...per.get(w)!].sort((a, b) => b[1] - a[1]);
    console.log(`  ${w}: ${m.reduce((a, [, k]) => a + k, 0)} articles in ${m.length} instruments; ${m.slice(0, 5).map(([d, k]) => `${d} ${k}`).join(' | ')}`);
  }
  await store.close();
  process.exit(0);
}
const inSets = (q: Question) => sets.some((s) => (s === 'tuned' ? Object.keys(q).every((k) => !/^holdout/.test(k)) : (q as unknown as Record<string, unknown>)[s] === true));
const qs = loadQuestions().filter((q) => q.category === 'plain' && !isBlind(q) && inSets(q));

/** the text of every article of a document */
const textOf = (d: DocRec) => { const out: string[] = []; for (const { value } of law.arts.getRange({ start: [d.id, 0], end: [d.id, 1e9] })) out.push(`${value.title ?? ''} ${value.content ?? ''}`); return out.join('\n'); };
// the 정의 articles of the 법률 (title holds 정의), read once
const t0 = performance.now();
const defs: Array<{ doc: DocRec; text: string }> = [];
for (const d of law.catalog) {
  if (d.category !== 'law' || d.repealed) continue;
  law.tocOf(d.id).forEach((e, s) => { if (/정의/.test(e.title)) { const a = law.arts.get([d.id, s]); if (a) defs.push({ doc: d, text: a.content }); } });
}
console.log(`${defs.length} 정의 articles of 법률 read in ${Math.round(performance.now() - t0)} ms; ${qs.length} plain questions of ${sets.join(', ')}; load ${os.loadavg()[0]!.toFixed(1)}`);

const total = { own: 0, familyOnly: 0, defOwn: 0, defAny: 0, none: 0, words: 0, wordsOwn: 0, wordsFamilyOnly: 0, wordsDefOwn: 0, wordsNowhereNear: 0 };
for (const q of qs) {
  const want = law.byName.get(nameKey(q.law)) ?? [];
  const main = want[0];
  if (!main) { console.log(`  ${q.id}: ${q.law} not in the store`); continue; }
  const family = main.family ? law.catalog.filter((d) => d.family === main.family && d !== main) : [];
  const own = textOf(main), fam = family.map(textOf).join('\n');
  const aq = analyseQuery(q.query, new Map());
  const words = [...new Set(aq.core.split(/\s+/).filter((w) => w.length >= 2))];
  const rows = words.map((w) => {
    const o = own.includes(w), f = !o && fam.includes(w);
    const dOwn = defs.some((x) => x.doc.family === main.family && x.text.includes(w));
    const dAny = defs.filter((x) => x.text.includes(w)).length;
    return { w, o, f, dOwn, dAny };
  });
  total.words += rows.length;
  total.wordsOwn += rows.filter((r) => r.o).length;
  total.wordsFamilyOnly += rows.filter((r) => r.f).length;
  total.wordsDefOwn += rows.filter((r) => r.dOwn).length;
  total.wordsNowhereNear += rows.filter((r) => !r.o && !r.f).length;
  if (rows.some((r) => r.o)) total.own++;
  else if (rows.some((r) => r.f)) total.familyOnly++;
  else total.none++;
  if (rows.some((r) => r.dOwn)) total.defOwn++;
  if (rows.some((r) => r.dAny > 0 && r.dAny <= 3)) total.defAny++;
  const mark = (r: (typeof rows)[number]) => `${r.w}${r.o ? '=law' : r.f ? '=family' : ''}${r.dOwn ? '+def' : ''}${r.dAny ? `(${r.dAny} defs)` : ''}`;
  console.log(`  ${q.id} → ${q.law} ${q.article ?? ''}: ${rows.map(mark).join(' ')}`);
}
console.log(`questions: ${qs.length}; a content word in the wanted 법률's own text ${total.own}, only in its family's decrees/rules ${total.familyOnly}, in neither ${total.none}; a word in the family's 정의 article ${total.defOwn}; a word in 1–3 정의 articles of any 법률 ${total.defAny}`);
console.log(`words: ${total.words}; in the wanted 법률 ${total.wordsOwn}, only in its family ${total.wordsFamilyOnly}, in neither ${total.wordsNowhereNear}; in the family's 정의 article ${total.wordsDefOwn}`);
console.log(`(vocabulary switches as in force: everyday ${SEARCH_SWITCHES.everyday}; the words are the question's own, before mapping)`);
await store.close();
