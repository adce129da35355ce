// nameKeyLines (src/law/normalize.ts): the keys of a document's article titles in one pass, as nameKey of each line.
import t from 'tap';
import { nameKey, nameKeyLines } from '../../src/law/normalize.js';

t.test('the same keys as nameKey line by line', async (t) => {
  const titles = ['목적', '정의 (定義)', '근로시간 및 휴게시간의 특례', 'ＡＢＣ 기준・절차', '', '삭제 <2020. 1. 1.>', '제3자 제공ㆍ위탁', 'Σ 그리스'];
  const text = titles.join('\n');
  t.same(nameKeyLines(text), titles.map(nameKey));
  t.same(nameKeyLines(text), ['목적', '정의定義', '근로시간및휴게시간의특례', 'abc기준절차', '', '삭제202011', '제3자제공위탁', 'σ그리스']);
});
