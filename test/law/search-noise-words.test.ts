// Noise words of plain questions (noise-words.ts, issue #15): the analysed terms of example questions. Pure functions:
// no corpus needed.
import t from 'tap';
import { analyseQuery } from '../../src/law/search/query.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import { oneSyllableI, spokenPredicate } from '../../src/law/search/noise-words.js';

const none = new Map<string, string>();
const core = (q: string) => analyseQuery(q, none).core.split(' ');

t.test('connective predicates (…은데, …던데, …어서) leave a question; verbal nouns and documents stay', async (t) => {
  t.same(core('차 머플러를 바꿔서 배기음을 키우고 싶은데 허락을 받아야 하나요'), ['차', '머플러', '배기음', '허락']);
  t.same(core('대학 등록금을 한 번에 못 내겠는데 나눠서 내도 되나요').includes('나눠서'), false);
  t.equal(spokenPredicate('닫던데'), true);
  t.equal(spokenPredicate('넘어져서'), true);
  t.equal(spokenPredicate('허가서'), false);
  t.equal(spokenPredicate('계약서'), false);
  // 운전해서 is a verb of a noun: its noun stays
  t.ok(core('술 마시고 운전해서 사고가 나면 어떻게 되나요').includes('운전'));
});

t.test('fillers and situation words are dropped', async (t) => {
  const c = core('비행기 안에서 술 취한 승객이 승무원한테 소리를 지르고 난동을 부리는데 이런 건 법으로 막혀 있지 않나요');
  for (const w of ['안에서', '이런', '건', '법으']) t.notOk(c.includes(w), w);
  for (const w of ['비행기', '승객', '승무원', '난동']) t.ok(c.includes(w), w);
  const d = core('지갑을 잃어버렸는데 누가 제 신용카드로 결제했어요 그 돈 제가 다 내야 하나요');
  t.notOk(d.includes('제') || d.includes('다'));
  t.ok(d.includes('신용카드'));
  // situation words that name a cause or a time (때문, 올해) stay: dropping them was measured neutral to negative
  t.ok(core('집 앞 공사장 소음 때문에 잠을 못 자는데 구청에서 규제해 주나요').includes('때문'));
});

t.test('a one-syllable noun with the particle 이 leaves the noun; 길이, 아이, 나이 stay whole', async (t) => {
  t.equal(oneSyllableI('형이'), true);
  t.equal(oneSyllableI('팔이'), true);
  t.equal(oneSyllableI('아이'), false);
  t.equal(oneSyllableI('나이'), false);
  t.equal(oneSyllableI('길이'), false);
  const c = core('몇 년 전에 벌금을 낸 적이 있는데 그 기록은 언제쯤 없어지나요');
  t.notOk(c.includes('적이'));
  t.notOk(c.includes('적'));
  t.ok(c.includes('벌금'));
});

t.test('keyword queries keep their words; the switch restores the old analysis', async (t) => {
  t.same(core('유사상표 사용 상표권 침해 간주 행위'), ['유사상표', '사용', '상표권', '침해', '간주', '행위']);
  const before = SEARCH_SWITCHES.noiseWords;
  // the rule set's analysis: without the morphological analyser (morph22), which drops the verb anyway
  SEARCH_SWITCHES.noiseWords = 0;
  SEARCH_SWITCHES.morph = 0;
  try { t.ok(core('차 머플러를 바꿔서 배기음을 키우고 싶은데 허락을 받아야 하나요').includes('바꿔서')); } finally { SEARCH_SWITCHES.noiseWords = before; SEARCH_SWITCHES.morph = 1; }
  t.notOk(core('차 머플러를 바꿔서 배기음을 키우고 싶은데 허락을 받아야 하나요').includes('바꿔서'));
});
