// Query analysis for plain questions: the general everyday vocabulary (vocabulary.ts) and the rule-subject test of the
// ranking (rank.ts). Pure functions: no corpus needed.
import t from 'tap';
import { analyseQuery } from '../../src/law/search/query.js';
import { EVERYDAY_SIZE, everydayTerms, mapWord } from '../../src/law/search/vocabulary.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import { asksForRule, namesRuleSubject } from '../../src/law/search/rank.js';
import { NameWords, nameWords } from '../../src/law/search/name-words.js';
import type { DocRec } from '../../src/law/parse.js';

const none = new Map<string, string>();

t.test('everyday words map to statutory terms; one-syllable words only whole', async (t) => {
  t.ok(EVERYDAY_SIZE >= 400, `${EVERYDAY_SIZE} keys`);
  t.equal(everydayTerms('결혼'), '혼인');
  t.equal(everydayTerms('중개수수료'), '중개보수');
  t.equal(everydayTerms('망가뜨리'), '손괴 효용');
  t.equal(everydayTerms('집'), '주택');
  t.equal(everydayTerms('집회'), '집회 시위');
  t.equal(everydayTerms('민법'), null);
  // the longest key wins (최저시급 before 시급 is not a prefix case; 월급명세서 before 월급 in the old map)
  t.equal(everydayTerms('급여명세서'), '임금명세서');
});

t.test('a plain question gets the statutory terms; a keyword query keeps its own words', async (t) => {
  const q = analyseQuery('결혼하려면 몇 살이 되어야 하나요', none);
  t.equal(q.plain, true);
  t.match(q.mapped, /혼인/);
  t.match(q.text, /결혼/);
  const k = analyseQuery('회사 합병 절차', none);
  t.equal(k.plain, false);
  t.equal(k.mapped, '');
  // a phrase written across words (불을 지르면) is found in the compact question
  t.match(analyseQuery('남의 집에 불을 지르면 무슨 죄인가요', none).mapped, /방화/);
});

t.test('rules asked for by kind or subject', async (t) => {
  t.equal(asksForRule(['외국환', '거래규정']), true);
  t.equal(asksForRule(['업무상', '재해', '인정', '기준']), false);
  t.equal(namesRuleSubject('은행업감독규정', ['은행', '거액신용공여']), true);
  t.equal(namesRuleSubject('상호저축은행업감독규정', ['저축은행', '지급준비자산']), true);
  t.equal(namesRuleSubject('보험업감독규정', ['보험회사', '책임준비금']), true);
  t.equal(namesRuleSubject('은행업감독규정', ['보험', '모집']), false);
  t.equal(namesRuleSubject('은행법', ['은행']), false);
  t.equal(namesRuleSubject('건설업 산업안전보건관리비 계상 및 사용기준', ['건설업', '산업안전보건관리비', '사용기준']), true);
  // a longer name needs most of its words: two of four are not enough
  t.equal(namesRuleSubject('건설업 산업안전보건관리비 계상 및 사용기준', ['건설공사', '산업안전보건관리비', '사용기준']), false);
  t.equal(namesRuleSubject('개인정보의 안전성 확보조치 기준', ['개인정보', '파기']), false);
  // a long compound of a multi-word name written whole in a keyword query names the rule alone; not in a plain question
  // (its long words are mostly mapped terms), not a short part (개인정보: four syllables)
  t.equal(namesRuleSubject('사업장 위험성평가에 관한 지침', ['위험성평가', '실시', '시기'], true), true);
  t.equal(namesRuleSubject('사업장 위험성평가에 관한 지침', ['위험성평가', '실시', '시기']), false);
  t.equal(namesRuleSubject('화학물질의 분류ㆍ표시 및 물질안전보건자료에 관한 기준', ['물질안전보건자료대상물질', '경고표지'], true), true);
  t.equal(namesRuleSubject('개인정보의 안전성 확보조치 기준', ['개인정보', '파기'], true), false);
});

t.test('a two-syllable verb form the vocabulary knows is not a one-syllable noun with a particle', async (t) => {
  const aq = analyseQuery('회사가 직원을 자를 수 있나요', none);
  t.ok(aq.mapped.split(' ').includes('해고'), aq.mapped);
  // the morphological analyser (morph22) reads 자를 as the verb 자르다: mapped, not a question word; the rule set kept it
  t.notOk(aq.core.split(' ').includes('자를'), aq.core);
  SEARCH_SWITCHES.morph = 0;
  try { t.ok(analyseQuery('회사가 직원을 자를 수 있나요', none).core.split(' ').includes('자를')); } finally { SEARCH_SWITCHES.morph = 1; }
  // a one-syllable noun with a particle is still read as the noun
  t.ok(analyseQuery('돈을 빌려주면', none).core.split(' ').includes('돈'));
});

