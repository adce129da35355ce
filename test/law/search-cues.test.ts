// Question-type cues (src/law/search/question-cues.ts) and their weight in the article chosen inside a document
// (titles.ts): the kind of answer a plain question asks for, never the document's rank.
import t from 'tap';
import { questionCues } from '../../src/law/search/question-cues.js';
import { titleEvidence, titleSet } from '../../src/law/search/titles.js';
import { analyseQuery } from '../../src/law/search/query.js';

t.test('questionCues: the kind of a question as the title words of its answers', async (t) => {
  t.same(questionCues('여권은 몇 년마다 새로 만들어야 하나요'), ['기간', '기한', '시효']);
  t.same(questionCues('상속은 언제까지 포기해야 하나요'), ['기간', '기한', '시효']);
  t.same(questionCues('통장에 넣어둔 돈은 얼마까지 돌려받나요'), ['금액', '한도', '계산', '산정', '상한']);
  // any '…도 되나요' is a permission question (써도, 내도, 팔아도); its answers prohibit, restrict or permit
  for (const q of ['묘를 써도 되나요', '나눠서 내도 돼요', '웃돈 받고 팔아도 되나요', '앱을 깔면 문제가 되나요'])
    t.same(questionCues(q), ['금지', '제한', '허가', '승인', '준수사항'], q);
  t.same(questionCues('허락을 받아야 하나요'), ['허가', '승인']);
  t.same(questionCues('개인회생은 누가 신청할 수 있나요'), ['자격', '권자', '결정']);
  t.same(questionCues('갈비뼈가 부러지면 제가 책임져야 하나요'), ['면책', '배상', '보상']);
  t.same(questionCues('보험을 없던 일로 할 수 있나요'), ['철회', '해제', '해지', '취소']);
  // a cue the question writes itself is its own evidence already (허가를 받아야: 승인 is left)
  t.same(questionCues('허가를 받아야 하나요'), ['승인']);
  // no kind recognised
  t.same(questionCues('회사가 정당한 이유 없이 직원을 자를 수 있나요'), []);
});

t.test('analyseQuery: cues for plain questions only', async (t) => {
  t.same(analyseQuery('여권은 몇 년마다 새로 만들어야 하나요', new Map()).cues, ['기간', '기한', '시효']);
  t.same(analyseQuery('여권 유효기간', new Map()).cues, []);
});

t.test('a title holding a cue is chosen inside the document; the document score is the same as without cues', async (t) => {
  const titles = new Map([['P', titleSet(['목적', '여권의소지', '여권의유효기간', '여권등의반납등'])]]);
  const at = (cues: string[] | undefined) => {
    const out = [{ doc: { id: 'P', name: '여권법' }, score: 20, seqs: [3] }];
    titleEvidence(out, { named: [], core: '여권 새로', mapped: '', cues }, 12, (id) => titles.get(id) ?? null, () => '');
    return out[0]!;
  };
  const without = at(undefined), withCues = at(['기간', '기한']);
  // without a cue the word 여권 (in the law's own name) decides nothing: 여권의소지, the shortest title holding it
  t.equal(without.seqs[0], 1);
  // 몇 년마다 asks for a period: 여권의유효기간
  t.equal(withCues.seqs[0], 2);
  t.equal(withCues.score, without.score);
  // a cue title holding no word of the question is a candidate too (titleCueAlone): 보험금의계산등 for 얼마까지 when
  // no title holds a word of the question (the text's best article stays first without cues); the score is unchanged
  const t2 = new Map([['D', titleSet(['목적', '예금보험위원회', '보험금의계산등'])]]);
  const run = (cues: string[]) => {
    const out = [{ doc: { id: 'D', name: '예금자보호법' }, score: 20, seqs: [1] }];
    titleEvidence(out, { named: [], core: '은행 통장', mapped: '', cues }, 12, (id) => t2.get(id) ?? null, () => '');
    return out[0]!;
  };
  t.same(run([]), { doc: { id: 'D', name: '예금자보호법' }, score: 20, seqs: [1] });
  t.same(run(['금액', '한도', '계산']), { doc: { id: 'D', name: '예금자보호법' }, score: 20, seqs: [2, 1] });
});
