// The terms the corpus defines, reached by the rare words of their definitions (expand24, defined-terms.ts): the
// collector reads definition articles as the index build shows them, the table keeps only words in few definitions,
// and a plain question's word adds the terms it is defined into as a mapped group of that word. Pure: made-up
// articles written as the statutes write them.
import t from 'tap';
import { DefinedTerms, DefinitionCollector, MAX_TERMS_STORED } from '../../src/law/search/defined-terms.js';
import { analyseQuery } from '../../src/law/search/query.js';

const INFECTIOUS = '이 법에서 사용하는 용어의 뜻은 다음과 같다.\n  1. "감염병"이란 제1급감염병, 제2급감염병을 말한다.\n' +
  '  2. "제2급감염병"이란 격리가 필요한 다음 각 목의 감염병을 말한다.\n    가. 결핵(結核)\n    나. 수두(水痘)\n    다. 홍역(紅疫)\n' +
  '  3. "관리청"이란 질병관리청장이 지정하는 기관을 말한다.';
const BUILDERS = '  5. "퇴직공제(退職共濟)"란 사업주가 건설근로자를 피공제자로 하여 공제부금을 내고 건설근로자공제회가 퇴직공제금을 지급하는 것을 말한다.\n' +
  '  6. "대통령령으로 정하는 기간"이란 수두가 유행하는 기간을 말한다.';

function table(...articles: string[]) {
  const c = new DefinitionCollector();
  for (const a of articles) c.visit(a);
  return c.table();
}

t.test('a definition body ends at the next numbered item; its lettered items belong to it', async (t) => {
  const d = new DefinedTerms(table(INFECTIOUS));
  t.same(d.termsOf('수두', 2), ['제2급감염병']);
  t.same(d.termsOf('결핵', 2), ['제2급감염병']);
  // 질병관리청장 is in item 3 only, not in the body of item 2
  t.same(d.termsOf('질병관리청장', 2), ['관리청']);
  // a word that is part of the term itself is no equivalence (its bigrams already match)
  t.same(d.termsOf('감염병', 2), []);
});

t.test('the term\'s own hanja is dropped; a term that only defers to a decree is not kept', async (t) => {
  const d = new DefinedTerms(table(INFECTIOUS, BUILDERS));
  t.same(d.termsOf('공제부금', 2), ['퇴직공제']);
  t.same(d.termsOf('수두', 2), ['제2급감염병']);
});

t.test('a word in the definitions of many terms is dropped from the table, and gated by the query side', async (t) => {
  const many = Array.from({ length: MAX_TERMS_STORED + 1 }, (_, i) => `  ${i + 1}. "용어${'가나다라마바'[i]}"란 근로자가 하는 일을 말한다.`).join('\n');
  const tb = table(many);
  t.equal(tb.words.find(([w]) => w === '근로자'), undefined);
  const three = new DefinedTerms(table(many.split('\n').slice(0, 3).join('\n')));
  t.equal(three.termsOf('근로자', 3).length, 3);
  t.same(three.termsOf('근로자', 2), []);
});

t.test('expand: a plain question gains the defined terms as mapped groups of its word; a keyword query does not', async (t) => {
  const d = new DefinedTerms(table(INFECTIOUS));
  const aq = analyseQuery('아이가 수두에 걸렸는데 학교에 가도 되나요', new Map());
  t.equal(aq.plain, true);
  const x = d.expand(aq, 2);
  t.equal(x.mappedGroups!.at(-1), '제2급감염병');
  t.equal(x.mappedFrom!.at(-1), '수두');
  t.match(x.text, /제2급감염병$/);
  t.ok(x.mapped.split(' ').includes('제2급감염병'));
  t.ok(x.words.includes('제2급감염병'));
  // off, or a keyword query: the analysis unchanged
  t.equal(d.expand(aq, 0), aq);
  const kw = analyseQuery('수두 격리', new Map());
  t.equal(kw.plain, false);
  t.equal(d.expand(kw, 2), kw);
});
