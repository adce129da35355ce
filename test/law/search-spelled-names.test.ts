// Instruments whose distinctive name a question spells in its own words (spelled-names.ts, issue #15). A small
// catalogue of real names: no corpus needed.
import t from 'tap';
import type { DocRec } from '../../src/law/parse.js';
import { tokens } from '../../src/law/normalize.js';
import { SpelledNames } from '../../src/law/search/spelled-names.js';

const doc = (name: string, category = 'law', repealed = false) => ({ id: name, name, category, repealed }) as unknown as DocRec;
const catalog = [
  doc('변호사시험법'), doc('변호사시험법 시행령', 'decree'), doc('변호사법'), doc('학교급식법'), doc('학교급식법 시행령', 'decree'),
  doc('장애정도심사규정', 'admrul'), doc('장애인복지법'), doc('관공서의 공휴일에 관한 규정', 'decree'), doc('공휴일에 관한 법률'),
  doc('민원 처리에 관한 법률'), doc('폐지된 시험법', 'law', true), doc('병역법'), doc('장애인활동 지원에 관한 법률'),
];
const names = (sp: SpelledNames, q: string, min?: number) => sp.find(tokens(q), min).map((s) => s.doc.name).sort();

t.test('words written apart, with particles, spell the whole name less its kind ending', async (t) => {
  const sp = SpelledNames.of(catalog);
  t.same(names(sp, '로스쿨을 졸업하면 변호사 시험은 몇 번까지 볼 수 있나요'), ['변호사시험법']);
  t.same(names(sp, '장애 정도 심사 결과에 이의가 있으면 며칠 안에 신청하나요'), ['장애정도심사규정']);
  // in any order, and the last word may run one syllable past the name (급식비 spells 급식)
  t.same(names(sp, '급식비를 학교에서 내야 하나요'), ['학교급식법']);
  // the name's connectives need not be written (관공서의 공휴일 → 관공서 공휴일; 민원 처리에 관한 → 민원 처리)
  t.same(names(sp, '관공서 공휴일은 언제인가요'), ['관공서의 공휴일에 관한 규정']);
  t.same(names(sp, '민원 처리 기간에 공휴일도 들어가나요'), ['민원 처리에 관한 법률']);
  // …인 'person' is left out in speech (장애가 있는 → 장애인): 장애 + 활동지원 spells 장애인활동 지원
  t.same(names(sp, '장애가 있는 아버지가 활동지원 서비스를 못 받나요'), ['장애인활동 지원에 관한 법률']);
  const f = sp.find(tokens('변호사 시험 응시 횟수'))[0]!;
  t.equal(f.words, 2);
  t.equal(f.names, 2, 'two current names hold 변호사시험 (the act and its decree)');
});

t.test('one word, part of a name, a decree named by 시행령 or a repealed name spells nothing', async (t) => {
  const sp = SpelledNames.of(catalog);
  // 변호사 alone is a word of two names, not their spelling; 학교 without 급식 spells no name
  t.same(names(sp, '변호사를 선임해야 하나요'), []);
  t.same(names(sp, '학교에서 다쳤어요'), []);
  // one word that is the whole stem spells it only when asked for with min = 1 (공휴일 → 공휴일에 관한 법률)
  t.same(names(sp, '공휴일에 쉬나요'), []);
  t.same(names(sp, '공휴일에 쉬나요', 1), ['공휴일에 관한 법률']);
  // the 시행령 is named by its statute's name and 시행령, never spelled here; the repealed law is not a candidate
  t.notOk(names(sp, '변호사 시험 시행령').includes('변호사시험법 시행령'));
  t.same(names(sp, '폐지된 시험 문제'), []);
  // two words that do not make up the whole name (장애 정도 without 심사)
  t.same(names(sp, '장애 정도가 심하면'), []);
});

t.test('a stem held by many names of the catalogue is a generic phrase: no evidence', async (t) => {
  const many = [doc('안전관리규정', 'admrul'), ...Array.from({ length: 13 }, (_, i) => doc(`제${i + 1}종 안전관리 기준`, 'admrul'))];
  const sp = SpelledNames.of(many);
  t.same(names(sp, '안전 관리는 누가 하나요'), []);
  const few = SpelledNames.of(many.slice(0, 5));
  t.same(names(few, '안전 관리는 누가 하나요'), ['안전관리규정']);
});
