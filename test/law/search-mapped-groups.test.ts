// The mapped terms of a plain question grouped by the question word they stand for (vocab23): the analysis records
// the groups and their words; the term weights (query-terms.ts groupShares) and the title evidence (titles.ts) can
// let one word's mapped terms weigh as one word. Pure functions: no corpus needed (a made-up df).
import t from 'tap';
import { analyseQuery } from '../../src/law/search/query.js';
import { weightedTerms } from '../../src/law/search/query-terms.js';
import { titleQuery } from '../../src/law/search/titles.js';
import { termIds } from '../../src/law/normalize.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';

const none = new Map<string, string>();
const Q = '치매가 온 아버지를 요양원에 모시려면 등급 신청을 어디에 어떻게 해야 하나요';

/** run f with some switches set, then restore them */
function withSwitches<T>(set: Partial<typeof SEARCH_SWITCHES>, f: () => T): T {
  const saved = { ...SEARCH_SWITCHES };
  Object.assign(SEARCH_SWITCHES, set);
  try { return f(); } finally { Object.assign(SEARCH_SWITCHES, saved); }
}

t.test('a plain question records each mapped group and the word it stands for', async (t) => {
  const aq = analyseQuery(Q, none);
  t.equal(aq.plain, true);
  t.same(aq.mappedGroups, ['치매 성년후견 피성년후견인', '부 직계존속', '노인의료복지시설 장기요양기관']);
  t.same(aq.mappedFrom, ['치매', '아버지', '요양원']);
  t.equal(aq.mapped, aq.mappedGroups!.join(' '));
});

t.test('groupShares: a group keeps its rarest bigrams (mode 1) or shares the weight (mode 2); own words untouched', async (t) => {
  const aq = analyseQuery(Q, none);
  // the compound split on, as these weights were written with it (its default is 0 since tune25; mode 3 below counts
  // on 계존 split off)
  const split = SEARCH_SWITCHES.compoundSplit;
  SEARCH_SWITCHES.compoundSplit = 1;
  t.teardown(() => { SEARCH_SWITCHES.compoundSplit = split; });
  // a made-up df: a bigram's df is its code modulo 997 + 1 (stable, distinct enough)
  const df = (x: number) => (x % 997) + 1;
  const N = 100_000;
  const idf = (x: number) => Math.log(1 + (N - df(x) + 0.5) / (df(x) + 0.5));
  const off = withSwitches({ mappedGroup: 0 }, () => weightedTerms(aq, Q, N, df));
  const group = [...new Set(termIds('노인의료복지시설 장기요양기관'))].filter((x) => !termIds(aq.core).includes(x));
  const rarest = group.slice().sort((a, b) => df(a) - df(b)).slice(0, 2);
  // off: every bigram of the group scored at 1.3 × idf
  for (const x of group) t.equal(off.post.find((p) => p.t === x)?.idf.toFixed(6), (1.3 * idf(x)).toFixed(6));
  const one = withSwitches({ mappedGroup: 1, mappedBigrams: 2 }, () => weightedTerms(aq, Q, N, df));
  t.same(group.filter((x) => one.post.some((p) => p.t === x)).sort(), rarest.sort(), 'the two rarest of the group kept');
  t.ok(one.total < off.total, 'the others are not counted as terms');
  const two = withSwitches({ mappedGroup: 2, mappedBigrams: 2 }, () => weightedTerms(aq, Q, N, df));
  for (const x of group) t.equal(two.post.find((p) => p.t === x)?.idf.toFixed(6), (1.3 * idf(x) * 2 / group.length).toFixed(6));
  // the question's own words weigh as before
  for (const x of termIds('요양원')) t.equal(two.post.find((p) => p.t === x)?.idf, off.post.find((p) => p.t === x)?.idf);
  // mode 3: as many bigrams as the word it stands for (아버지: 2) — 2 of 부, 직계, 존속 (계존 is split off as a
  // compound's seam under this df: compoundTerms)
  const three = withSwitches({ mappedGroup: 3, mappedBigrams: 1 }, () => weightedTerms(aq, Q, N, df));
  t.equal(termIds('부 직계존속').filter((x) => three.post.some((p) => p.t === x)).length, 2);
  t.equal(termIds('부 직계존속').filter((x) => off.post.some((p) => p.t === x)).length, 3);
});

t.test('title evidence: one word\'s mapped terms share titleMapped when switched on', async (t) => {
  const aq = analyseQuery(Q, none);
  const wt = (on: number) => withSwitches({ titleMappedGroup: on }, () => {
    // a fresh object: titleQuery memoises the last query read
    const tq = titleQuery({ ...aq });
    return new Map(tq!.qw.map((x) => [x.w, x.wt]));
  });
  t.equal(wt(0).get('장기요양기관'), SEARCH_SWITCHES.titleMapped);
  t.equal(wt(1).get('장기요양기관'), SEARCH_SWITCHES.titleMapped / 2);
  t.equal(wt(1).get('피성년후견인'), SEARCH_SWITCHES.titleMapped / 3);
  // (the title evidence reads words of two characters or more: 직계존속 is 아버지's only one there)
  t.equal(wt(1).get('직계존속'), SEARCH_SWITCHES.titleMapped);
  t.equal(wt(1).get('요양원'), 1, 'the question\'s own word');
  // 2: grouped in the score, the article choice keeps each term at titleMapped
  withSwitches({ titleMappedGroup: 2 }, () => {
    const tq = titleQuery({ ...aq })!;
    t.equal(tq.qw.find((x) => x.w === '장기요양기관')!.wt, SEARCH_SWITCHES.titleMapped / 2);
    t.equal(tq.choice!.find((x) => x.w === '장기요양기관')!.wt, SEARCH_SWITCHES.titleMapped);
  });
  t.equal(withSwitches({ titleMappedGroup: 1 }, () => titleQuery({ ...aq })!.choice), undefined);
});