t.test('one map: a keyword query takes the core key, a question the longest key of both lists', async (t) => {
  t.same(mapWord('급여명세서'), { core: '임금', any: '임금명세서', anyIsCore: false });
  t.same(mapWord('술집'), { core: '음주 주취', any: '유흥주점 식품접객업', anyIsCore: false });
  t.same(mapWord('세입자'), { core: '임차인', any: '임차인', anyIsCore: true });
  t.same(mapWord('집'), { core: null, any: '주택', anyIsCore: false });
  t.same(mapWord('민법'), { core: null, any: null, anyIsCore: false });
  // the keyword query keeps the core term only; the question gets the longer everyday key
  t.ok(analyseQuery('급여명세서 교부', none).mapped.split(' ').includes('임금'));
  t.ok(analyseQuery('급여명세서는 꼭 받아야 하나요', none).mapped.includes('임금명세서'));
});

t.test('name words: a plain question\'s words in a statute\'s name (name-words.ts)', async (t) => {
  t.same(nameWords('채무자 회생 및 파산에 관한 법률'), ['채무자', '회생', '파산']);
  t.same(nameWords('이자제한법'), ['이자제한']);
  t.same(nameWords('형법'), ['형법']);
  const doc = (name: string, category = 'law') => ({ id: name, name, category, repealed: false }) as unknown as DocRec;
  const iza = doc('이자제한법'), debt = doc('채무자 회생 및 파산에 관한 법률'), rule = doc('이자율 고시', 'admrul');
  const cars = ['자동차관리법', '여객자동차 운수사업법', '자동차손해배상 보장법', '화물자동차 운수사업법'].map((n) => doc(n));
  const nw = new NameWords([iza, debt, rule, ...cars]);
  const c = nw.cover(['친구', '이자', '개인회생']);
  t.equal(c.get(iza), 1, 'the whole name covered: 이자 begins 이자제한');
  t.ok(c.get(debt)! > 0 && c.get(debt)! < 1, '개인회생 holds 회생: part of the name');
  t.notOk(c.has(rule), 'statutes only');
  // a word in more statutes' names than the limit is no evidence
  t.equal(nw.cover(['자동차'], 8).size, 4);
  t.equal(nw.cover(['자동차'], 3).size, 0);
});

t.test('the life vocabulary (vocabulary-life.ts): statute-name words for plain questions, read per query by its switch', async (t) => {
  t.ok(EVERYDAY_SIZE >= 1000, `${EVERYDAY_SIZE} keys`);
  t.equal(everydayTerms('생계비'), '생계급여 수급자 기초생활');
  t.equal(everydayTerms('잃어버린'), '분실 유실물');
  t.equal(everydayTerms('칼'), '도검 흉기');
  // a phrase across words (나라가 물어주나요) and an age in years (13살 → 13세)
  const q = analyseQuery('공무원 실수로 다쳤는데 나라가 물어주나요', none);
  t.ok(q.text.split(' ').includes('국가배상'), q.text);
  t.same(mapWord('13살'), { core: null, any: '13세 연령', anyIsCore: false });
  // 정당한 (justified) is no party, 제대로 (properly) no discharge: such keys were left out
  t.equal(everydayTerms('정당한'), null);
  t.equal(everydayTerms('제대로'), null);
  // the switch off: the older list alone
  SEARCH_SWITCHES.lifeVocabulary = 0;
  t.teardown(() => { SEARCH_SWITCHES.lifeVocabulary = 1; });
  t.equal(everydayTerms('생계비'), null);
  t.same(mapWord('13살'), { core: null, any: null, anyIsCore: false });
  t.notOk(analyseQuery('공무원 실수로 다쳤는데 나라가 물어주나요', none).text.split(' ').includes('국가배상'));
});

t.test('spoken particles (…랑, …이랑, …한테) leave the noun', async (t) => {
  const aq = analyseQuery('식당에서 김치랑 고기를 손님한테 팔 때 평상이랑 진열대를 내놓아도 되나요', none);
  t.ok(aq.plain);
  for (const w of ['김치', '손님', '평상', '진열대']) t.ok(aq.core.split(' ').includes(w), `${w} in "${aq.core}"`);
  t.notMatch(aq.core, /랑|한테/);
  // a two-syllable noun ending in 랑 keeps it (사랑); the switch restores the old analysis
  t.ok(analyseQuery('사랑 고백을 거절하면 처벌되나요', none).core.split(' ').includes('사랑'));
  SEARCH_SWITCHES.spokenJosa = 0;
  SEARCH_SWITCHES.morph = 0; // the rule set's analysis (the analyser never leaves the particle)
  try { t.match(analyseQuery('김치랑 고기를 팔아도 되나요', none).core, /김치랑/); } finally { SEARCH_SWITCHES.spokenJosa = 1; SEARCH_SWITCHES.morph = 1; }
});
