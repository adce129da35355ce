// nameKeyLines (src/law/normalize.ts): the keys of a document's article titles in one pass, as nameKey of each line.
import t from 'tap';
import { nameKey, nameKeyLines, nameKeyText } from '../../src/law/normalize.js';

t.test('the same keys as nameKey line by line', async (t) => {
  const titles = ['목적', '정의 (定義)', '근로시간 및 휴게시간의 특례', 'ＡＢＣ 기준・절차', '', '삭제 <2020. 1. 1.>', '제3자 제공ㆍ위탁', 'Σ 그리스'];
  const text = titles.join('\n');
  t.same(nameKeyLines(text), titles.map(nameKey));
  t.same(nameKeyLines(text), ['목적', '정의定義', '근로시간및휴게시간의특례', 'abc기준절차', '', '삭제202011', '제3자제공위탁', 'σ그리스']);
});

t.test('nameKey by its character table keeps what the Unicode property regex keeps, for every BMP character', async (t) => {
  const dots = /[\u00B7\u30FB\u2027\uFF65\u2219\u22C5\u119E\u318D]/g;
  const byRegex = (s: string) => s.normalize('NFKC').replace(dots, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const differ: number[] = [];
  for (let c = 0; c < 65536; c++) {
    const s = `a${String.fromCharCode(c)}가 ${String.fromCharCode(c)}`;
    if (nameKey(s) !== byRegex(s)) differ.push(c);
  }
  t.same(differ, []);
  // beyond the BMP (a surrogate pair) the regex answers
  t.equal(nameKey('𠀀법 제1조'), '𠀀법제1조');
  t.equal(nameKey('개인정보 보호법・시행령'), '개인정보보호법시행령');
  t.equal(nameKey('İ 법'), byRegex('İ 법'));
});

t.test('nameKeyText is the keys of nameKeyLines joined; titleSet and titleKey give each title key back', async (t) => {
  const { titleSet, titleKey } = await import('../../src/law/search/titles.js');
  for (const text of ['목적\n정의(定義)\n\n제3자 제공·위탁', '', '벌칙', '\n', '근로시간 및 휴게시간의 특례\n연차 유급휴가\n']) {
    const keys = nameKeyLines(text);
    t.equal(nameKeyText(text), keys.join('\n'));
    const ts = titleSet(nameKeyText(text));
    t.same(Array.from({ length: ts.starts.length }, (_, s) => titleKey(ts, s)), keys);
    t.same(titleSet(keys), ts);
  }
});
