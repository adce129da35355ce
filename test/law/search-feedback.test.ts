// Pseudo-relevance feedback (expand24, feedback.ts): the words that the first pass's best articles of different
// instruments share, rare in the corpus and not asked, join the question as one mapped group. Pure: made-up article
// texts and a made-up document frequency.
import t from 'tap';
import { feedbackWords, withFeedback } from '../../src/law/search/feedback.js';
import { analyseQuery } from '../../src/law/search/query.js';

const aq = analyseQuery('건설 현장에서 일용직으로 일했는데 퇴직금 같은 돈을 받을 수 있나요', new Map());
const TEXTS = [
  '건설근로자공제회는 피공제자가 건설업에서 퇴직한 경우에 퇴직공제금을 지급하여야 한다.',
  '사업주는 건설근로자를 피공제자로 하여 공제부금을 납부하여야 한다. 퇴직공제금의 지급에 관하여는 대통령령으로 정한다.',
  '근로자가 퇴직한 경우에는 퇴직금을 지급하여야 한다.',
];
const DF: Record<string, number> = { 퇴직공제금: 40, 피공제자: 30, 지급하여야: 9000, 경우에: 20000, 퇴직한: 800 };
const df = (w: string) => DF[w] ?? 0;

t.test('words of at least two articles, rare enough, best first; words asked or too common are not added', async (t) => {
  t.equal(aq.plain, true);
  const w = feedbackWords(TEXTS, aq, df, { words: 4, maxDf: 3000, N: 400_000 });
  // 피공제자 is rarer than 퇴직공제금 (both in two texts); 퇴직한 (three texts) is common enough to rank after them
  t.same(w, ['피공제자', '퇴직공제금', '퇴직한']);
  t.same(feedbackWords(TEXTS, aq, df, { words: 1, maxDf: 3000, N: 400_000 }), ['피공제자']);
  // 지급하여야 (9,000 articles) is past maxDf; a word of one text only (공제부금) is no shared word
  t.notOk(w.includes('지급하여야'));
  t.notOk(w.includes('공제부금'));
  t.same(feedbackWords(TEXTS.slice(0, 1), aq, df, { words: 4, maxDf: 3000, N: 400_000 }), []);
});

t.test('withFeedback: the words as one mapped group of no question word; none: the question unchanged', async (t) => {
  const x = withFeedback(aq, ['피공제자', '퇴직공제금']);
  t.equal(x.mappedGroups!.at(-1), '피공제자 퇴직공제금');
  t.equal(x.mappedFrom!.at(-1), '');
  t.match(x.text, /피공제자 퇴직공제금$/);
  t.ok(x.mapped.endsWith('피공제자 퇴직공제금'));
  t.ok(x.words.includes('퇴직공제금'));
  t.equal(withFeedback(aq, []), aq);
});
