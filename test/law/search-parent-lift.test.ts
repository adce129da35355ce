// A decree's or rule's evidence lifts the 법률 it carries out for plain questions (parent-lift.ts, search.ts
// parentLift; issue #15, plain27). The table over made-up catalogue records; the lift on the full corpus when
// SEJONG_LAW_QUALITY_DATA names an imported store (skipped otherwise).
import t from 'tap';
import type { DocRec } from '../../src/law/parse.js';
import { nameKey } from '../../src/law/normalize.js';
import { parentPositions } from '../../src/law/search/parent-lift.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';

const doc = (name: string, category: DocRec['category'], repealed = false) => ({ name, category, repealed } as DocRec);

t.test('a 시행령 or 시행규칙 points at the current 법률 of its name; nothing else has a parent', async (t) => {
  const catalog = [doc('소방기본법', 'law'), doc('소방기본법 시행령', 'decree'), doc('소방기본법 시행규칙', 'rule'),
    doc('옛법', 'law', true), doc('옛법 시행령', 'decree'), doc('없는법 시행령', 'decree'), doc('소방기본법 시행령', 'admrul'),
    doc('공무원 여비 규정', 'decree'), doc('대통령령 시행령', 'decree'), doc('대통령령', 'decree')];
  const byName = new Map<string, DocRec[]>();
  for (const d of catalog) byName.set(nameKey(d.name), [...(byName.get(nameKey(d.name)) ?? []), d]);
  const p = parentPositions(catalog, byName, new Map(catalog.map((d, i) => [d, i])));
  t.same([...p], [-1, 0, 0, -1, -1, -1, -1, -1, -1, -1], 'a repealed, absent or non-법률 parent and an 행정규칙 named so: none');
});

const data = process.env.SEJONG_LAW_QUALITY_DATA;
t.test('the full corpus: a plain question answered in a decree brings its 법률 into the first five', { skip: data ? false : 'SEJONG_LAW_QUALITY_DATA not set' }, async (t) => {
  const law = openLaw(new Store(data!));
  law.reload();
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
