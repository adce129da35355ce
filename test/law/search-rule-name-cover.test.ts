// A rule whose name and article hold several of a plain question's words takes the statutes' prior
// (rule-name-cover.ts, issue #15, admrul25). Pure functions over made-up words and texts: no corpus needed.
import t from 'tap';
import { coverageWords } from '../../src/law/search/rule-coverage.js';
import { nameCoverOf, nameCovers, nameMayCover } from '../../src/law/search/rule-name-cover.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import { termIds } from '../../src/law/normalize.js';

// every bigram in 50 of 1,000 articles: the words weigh the same
const words = coverageWords('현금영수증 가게 신고 포상금', 1000, () => 50, ['사업장 영업'], ['가게']);
const rule = '현금영수증 발급 의무 위반자를 신고한 자에 대한 포상금 지급 규정 고시';

t.test('the name holds the question\'s own words, weighed by rarity; its kind ending is no evidence', async (t) => {
  const c = nameCoverOf(rule, words);
  t.equal(c.found, 3, '현금영수증, 신고, 포상금; not 가게');
  t.ok(Math.abs(c.share - 0.75) < 1e-12);
  // 고시 ends the name: a question word 고시 is not found in it
  t.equal(nameCoverOf('국가유공자 예우 고시', coverageWords('고시 예우', 1000, () => 50)).found, 1);
});

t.test('a word\'s mapped terms in the name do not hold it', async (t) => {
  t.equal(nameCoverOf('사업장 포상금 규정', words).found, 1, '포상금; not 가게 by its mapped term 사업장');
});

t.test('the name and one of the best articles must both hold ruleNameCoverMin words', async (t) => {
  t.equal(SEARCH_SWITCHES.ruleNameCoverMin, 3);
  const article = '현금영수증 발급 의무를 위반한 자를 신고한 자에게 포상금을 지급한다';
  t.ok(Math.abs(nameCovers(rule, words, () => ['목적', article]) - 0.75) < 1e-12, 'the share of the name');
  t.equal(nameCovers(rule, words, () => ['이 고시는 포상금의 지급에 필요한 사항을 정한다']), 0, 'an article holding one word');
  t.equal(nameCovers(rule, words, () => []), 0, 'no article read');
  // two words in the name are too few (vocab23: 연장근로 → 특별연장근로 건강보호조치)
  t.equal(nameCovers('현금영수증 포상금 지급 규정', words, () => [article]), 0);
});

t.test('a name holding the words without their share of rarity is no evidence', async (t) => {
  // the name's three words are common, the question's other three rare: the name holds a small share of it
  const rare = new Set(termIds('불친절 프로판가스 캐리어'));
  const w = coverageWords('현금영수증 신고 포상금 불친절 프로판가스 캐리어', 1000, (x) => (rare.has(x) ? 1 : 400));
  const c = nameCoverOf(rule, w);
  t.equal(c.found, 3);
  t.ok(c.share < SEARCH_SWITCHES.ruleNameCoverShare);
  t.equal(nameCovers(rule, w, () => ['현금영수증 신고 포상금']), 0);
});

t.test('the check before the words\' rarity is read: the name holds ruleNameCoverMin of the question\'s own words', async (t) => {
  t.equal(nameMayCover(rule, ['현금영수증', '가게', '신고', '포상금']), true);
  t.equal(nameMayCover(rule, ['현금영수증', '가게', '포상금']), false, 'two of them');
  // the kind ending is not the name's evidence: 고시 and 규정 are no subject
  t.equal(nameMayCover(rule, ['현금영수증', '고시', '포상금']), false);
});
