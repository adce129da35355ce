// Article-title evidence helpers (src/law/search/titles.ts): the k best hits (the set of a stable sort's first k,
// ties at the cut keep the earlier hits) and the titles found through the joined keys.
import t from 'tap';
import { bestOf, bodyChoice, bodyText, chooseArticles, spelledChoice, titleEvidence, titleSet } from '../../src/law/search/titles.js';

/** the reference: the first k of a stable sort by score, best first */
const stableTop = <H extends { score: number }>(out: H[], k: number) => out.slice().sort((a, b) => b.score - a.score).slice(0, k);

t.test('bestOf: the same set as the first k of a stable sort, ties at the cut keep the earlier hits', async (t) => {
  const hits = [5, 3, 9, 3, 3, 7, 1, 3, 9, 0].map((score, id) => ({ id, score }));
  for (let k = 1; k <= 11; k++) {
    const got = bestOf(hits, k).map((h) => h.id).sort((a, b) => a - b);
    const want = stableTop(hits, k).map((h) => h.id).sort((a, b) => a - b);
    t.same(got, want, `k = ${k}`);
  }
  // two of the four hits scoring 3 make the cut of 6 (ids 1 and 3, the earlier ones), in input order
  t.same(bestOf(hits, 6).map((h) => h.id), [0, 1, 2, 3, 5, 8]);
  // random scores with many ties against the reference
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let round = 0; round < 50; round++) {
    const xs = Array.from({ length: 40 + round }, (_, id) => ({ id, score: Math.floor(rnd() * 8) }));
    const k = 1 + Math.floor(rnd() * 30);
    t.same(bestOf(xs, k).map((h) => h.id).sort((a, b) => a - b), stableTop(xs, k).map((h) => h.id).sort((a, b) => a - b), `round ${round}`);
  }
});

t.test('titleEvidence: the title holding the most query words lifts its document and comes first', async (t) => {
  const titles = new Map([['A', titleSet(['목적', '정의', '근로시간', '휴게', '근로시간및휴게시간의특례', '연차유급휴가'])], ['B', titleSet(['목적', '벌칙'])]]);
  const out = [{ doc: { id: 'A' }, score: 10, seqs: [1, 4] }, { doc: { id: 'B' }, score: 12, seqs: [0] }];
  titleEvidence(out, { named: [], core: '휴게', mapped: '' }, 12, (id) => titles.get(id) ?? null, () => '');
  // 제… 휴게 (position 3) holds the word and is wholly covered by it: over the 특례 article that also holds it
  t.same(out[0]!.seqs, [3, 1, 4]);
  t.ok(Math.abs(out[0]!.score - (10 + 25 + 10 + 10 * 0.4)) < 1e-9, `score ${out[0]!.score}`);
  // B has no title with the word: unchanged
  t.same(out[1], { doc: { id: 'B' }, score: 12, seqs: [0] });
});

t.test('the article chosen inside a document: the words of its own name count less (국민연금연구원 is not the answer)', async (t) => {
  const titles = new Map([['N', titleSet(['목적', '국민연금연구원', '노령연금수급권자', '연금액'])]]);
  const hit = () => ({ doc: { id: 'N', name: '국민연금법' }, score: 10, seqs: [2, 3] });
  const q = { named: [], core: '국민연금 노령연금', mapped: '' };
  const a = [hit()];
  const done = titleEvidence(a, q, 12, (id) => titles.get(id) ?? null, () => '');
  // 노령연금 (a word not in the name) picks 노령연금수급권자 over 국민연금연구원 (which holds the name's word)
  t.equal(a[0]!.seqs[0], 2);
  t.ok(done.has(a[0]!));
  // only the name's word in the query: discounted alike everywhere, the title holding it still comes first
  const b = [hit()];
  b[0]!.seqs = [3, 2];
  titleEvidence(b, { named: [], core: '국민연금', mapped: '' }, 12, (id) => titles.get(id) ?? null, () => '');
  t.same(b[0]!.seqs, [1, 3, 2]);
  // the document's score still takes the title evidence of every word (10 + 25 × recall 1 + 10 + 10 × precision)
  t.ok(b[0]!.score > 40, `score ${b[0]!.score}`);
});

