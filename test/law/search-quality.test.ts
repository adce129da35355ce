// Floors on the law-search evaluation set (bench/law-quality/questions.json) over the FULL corpus. The corpus is
// imported once into a temp store (about 45 s on a quiet 2-core machine); SEJONG_LAW_QUALITY_DATA may name an
// already imported store instead. Skipped with a message when ../shared/law-corpus/full is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { HELD_OUT, isBlind, evaluate, loadQuestions, type HeldOut, type Question } from '../../bench/law-quality/evaluate.js';
import { shared } from '../helpers/shared.js';
import { analyseQuery } from '../../src/law/search/query.js';
import { nameKey, termIds } from '../../src/law/normalize.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import { weightedTerms } from '../../src/law/search/query-terms.js';
import { selectTerms } from '../../src/law/search/bm25.js';

const FULL = [shared('law-corpus', 'full', 'statutes.tar.gz'), shared('law-corpus', 'full', 'admrul.tar.gz')];
const reuse = process.env.SEJONG_LAW_QUALITY_DATA;

t.test('evaluation set: at least 150 questions in five categories, 40+ held out, each with an instrument', async (t) => {
  const qs = loadQuestions();
  t.ok(qs.length >= 150, `${qs.length} questions`);
  t.ok(qs.filter((q) => q.holdout).length >= 40);
  // the second held-out set (written from the statutes' text before the later tuning), mostly plain questions
  const h2 = qs.filter((q) => q.holdout2);
  t.ok(h2.length >= 40, `${h2.length} holdout2 questions`);
  t.ok(h2.filter((q) => q.category === 'plain').length >= 25);
  t.equal(qs.filter((q) => q.holdout && q.holdout2).length, 0);
  // the third held-out set (written before this round of tuning): everyday plain questions, keywords, rules
  const h3 = qs.filter((q) => q.holdout3);
  t.ok(h3.length >= 40, `${h3.length} holdout3 questions`);
  t.ok(h3.filter((q) => q.category === 'plain').length >= 25);
  t.ok(h3.filter((q) => q.category === 'admrul').length >= 8);
  t.equal(qs.filter((q) => q.holdout3 && (q.holdout || q.holdout2)).length, 0);
  // the fourth held-out set (session 7): everyday questions, abbreviations with article numbers, rules
  const h4 = qs.filter((q) => q.holdout4);
  t.ok(h4.length >= 40, `${h4.length} holdout4 questions`);
  t.ok(h4.filter((q) => q.category === 'plain').length >= 15);
  t.ok(h4.filter((q) => q.category === 'admrul').length >= 8);
  t.equal(qs.filter((q) => q.holdout4 && (q.holdout || q.holdout2 || q.holdout3)).length, 0);
  // the fifth held-out set (session 8): instruments no earlier question asks about
  const h5 = qs.filter((q) => q.holdout5);
  t.ok(h5.length >= 40, `${h5.length} holdout5 questions`);
  t.ok(h5.filter((q) => q.category === 'plain').length >= 15);
  t.ok(h5.filter((q) => q.category === 'admrul').length >= 6);
  t.equal(qs.filter((q) => q.holdout5 && (q.holdout || q.holdout2 || q.holdout3 || q.holdout4)).length, 0);
  const earlier = new Set(qs.filter((q) => !q.holdout5 && !q.holdout6 && !q.holdout7 && !q.holdout8 && !q.holdout9 && !q.holdout10 && !q.holdout11 && !q.holdout12 && !q.holdout13 && !q.holdout14 && !q.holdout15).map((q) => q.law));
  t.equal(h5.filter((q) => earlier.has(q.law)).length, 0, 'holdout5 asks only about instruments no earlier question uses');
  // the sixth held-out set (session 9, blind until session 10): 50 questions over instruments no earlier question uses
  const h6 = qs.filter((q) => q.holdout6);
  t.ok(h6.length >= 50, `${h6.length} holdout6 questions`);
  t.ok(h6.filter((q) => q.category === 'plain').length >= 20);
  t.ok(h6.filter((q) => q.category === 'keyword').length >= 6);
  t.ok(h6.filter((q) => q.category === 'abbrev').length >= 6);
  t.ok(h6.filter((q) => q.category === 'admrul').length >= 6);
  t.ok(h6.filter((q) => q.category === 'filter').length >= 3);
  t.equal(qs.filter((q) => q.holdout6 && (q.holdout || q.holdout2 || q.holdout3 || q.holdout4 || q.holdout5)).length, 0);
  t.ok(h6.every((q) => q.id.startsWith(`h6-${q.category}-`) && q.article), 'holdout6 ids h6-<category>-NNN, each with an article');
  const before6 = new Set(qs.filter((q) => !q.holdout6 && !q.holdout7 && !q.holdout8 && !q.holdout9 && !q.holdout10 && !q.holdout11 && !q.holdout12 && !q.holdout13 && !q.holdout14 && !q.holdout15).map((q) => q.law));
  t.equal(h6.filter((q) => before6.has(q.law)).length, 0, 'holdout6 asks only about instruments no earlier question uses');
  t.equal(new Set(h6.map((q) => `${q.law} ${q.article}`)).size, h6.length, 'no two holdout6 questions on the same article');
  // the seventh (session 10), eighth (session 11), ninth (session 12), tenth (session 13), eleventh (session 14),
  // twelfth (session 15), thirteenth (session 16), fourteenth (session 17) and fifteenth (session 18, blind) held-out
  // sets: 60 questions each, written from the articles' text by a helper who never ran a search, each on an instrument
  // no question outside the later sets uses (holdout15: no question outside holdout15)
  writtenSet(t, qs, 'holdout7', { plain: 24, keyword: 8, abbrev: 8, admrul: 9, filter: 5 });
  writtenSet(t, qs, 'holdout8', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout9', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout10', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout11', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout12', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout13', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout14', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  writtenSet(t, qs, 'holdout15', { plain: 30, keyword: 8, abbrev: 8, admrul: 8, filter: 6 });
  for (const key of ['holdout8', 'holdout9', 'holdout10', 'holdout11', 'holdout12', 'holdout13', 'holdout14', 'holdout15'] as const) {
    const set = qs.filter((q) => q[key]);
    t.equal(new Set(set.map((q) => nameKey(q.law))).size, set.length, `each ${key} question asks about its own instrument`);
  }
  t.same([...new Set(qs.map((q) => q.category))].sort(), ['abbrev', 'admrul', 'filter', 'keyword', 'plain']);
  t.equal(new Set(qs.map((q) => q.id)).size, qs.length);
  t.ok(qs.every((q) => q.law && q.query));
  t.ok(qs.filter((q) => q.article).length >= 140);
});

t.test('full corpus: hits@1, hits@5, MRR floors and no empty answer to a plain question', { skip: !reuse && !FULL.every((f) => fs.existsSync(f)) ? 'the full law corpus (../shared/law-corpus/full) is absent' : false }, async (t) => {
  let dir = reuse;
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-lawq-test-'));
    const made = dir;
    t.teardown(() => fs.rmSync(made, { recursive: true, force: true }));
    const st = new Store(dir);
    const l = openLaw(st);
    l.reload();
    const r = await new Importer(l).run(FULL);
    t.equal(r.errors.length, 0);
    await st.close();
  }
  const store = new Store(dir);
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  // 금융투자업규정 (제N-N조) is readable by article
  const fi = law.resolveName('금융투자업규정')!;
  t.ok(fi.article_count > 500);
  t.ok(law.articleSeq(fi.id, '1-2-2') !== undefined);
  // every question of the nine newest sets names an instrument of the corpus (exact name; a filter question's type
  // and ministry are the document's) and an article it has — read directly, no search, so nothing of the blind set's
  // ranking is printed
  const h6 = loadQuestions().filter((q) => q.holdout6 || q.holdout7 || q.holdout8 || q.holdout9 || q.holdout10 || q.holdout11 || q.holdout12 || q.holdout13 || q.holdout14 || q.holdout15);
  const unread = h6.filter((q) => {
    const doc = law.resolveName(q.law);
    return !doc || doc.name !== q.law || (q.type !== undefined && doc.category !== q.type) || (q.ministry !== undefined && !doc.ministries.includes(q.ministry)) || law.articleSeq(doc.id, q.article!) === undefined;
  });
  t.same(unread.map((q) => q.id), [], `holdout6–15: ${h6.length - unread.length}/${h6.length} expected articles exist`);
  // the floors are over the sets already measured; the blind set has no floor (the integrator measures it)
  const r = evaluate(law, loadQuestions().filter((q) => !isBlind(q)));
  const rate = (a: number, n: number) => a / n;
  // floors: the figures of bench/RESULTS.md (law-quality, branch search17, 386 questions) less about three points
  // (session 11: holdout7, blind until then, joins the measured sets: all 496 measured 387 / 443 / 0.829 / 310 of 493,
  // floors about two points below; session 12: holdout8, blind until then and weaker (50 % first), joins them; after
  // the session's merges (plain21, admrul21) all 556 measure 429 / 490 / 0.818 / 340 of 553, floors about a point below)
  // session 13: holdout9 (blind until then, 50 % first) joins them: all 616 measured 459 / 527 / 0.793 / 362 of 613
  // before rank22's spelled names, 465 / 532 / 0.802 / 364 after; floors a question or so below the latter
  // session 14: holdout10 (blind until then, 53 % first) joins them: all 676 measure 504 / 574 / 0.792 / 394 of 673
  // on main (e614270, below the floors of 616 on every line), 507 / 575 / 0.795 / 394 with vocab23's grouped mapped
  // terms; floors a question or so below
  // session 15: holdout11 (blind until then, 46.7 % first) joins them: all 736 measure 535 / 610 / 0.772 / 57.2 %
  // session 17: holdout13 (blind until then, 38.3 % first) joins them: all 856 measure 605 / 709 / 0.760 / 56.2 %,
  // floors about a point below
  // session 18: holdout14 (blind until then, 48.3 % first at its end) joins them: all 916 measure 636 / 753 / 0.751 /
  // 55.1 %, floors about a point below
  t.ok(rate(r.all.hits1, r.all.n) >= 0.685, `hits@1 ${r.all.hits1}/${r.all.n}`);
  // (plain24, a plain question's terms word by word: all 736 measure 546 / 633 / 0.79; hits@5 floor 0.82 → 0.84)
  t.ok(rate(r.all.hits5, r.all.n) >= 0.81, `hits@5 ${r.all.hits5}/${r.all.n}`);
  t.ok(r.all.mrr >= 0.74, `MRR ${r.all.mrr.toFixed(3)}`);
  // (article@1 raised by article18: the article's text weighs in the choice, 0.60 → 0.63; 251/383 measured; 0.59
  // with holdout9, session 13; 0.58 with holdout10, session 14; 0.565 with holdout11, session 15; 448 / 793 = 0.565 with holdout12, session 16; 0.555 with holdout13, session 17; 0.545 with holdout14, session 18;
  // article27's text candidates and BM25 in the choice: 503 → 511 of 913, floor 0.555)
  t.ok(rate(r.all.article1, r.all.articleN) >= 0.555, `article@1 ${r.all.article1}/${r.all.articleN}`);
  // plain questions of the held-out sets 2–5: the right article of the right law first (article18: 33 → 37 of 100)
  const plainHeld = r.outcomes.filter((o) => (o.q.holdout2 || o.q.holdout3 || o.q.holdout4 || o.q.holdout5) && o.q.category === 'plain' && o.articleOk !== null);
  // (search19's question cues in the article choice: 37 → 39 of 100; article25's citation prior on law14: 43 → 45;
  // article27: 46 measured, floor 45)
  t.ok(plainHeld.filter((o) => o.articleOk).length >= 45, `held-out plain article@1 ${plainHeld.filter((o) => o.articleOk).length}/${plainHeld.length}`);
  t.ok(rate(r.tuned.hits1, r.tuned.n) >= 0.88, `tuned hits@1 ${r.tuned.hits1}/${r.tuned.n}`);
  t.ok(rate(r.tuned.hits5, r.tuned.n) >= 0.94, `tuned hits@5 ${r.tuned.hits5}/${r.tuned.n}`);
  t.ok(rate(r.holdout.hits1, r.holdout.n) >= 0.77, `holdout hits@1 ${r.holdout.hits1}/${r.holdout.n}`);
  t.ok(rate(r.holdout2.hits1, r.holdout2.n) >= 0.83, `holdout2 hits@1 ${r.holdout2.hits1}/${r.holdout2.n}`);
  t.ok(rate(r.holdout2.hits5, r.holdout2.n) >= 0.91, `holdout2 hits@5 ${r.holdout2.hits5}/${r.holdout2.n}`);
  t.ok(rate(r.holdout3.hits1, r.holdout3.n) >= 0.69, `holdout3 hits@1 ${r.holdout3.hits1}/${r.holdout3.n}`);
  t.ok(rate(r.holdout3.hits5, r.holdout3.n) >= 0.86, `holdout3 hits@5 ${r.holdout3.hits5}/${r.holdout3.n}`);
  // (noise20, the noise words of plain questions: holdout4 28 → 29 of 40, holdout6 33/39 → 34/40, holdout7 35/39 → 36/40)
  t.ok(rate(r.holdout4.hits1, r.holdout4.n) >= 0.70, `holdout4 hits@1 ${r.holdout4.hits1}/${r.holdout4.n}`);
  t.ok(rate(r.holdout4.hits5, r.holdout4.n) >= 0.92, `holdout4 hits@5 ${r.holdout4.hits5}/${r.holdout4.n}`);
  t.ok(rate(r.holdout5.hits1, r.holdout5.n) >= 0.72, `holdout5 hits@1 ${r.holdout5.hits1}/${r.holdout5.n}`);
  t.ok(rate(r.holdout5.hits5, r.holdout5.n) >= 0.89, `holdout5 hits@5 ${r.holdout5.hits5}/${r.holdout5.n}`);
  // holdout7 (blind in session 10: 35 / 39 of 60 first / in the top five), floors one question below
  t.ok(r.holdout7.hits1 >= 35, `holdout7 hits@1 ${r.holdout7.hits1}/${r.holdout7.n}`);
  // (plain24, terms word by word: 37 / 44; the top-five floors of holdout7, 9, 10, 11 raised to two questions below)
  t.ok(r.holdout7.hits5 >= 42, `holdout7 hits@5 ${r.holdout7.hits5}/${r.holdout7.n}`);
  // holdout8 (blind in session 11: 30 / 41 of 60 first / in the top five; 34 / 42 after session 12's merges — admrul21's
  // declared short names and rule questions), floors one question below
  // (rank22, session 13: names the question spells in its own words, 35 / 43), floors one question below
  t.ok(r.holdout8.hits1 >= 34, `holdout8 hits@1 ${r.holdout8.hits1}/${r.holdout8.n}`);
  // (plain27, a decree's evidence gives its 법률 a floor: holdout8 top five 48 → 49, holdout10 42 → 43, holdout12 39 → 40;
  // those three floors raised to one question below)
  t.ok(r.holdout8.hits5 >= 48, `holdout8 hits@5 ${r.holdout8.hits5}/${r.holdout8.n}`);
  // holdout9 (blind in session 12: 30 / 37 of 60; rank22's spelled names 35 / 41), floors one question below
  t.ok(r.holdout9.hits1 >= 34, `holdout9 hits@1 ${r.holdout9.hits1}/${r.holdout9.n}`);
  t.ok(r.holdout9.hits5 >= 48, `holdout9 hits@5 ${r.holdout9.hits5}/${r.holdout9.n}`);
  // holdout10 (blind in session 13: 31 / 35 of 60 before, 32 / 37 after that session's work), floors one question below
  t.ok(r.holdout10.hits1 >= 31, `holdout10 hits@1 ${r.holdout10.hits1}/${r.holdout10.n}`);
  t.ok(r.holdout10.hits5 >= 42, `holdout10 hits@5 ${r.holdout10.hits5}/${r.holdout10.n}`);
  // holdout11 (blind in session 14: 28 / 35 of 60 at its start and end), floors one question below
  t.ok(r.holdout11.hits1 >= 27, `holdout11 hits@1 ${r.holdout11.hits1}/${r.holdout11.n}`);
  t.ok(r.holdout11.hits5 >= 35, `holdout11 hits@5 ${r.holdout11.hits5}/${r.holdout11.n}`);
  // holdout12 (blind in session 15: 26 / 35 of 60 at its start, 28 / 38 at its end), floors one question below
  t.ok(r.holdout12.hits1 >= 27, `holdout12 hits@1 ${r.holdout12.hits1}/${r.holdout12.n}`);
  t.ok(r.holdout12.hits5 >= 39, `holdout12 hits@5 ${r.holdout12.hits5}/${r.holdout12.n}`);
  // holdout13 (blind in session 16: 23 / 35 of 60 at its start and end), floors one question below
  t.ok(r.holdout13.hits1 >= 22, `holdout13 hits@1 ${r.holdout13.hits1}/${r.holdout13.n}`);
  t.ok(r.holdout13.hits5 >= 34, `holdout13 hits@5 ${r.holdout13.hits5}/${r.holdout13.n}`);
  // holdout14 (blind in session 17: 28 / 38 of 60 at its start, 29 / 41 at its end), floors one question below
  t.ok(r.holdout14.hits1 >= 28, `holdout14 hits@1 ${r.holdout14.hits1}/${r.holdout14.n}`);
  t.ok(r.holdout14.hits5 >= 40, `holdout14 hits@5 ${r.holdout14.hits5}/${r.holdout14.n}`);
  // holdout6 as it was measured blind at the end of session 9 (66.0 / 78.0), less a question each
  t.ok(rate(r.holdout6.hits1, r.holdout6.n) >= 0.66, `holdout6 hits@1 ${r.holdout6.hits1}/${r.holdout6.n}`);
  t.ok(rate(r.holdout6.hits5, r.holdout6.n) >= 0.78, `holdout6 hits@5 ${r.holdout6.hits5}/${r.holdout6.n}`);
  // holdout6's article inside the right law (search19, question cues: 46.0 → 58.0 %; plain 2 → 8 of 24; vocab20, spoken
  // particles stripped: 60.0 %, plain 9 of 24; noise20, noise words: 62.0 %, plain 10 of 24 — floors a question below)
  t.ok(rate(r.holdout6.article1, r.holdout6.articleN) >= 0.60, `holdout6 article@1 ${r.holdout6.article1}/${r.holdout6.articleN}`);
  const plain6 = r.outcomes.filter((o) => o.q.holdout6 && o.q.category === 'plain' && o.articleOk !== null);
  t.ok(plain6.filter((o) => o.articleOk).length >= 9, `holdout6 plain article@1 ${plain6.filter((o) => o.articleOk).length}/${plain6.length}`);
  // a compound written without spaces is split at its seams (compoundSplit): the keyword query finds 민법's 점유취득시효
  const compound = r.outcomes.find((o) => o.q.query === '부동산 점유취득시효');
  t.equal(compound?.rank, 1, `부동산 점유취득시효: 민법 first (${compound?.top.join(', ')})`);
  // rules asked for by their subject come first (holdout2, holdout3 and holdout4 rule questions: 25)
  const rules = r.outcomes.filter((o) => (o.q.holdout2 || o.q.holdout3 || o.q.holdout4) && o.q.category === 'admrul');
  t.ok(rules.filter((o) => o.rank === 1).length >= 19, `held-out rule questions first: ${rules.filter((o) => o.rank === 1).length}/${rules.length}`);
  t.equal(r.bySet.holdout3.plain!.empty, 0);
  t.equal(r.bySet.holdout4.plain!.empty, 0);
  t.equal(r.bySet.holdout5.plain!.empty, 0);
  t.equal(r.byCategory.plain!.empty, 0);
  t.equal(r.bySet.holdout2.plain!.empty, 0);
  t.equal(r.all.empty, 0);
  t.ok(r.byCategory.abbrev!.hits1 / r.byCategory.abbrev!.n >= 0.95);
  // plain21: a plain question's mapped statutory terms weigh 1.3 × their idf (1.6 before): 결제 → 신용카드 … no longer
  // outweighs the question's own words — the card law enters the top five (7th at 1.6); measured without vocab23's
  // grouping of the mapped terms (switches mappedGroup, titleMappedGroup), which takes it to the third place
  // (these mechanisms were measured with the 8 rarest terms scored: plain24's word-by-word terms off until below)
  SEARCH_SWITCHES.wordTerms = 0;
  const grouped = { mappedGroup: SEARCH_SWITCHES.mappedGroup, titleMappedGroup: SEARCH_SWITCHES.titleMappedGroup };
  Object.assign(SEARCH_SWITCHES, { mappedGroup: 0, titleMappedGroup: 0 });
  const aq = analyseQuery('지갑을 잃어버렸는데 누가 제 신용카드로 결제했어요 그 돈 제가 다 내야 하나요', law.search.abbr);
  const terms = weightedTerms(aq, '', law.search.N, (t) => law.search.df(t));
  const mappedIds = new Set(termIds(aq.mapped));
  const m = terms.post.find((x) => mappedIds.has(x.t) && !termIds(aq.core).includes(x.t))!;
  t.ok(m, `a mapped term of ${aq.mapped}`);
  t.equal(m.idf.toFixed(6), (1.3 * Math.log(1 + (law.search.N - m.df + 0.5) / (m.df + 0.5))).toFixed(6));
  const card = (idf: number) => {
    SEARCH_SWITCHES.mappedIdf = idf;
    try { return law.search.query('지갑을 잃어버렸는데 누가 제 신용카드로 결제했어요 그 돈 제가 다 내야 하나요', { categories: null, ministry: null }, null).findIndex((h) => h.doc.name === '여신전문금융업법') + 1; }
    finally { SEARCH_SWITCHES.mappedIdf = 1.3; }
  };
  t.equal(card(1.6), 7);
  t.equal(card(1.3), 5);
  const on = { mappedGroup: 2, titleMappedGroup: 2 };
  Object.assign(SEARCH_SWITCHES, on);
  t.equal(card(1.3), 3);
  // vocab23: one question word's mapped terms weigh as that word (query-terms.ts groupShares, titles.ts): they no
  // longer carry the 대지급금 고시 over the law that pays it (holdout5 plain-015, 2nd → 1st)
  const wage = '회사가 파산해서 밀린 월급을 못 받았는데 나라가 대신 줄 수 있나요';
  const firstWith = (set: Partial<typeof SEARCH_SWITCHES>) => {
    Object.assign(SEARCH_SWITCHES, set);
    try { return law.search.query(wage, { categories: null, ministry: null }, null)[0]!.doc.name; }
    finally { Object.assign(SEARCH_SWITCHES, on); }
  };
  t.equal(firstWith({}), '임금채권보장법');
  t.equal(firstWith({ mappedGroup: 0, titleMappedGroup: 0 }), '체불 임금등 대지급금 상한액 고시');
  Object.assign(SEARCH_SWITCHES, grouped);
  // rank22: a plain question spelling an instrument's name in its own words (변호사 시험 → 변호사시험법; 장애 정도 심사
  // → 장애정도심사규정) puts it first; without the switch the text's 병역법 / 장애인복지법 win and the instrument is
  // not in the first ten
  const firstOf = (q: string, on: number) => {
    SEARCH_SWITCHES.spelledName = on;
    try { return law.search.query(q, { categories: null, ministry: null }, null).slice(0, 10).map((h) => h.doc.name); }
    finally { SEARCH_SWITCHES.spelledName = 1; }
  };
  const bar = '로스쿨을 졸업하면 변호사 시험은 몇 번까지 볼 수 있나요? 군대 간 기간도 그 기간에 들어가나요';
  t.equal(firstOf(bar, 1)[0], '변호사시험법');
  t.equal(firstOf(bar, 0)[0], '병역법');
  t.notOk(firstOf(bar, 0).includes('변호사시험법'));
  const rule = '장애 정도 심사 결과에 이의가 있으면 며칠 안에 몇 번까지 신청할 수 있나요';
  t.equal(firstOf(rule, 1)[0], '장애정도심사규정');
  // (rule27: without the spelled name the rule still comes first by its articles' lead in the question's words, the
  // coverage gain of rule-coverage.ts; without that gain too, it does not)
  t.equal(firstOf(rule, 0)[0], '장애정도심사규정');
  const gain = SEARCH_SWITCHES.ruleCoverageGain;
  SEARCH_SWITCHES.ruleCoverageGain = 0;
  try { t.not(firstOf(rule, 0)[0], '장애정도심사규정'); } finally { SEARCH_SWITCHES.ruleCoverageGain = gain; }
  // (plain26: a long question's lighter citation prior brings the rule into the first ten by its text alone; with every
  // plain question's prior as before, it is not among them)
  const longWords = SEARCH_SWITCHES.citeLongWords;
  SEARCH_SWITCHES.citeLongWords = 0;
  try { t.notOk(firstOf(rule, 0).includes('장애정도심사규정')); } finally { SEARCH_SWITCHES.citeLongWords = longWords; }
  SEARCH_SWITCHES.wordTerms = 1;
  // plain24: a plain question's terms taken word by word (each word's rarest bigram first, up to 12): 결제, 신용카드
  // and 지갑 each get a term instead of the rare bigrams of a few words, and the card law comes first (3rd without)
  const cardQ = '지갑을 잃어버렸는데 누가 제 신용카드로 결제했어요 그 돈 제가 다 내야 하나요';
  const cardAt = (wordTerms: number) => {
    SEARCH_SWITCHES.wordTerms = wordTerms;
    try { return law.search.query(cardQ, { categories: null, ministry: null }, null).findIndex((h) => h.doc.name === '여신전문금융업법') + 1; }
    finally { SEARCH_SWITCHES.wordTerms = 1; }
  };
  t.equal(cardAt(1), 1);
  t.equal(cardAt(0), 3);
  const cq = analyseQuery(cardQ, law.search.abbr);
  const byWord = weightedTerms(cq, '', law.search.N, (t) => law.search.df(t));
  // the question's own words with an indexed term (4) each have a scored term, each word's rarest first
  // (groups 0 … nOwn − 1 are the question's own words; mapped groups follow)
  const nOwn = cq.core.split(/\s+/).filter(Boolean).length;
  const ownWords = (post: typeof byWord.post) => new Set(post.filter((x) => x.g !== undefined && x.g < nOwn).map((x) => x.g)).size;
  t.equal(ownWords(byWord.post), 4);
  const chosen = selectTerms([...byWord.post], byWord.missing, byWord.total, law.search.N, 12, true).post;
  t.equal(ownWords(chosen), 4);
  t.same(chosen.slice(0, 4).map((x) => x.g).sort(), [...new Set(chosen.map((x) => x.g))].slice(0, 4).sort());
  // the article choice weighs how many articles of the instrument cite each candidate (titleCite, article25; tuned
  // abbrev-018): 제57조 개발행위허가의 절차 holds the words in its title too, 제56조 개발행위의 허가 is the one cited
  const firstArticle = (q: string, cite: number) => {
    SEARCH_SWITCHES.titleCite = cite;
    try { const h = law.search.query(q, { categories: null, ministry: null }, null)[0]!; return `${h.doc.name} ${law.tocOf(h.doc.id)[h.seqs[0]!]!.no}`; }
    finally { SEARCH_SWITCHES.titleCite = 0.2; }
  };
  t.equal(firstArticle('국토계획법 개발행위허가', 0.2), '국토의 계획 및 이용에 관한 법률 56');
  t.equal(firstArticle('국토계획법 개발행위허가', 0), '국토의 계획 및 이용에 관한 법률 57');
  t.equal(firstArticle('산재 업무상 재해', 0.2), '산업재해보상보험법 37');
  // the matching articles carry a snippet with the hit
  const hits = law.search.query('연차 유급휴가', { categories: null, ministry: null }, null);
  const top = hits.find((h) => h.doc.name === '근로기준법')!;
  t.ok(top);
  t.equal(top.matches![0]!.article_no, '60');
  t.match(top.matches![0]!.snippet, /유급휴가/);
  await t.test('a plain question answered in a decree brings its 법률 into the first five (parentLift)', async (t) => {
    t.teardown(() => { SEARCH_SWITCHES.parentLift = 0.8; });
    const q = '아파트 단지 안에 노란색으로 소방차 전용이라고 칠해진 칸이 있는데 잠깐만 차를 세워도 되나요';
    const names = () => law.search.query(q, { categories: null, ministry: null }, null).slice(0, 5).map((h) => h.doc.name);
    SEARCH_SWITCHES.parentLift = 0.8;
    const on = names();
    t.equal(on[0], '소방기본법 시행령', 'the decree whose article answers stays first');
    t.equal(on[1], '소방기본법', 'its 법률 second');
    const decrees = law.search.query(q, { categories: new Set(['decree']), ministry: null }, null).map((h) => h.doc.category);
    t.same([...new Set(decrees)], ['decree'], 'a category filter keeps the lifted 법률 out');
    SEARCH_SWITCHES.parentLift = 0;
    t.notOk(names().includes('소방기본법'), 'without the lift the 법률 is not in the first five');
    // a keyword query is not lifted
    SEARCH_SWITCHES.parentLift = 0.8;
    const kw = law.search.query('소방자동차 전용구역 설치 대상', { categories: null, ministry: null }, null).map((h) => h.doc.name);
    SEARCH_SWITCHES.parentLift = 0;
    t.same(law.search.query('소방자동차 전용구역 설치 대상', { categories: null, ministry: null }, null).map((h) => h.doc.name), kw);
  });
});

