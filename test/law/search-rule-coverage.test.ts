// A rule whose article holds more of the question's words than every hit above it competes on its evidence
// (rule-coverage.ts, issue #15, admrul24). Pure functions over made-up hits and texts: no corpus needed.
import t from 'tap';
import { coverageLift, coverageOf, coverageWords, namedAfter, type CoverageHit } from '../../src/law/search/rule-coverage.js';
import { termIds } from '../../src/law/normalize.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';

// document frequencies over 1,000 articles: the fee words are rare, 골프장 common, 없는말 in no article
const rare = new Set(termIds('캐디피 카트비'));
const missing = new Set(termIds('없는말'));
const df = (t: number) => (missing.has(t) ? 0 : rare.has(t) ? 2 : 300);

t.test('the question\'s own words, once each, weighed by rarity; a word no article holds is left out', async (t) => {
  const w = coverageWords('골프장 캐디피 카트비 캐디피 없는말 및', 1000, df);
  t.same(w.map((x) => x.w), ['골프장', '캐디피', '카트비']);
  t.ok(w[1]!.idf > 2 * w[0]!.idf, 'a rare word weighs more than a common one');
});

t.test('a word\'s mapped terms stand for it: a text holding one holds the word', async (t) => {
  const w = coverageWords('물건 반품', 1000, () => 50, ['청약철회 환급'], ['반품']);
  t.same(w[1]!.alt, ['청약철회', '환급']);
  const c = coverageOf('통신판매업자와 재화등의 구매에 관한 계약을 체결한 소비자는 청약철회를 할 수 있다', w);
  // (the text writes neither 물건 nor 반품: the one word held is 반품, by its mapped term 청약철회)
  t.equal(c.found, 1);
  t.ok(Math.abs(c.share - 0.5) < 1e-12, 'two words of equal rarity, one held: half');
});

t.test('coverage is the rarity-weighted share of the words held', async (t) => {
  const w = coverageWords('골프장 캐디피 카트비', 1000, df);
  const all = w.reduce((s, x) => s + x.idf, 0);
  const c = coverageOf('골프장업자는그린피카트비캐디피를표시하여야한다', w);
  t.equal(c.found, 3);
  t.equal(c.share, 1);
  const d = coverageOf('골프장의세부종류', w);
  t.ok(Math.abs(d.share - w[0]!.idf / all) < 1e-12);
});

t.test('a rule is named after a statute when the statute\'s name less its kind is in the rule\'s name', async (t) => {
  t.equal(namedAfter('전자상거래 등에서의 소비자보호 지침', '전자상거래 등에서의 소비자보호에 관한 법률'), true);
  t.equal(namedAfter('골프장업 이용요금 표시 관리 기준', '체육시설의 설치ㆍ이용에 관한 법률'), false);
  t.equal(namedAfter('자동차 튜닝에 관한 규정', '자동차관리법'), false);
  // a stem shorter than four characters names nothing
  t.equal(namedAfter('민법 해설 지침', '민법'), false);
});

const hit = (id: string, name: string, category: string, score: number): CoverageHit => ({ doc: { id, name, category }, score, seqs: [0] });
const order = (a: CoverageHit, b: CoverageHit) => b.score - a.score;
/** fn with switches set, restored after */
const withSwitches = <T>(set: Partial<typeof SEARCH_SWITCHES>, fn: () => T): T => {
  const was = { ...SEARCH_SWITCHES };
  Object.assign(SEARCH_SWITCHES, set);
  try { return fn(); } finally { Object.assign(SEARCH_SWITCHES, was); }
};

t.test('the rule holding more of the question than every hit above it gets its score at the statutes\' prior', async (t) => {
  const w = () => coverageWords('골프장 캐디피 카트비', 1000, df);
  const texts: Record<string, string> = { law: '골프장업의세부종류', tax: '골프장입장행위', rule: '골프장업자는카트비와캐디피를표시한다' };
  const out = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('tax', '조세특례제한법', 'law', 45), hit('rule', '골프장업 이용요금 표시 관리 기준', 'admrul', 28)];
  // (the prior alone: no coverage gain)
  const lifted = withSwitches({ ruleCoverageGain: 0 }, () => coverageLift(out, 10, w, (h) => (h.doc.category === 'admrul' ? h.score * 2 : null), (id) => texts[id]!, order));
  t.equal(lifted, true);
  t.same(out.map((h) => h.doc.id), ['rule', 'law', 'tax']);
  t.equal(out[0]!.score, 56);
});