t.test('chooseArticles: the first hits the title evidence did not read get the same article choice, scores unchanged', async (t) => {
  const titles = new Map([['W', titleSet(['목적', '정의', '폐기물의투기금지등', '벌칙'])]]);
  const out = [{ doc: { id: 'W', name: '폐기물관리법' }, score: 50, seqs: [1, 2] }];
  const q = { named: [], core: '쓰레기', mapped: '폐기물 투기' };
  chooseArticles(out, 5, q, new Set(), (id) => titles.get(id) ?? null, () => '');
  t.same(out[0], { doc: { id: 'W', name: '폐기물관리법' }, score: 50, seqs: [2, 1] });
  // a hit already read is left alone
  const read = { doc: { id: 'W', name: '폐기물관리법' }, score: 50, seqs: [1, 2] };
  chooseArticles([read], 5, q, new Set([read]), (id) => titles.get(id) ?? null, () => '');
  t.same(read.seqs, [1, 2]);
});

t.test('bodyChoice: among the best title candidates, the article whose text holds more of the query words comes first', async (t) => {
  const { SEARCH_SWITCHES } = await import('../../src/law/search/switches.js');
  const titles = new Map([['M', titleSet(['목적', '부모의사망과인지청구의소', '상속의순위'])]]);
  const bodies = new Map([
    [1, '부모가 사망한 때에는 그 사망을 안 날부터 2년 내에 검사를 상대로 하여 인지청구의 소를 제기할 수 있고, 인지된 자는 상속인이 된다.'],
    [2, '다음 순위로 상속인이 된다. 1. 피상속인의 직계비속 2. 피상속인의 직계존속 3. 피상속인의 형제자매'],
  ]);
  const q = { named: [], core: '부모 상속', mapped: '' };
  const run = () => {
    const out = [{ doc: { id: 'M', name: '민법' }, score: 50, seqs: [1] }];
    titleEvidence(out, q, 12, (id) => titles.get(id) ?? null, () => '');
    const byTitle = out[0]!.seqs[0];
    bodyChoice(out, 3, q, (id) => titles.get(id) ?? null, () => '', (_id, s) => bodyText(bodies.get(s) ?? ''));
    return { byTitle, byBody: out[0]!.seqs[0], score: out[0]!.score };
  };
  const on = run();
  // each title holds one of the two words; 상속의 순위 is the more covered title and comes first by titles alone, but
  // only the text of 부모의 사망과 인지청구의 소 holds both words: it comes first, the score is the titles' alone
  t.equal(on.byTitle, 2);
  t.equal(on.byBody, 1);
  const w = SEARCH_SWITCHES.titleBody;
  SEARCH_SWITCHES.titleBody = 0;
  try {
    const off = run();
    t.equal(off.byBody, 2, 'switch off: the title choice stays');
    t.equal(off.score, on.score);
  } finally { SEARCH_SWITCHES.titleBody = w; }
});

t.test('spelledChoice: an instrument the question spells shows the article whose text holds most of its other words', async (t) => {
  // 학교급식법's titles (a shortened copy): the titles holding 급식 are most of them; the question's other words
  // (수급자, 기초생활 — mapped — and 형편) are in the text of 9 only
  const titles = new Map([['S', titleSet(['목적', '정의', '학교급식대상', '경비부담등', '급식에관한경비의지원'])]]);
  const bodies = ['이 법은 학교급식 등에 관한 사항을 규정한다', '학교급식이란 …', '학교급식은 유치원 및 학교에 재학하는 학생을 대상으로 실시한다',
    '학교급식에 드는 경비는 보호자가 부담한다', '국가 또는 지방자치단체는 국민기초생활 보장법에 따른 수급자인 학생에게 급식에 드는 경비를 지원할 수 있다'];
  const q = { named: [], core: '형편 어려운 아이 학교 급식비', mapped: '급식 수급자 기초생활' };
  const h = { doc: { id: 'S', name: '학교급식법' }, score: 10, seqs: [2] };
  spelledChoice(h, q, (id) => titles.get(id) ?? null, (_id, s) => bodyText(bodies[s]!));
  t.same(h.seqs, [4, 2]);
  t.equal(h.score, 10, 'the choice never changes the score');
  // no titles persisted: left as it was
  const none = { doc: { id: 'X', name: '학교급식법' }, score: 1, seqs: [1] };
  spelledChoice(none, q, () => null, () => '');
  t.same(none.seqs, [1]);
});