/** a held-out set written blind (holdout7 on): its size and categories, ids, disjoint from the other sets, its own
 *  instruments (none used by a question of an earlier set), one question per article, each filter question filtered */
function writtenSet(t: Test, qs: Question[], key: HeldOut, least: Record<string, number>): void {
  const n = key.slice('holdout'.length);
  const set = qs.filter((q) => q[key]);
  const of = (c: string) => set.filter((q) => q.category === c).length;
  t.ok(set.length >= 60, `${set.length} ${key} questions`);
  for (const [c, min] of Object.entries(least)) t.ok(of(c) >= min, `${of(c)} ${key} ${c} questions (${min}+)`);
  t.equal(set.filter((q) => HELD_OUT.some((k) => k !== key && q[k])).length, 0, `${key} is disjoint from the other sets`);
  const id = new RegExp(`^h${n}-(plain|keyword|abbrev|admrul|filter)-\\d{3}$`);
  t.ok(set.every((q) => id.test(q.id) && q.id.startsWith(`h${n}-${q.category}-`) && q.article), `${key} ids h${n}-<category>-NNN, each with an article`);
  t.ok(set.filter((q) => q.category === 'filter').every((q) => q.type !== undefined || q.ministry !== undefined), `each ${key} filter question sets type or ministry`);
  const later = HELD_OUT.slice(HELD_OUT.indexOf(key));
  // compared by name key, as the scoring matches names (·/ㆍ and spacing differ between the corpus and the store)
  const earlier = new Set(qs.filter((q) => later.every((k) => !q[k])).map((q) => nameKey(q.law)));
  t.same(set.filter((q) => earlier.has(nameKey(q.law))).map((q) => q.id), [], `${key} asks only about instruments no earlier question uses`);
  t.equal(new Set(set.map((q) => `${q.law} ${q.article}`)).size, set.length, `no two ${key} questions on the same article`);
}
