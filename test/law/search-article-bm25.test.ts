// The article choice's BM25-like weight of its candidate texts (src/law/search/article-bm25.ts, switch titleBm25):
// counts of the question's words, saturating, discounted for long texts, times each word's weight, as a share of the
// best candidate's.
import t from 'tap';
import { candidateBm25 } from '../../src/law/search/article-bm25.js';

t.test('candidateBm25: the text repeating the words in fewer characters weighs most; values as BM25 (k1 1.2, b 0.75)', async (t) => {
  const words = [{ w: '소멸시효', wt: 1 }, { w: '채권', wt: 0.5 }];
  const texts = ['채권은10년간행사하지아니하면소멸시효가완성한다채권및소유권이외의재산권은20년간행사하지아니하면소멸시효가완성한다',
    '금전채권은다른특약이없으면이행기에지급하여야한다', '매매계약은당사자일방이재산권을이전할것을약정하고상대방이대금을지급할것을약정함으로써효력이생긴다'];
  const v = candidateBm25(words, texts);
  t.equal(v[0], 1, 'the best candidate is 1');
  t.equal(v[2], 0, 'a text without a word is 0');
  // by hand: mean length, the second text's one 채권 (tf 1, weight 0.5) against the first's two 소멸시효 and two 채권
  const avg = (texts[0]!.length + texts[1]!.length + texts[2]!.length) / 3;
  const part = (tf: number, len: number, wt: number) => wt * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / avg));
  const first = part(2, texts[0]!.length, 1) + part(2, texts[0]!.length, 0.5), second = part(1, texts[1]!.length, 0.5);
  t.ok(Math.abs(v[1]! - second / first) < 1e-12, `second candidate ${v[1]} = ${second / first}`);
  t.ok(v[1]! > 0 && v[1]! < 0.5, 'one 채권 of half weight is well below two 소멸시효 and two 채권');
});

t.test('candidateBm25: a word counted once per occurrence, not overlapping; no word anywhere → all 0', async (t) => {
  // '갱신갱신' (4 characters, tf 2) and '갱신' (2, tf 1), mean length 3
  const v = candidateBm25([{ w: '갱신', wt: 1 }], ['갱신갱신', '갱신']);
  const two = 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 4 / 3)), one = 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / 3));
  t.equal(v[0], 1);
  t.ok(Math.abs(v[1]! - one / two) < 1e-12, `${v[1]} = ${one / two}`);
  t.same([...candidateBm25([{ w: '해고', wt: 1 }], ['임금', '휴가'])], [0, 0]);
  t.same([...candidateBm25([{ w: '해고', wt: 1 }], [])], []);
});