t.test('with the coverage gain the lifted rule also gains (its share / the best above)^gain, capped; a rule already at the statutes\' prior competes too', async (t) => {
  // 캐디피 and 카트비 rare (df 2), 골프장 and 보관 common (df 300): the rule holds the three question words, the law two
  const w = () => coverageWords('골프장 캐디피 카트비', 1000, df);
  const words = w(), all = words.reduce((s, x) => s + x.idf, 0), share = (words[0]!.idf + words[1]!.idf) / all;
  const texts: Record<string, string> = { law: '골프장캐디피', rule: '골프장업자는카트비와캐디피를표시한다' };
  const atPrior = (h: CoverageHit) => (h.doc.category === 'admrul' ? h.score : null);
  const out = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장업 이용요금 표시 관리 기준', 'admrul', 28)];
  withSwitches({ ruleCoverageGain: 3, ruleCoverageGainCap: 2 }, () => t.equal(coverageLift(out, 10, w, atPrior, (id) => texts[id]!, order), true));
  t.same(out.map((h) => h.doc.id), ['rule', 'law']);
  t.ok(Math.abs(out[0]!.score - 28 / share ** 3) < 1e-9, `28 × (1 / ${share.toFixed(3)})^3`);
  // the gain capped at cap^gain: the law holds only 골프장
  const low = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장업 이용요금 표시 관리 기준', 'admrul', 28)];
  withSwitches({ ruleCoverageGain: 3, ruleCoverageGainCap: 2 }, () => coverageLift(low, 10, w, atPrior, (id) => (id === 'law' ? '골프장' : texts[id]!), order));
  t.same(low.map((h) => [h.doc.id, h.score]), [['rule', 224], ['law', 50]]);
  // gain off: a rule at the statutes' prior is not read
  const off = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장업 이용요금 표시 관리 기준', 'admrul', 28)];
  withSwitches({ ruleCoverageGain: 0 }, () => t.equal(coverageLift(off, 10, w, atPrior, (id) => texts[id]!, order), false));
  t.same(off.map((h) => h.score), [50, 28]);
});

t.test('no lift when a hit above holds as much, when the rule holds too few words, or when it is the statute\'s own guideline', async (t) => {
  const w = () => coverageWords('골프장 캐디피 카트비', 1000, df);
  const lift = (h: CoverageHit) => (h.doc.category === 'admrul' ? h.score * 2 : null);
  const same = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장 기준', 'admrul', 28)];
  t.equal(coverageLift(same, 10, w, lift, () => '골프장카트비캐디피', order), false);
  t.same(same.map((h) => h.score), [50, 28]);
  const few = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장 기준', 'admrul', 28)];
  t.equal(coverageLift(few, 10, w, lift, (id) => (id === 'rule' ? '캐디피' : '체육시설'), order), false);
  const own = [hit('law', '골프장 이용 관리에 관한 법률', 'law', 50), hit('rule', '골프장 이용 관리 지침', 'admrul', 28)];
  const was = SEARCH_SWITCHES.ruleCoverageParent;
  SEARCH_SWITCHES.ruleCoverageParent = 1;
  try {
    t.equal(coverageLift(own, 10, w, lift, (id) => (id === 'rule' ? '골프장카트비캐디피' : '골프장'), order), false);
  } finally { SEARCH_SWITCHES.ruleCoverageParent = was; }
});

t.test('the words are made once, and only when a rule could be lifted (speed24)', async (t) => {
  let made = 0;
  const words = () => { made++; return coverageWords('골프장 캐디피 카트비', 1000, df); };
  const lift = (h: CoverageHit) => (h.doc.category === 'admrul' ? h.score * 2 : null);
  const texts: Record<string, string> = { law: '골프장업의세부종류', tax: '골프장입장행위', rule: '골프장업자는카트비와캐디피를표시한다' };
  // no rule among the hits: nothing to lift, the words are not made
  const laws = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('tax', '조세특례제한법', 'law', 45)];
  t.equal(coverageLift(laws, 10, words, lift, (id) => texts[id]!, order), false);
  t.equal(made, 0);
  // a rule to lift: made once, and the same lift as above
  const out = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('tax', '조세특례제한법', 'law', 45), hit('rule', '골프장업 이용요금 표시 관리 기준', 'admrul', 28)];
  t.equal(withSwitches({ ruleCoverageGain: 0 }, () => coverageLift(out, 10, words, lift, (id) => texts[id]!, order)), true);
  t.equal(made, 1);
  t.same(out.map((h) => [h.doc.id, h.score]), [['rule', 56], ['law', 50], ['tax', 45]]);
  // too few words once made: no lift
  const few = [hit('law', '체육시설의 설치ㆍ이용에 관한 법률', 'law', 50), hit('rule', '골프장 기준', 'admrul', 28)];
  t.equal(coverageLift(few, 10, () => coverageWords('캐디피', 1000, df), lift, () => '캐디피', order), false);
  t.same(few.map((h) => h.score), [50, 28]);
});
