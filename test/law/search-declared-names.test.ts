// Statute short names the corpus declares or a query spells (declared-names.ts, declared-table.ts, issue #15). Pure
// functions over a few real names and declarations as the statutes write them: no corpus needed.
import t from 'tap';
import type { DocRec } from '../../src/law/parse.js';
import { SpelledShortNames, usableShortName, withDeclared } from '../../src/law/search/declared-names.js';
import { DeclaredCollector } from '../../src/law/search/declared-table.js';
import { nameKey } from '../../src/law/normalize.js';

t.test('a declared short name is kept when its syllables are the name\'s, in order, and not just its last word', async (t) => {
  t.equal(usableShortName('공수처법', '고위공직자범죄수사처 설치 및 운영에 관한 법률'), true);
  t.equal(usableShortName('산업집적법', '산업집적활성화 및 공장설립에 관한 법률'), true);
  t.equal(usableShortName('안전법', '철도안전법'), false);
  t.equal(usableShortName('촉진법', '중소기업기술혁신 촉진법'), false);
  t.equal(usableShortName('준용법', '국가유공자 등 예우 및 지원에 관한 법률'), false);
  t.equal(usableShortName('법', '민법'), false);
});

const law = (name: string, category = 'law', repealed = false) => ({ id: name, name, category, repealed }) as unknown as DocRec;
const byNameOf = (docs: DocRec[]) => new Map(docs.map((d) => [nameKey(d.name), [d]]));

t.test('the declarations an index build reads: kept when they name one current 법률 and read as its short name', async (t) => {
  const store = byNameOf([
    law('고위공직자범죄수사처 설치 및 운영에 관한 법률'), law('대리점거래의 공정화에 관한 법률'), law('근로기준법'),
    law('중소기업기술혁신 촉진법'), law('벤처기업육성에 관한 특별법'), law('구 대리점법', 'law', true),
  ]);
  const c = new DeclaredCollector();
  c.visit('A', '① 「고위공직자범죄수사처 설치 및 운영에 관한 법률」(이하 "공수처법"이라 한다) 제2조에 따른 고위공직자');
  c.visit('B', '「고위공직자범죄수사처 설치 및 운영에 관한 법률」 (이하 “공수처법”이라 한다)');
  c.visit('B', '「대리점거래의 공정화에 관한 법률」(이하 "대리점법"이라 한다)와 「중소기업기술혁신 촉진법」(이하 "촉진법"이라 한다)');
  // the built-in table's own short name, a declaration for a statute this store lacks, one without 이하
  c.visit('C', '「근로기준법」(이하 "근기법"이라 한다) 「산업집적활성화 및 공장설립에 관한 법률」(이하 "산업집적법"이라 한다)');
  c.visit('C', '「대리점거래의 공정화에 관한 법률」("대리점법"이라 한다)');
  t.equal(c.articles, 5);
  const { kept, dropped } = c.table(store);
  t.same(kept, [['공수처법', '고위공직자범죄수사처 설치 및 운영에 관한 법률', 2], ['대리점법', '대리점거래의 공정화에 관한 법률', 1]]);
  t.same(dropped.map(([short, , , why]) => [short, why]), [
    ['근기법', 'in the table'],
    ['산업집적법', 'not a current 법률 of the store'],
    ['촉진법', 'generic (a tail of the name, or not its syllables in order)'],
  ]);
});

t.test('withDeclared adds declared names of statutes in the store; the table wins', async (t) => {
  const table = new Map([[nameKey('공수처법'), '다른 법률']]);
  const byName = new Map<string, unknown[]>([[nameKey('대리점거래의 공정화에 관한 법률'), [{}]], [nameKey('고위공직자범죄수사처 설치 및 운영에 관한 법률'), [{}]]]);
  const declared: Array<[string, string, number]> = [['공수처법', '고위공직자범죄수사처 설치 및 운영에 관한 법률', 1], ['대리점법', '대리점거래의 공정화에 관한 법률', 3], ['산업집적법', '산업집적활성화 및 공장설립에 관한 법률', 1]];
  const m = withDeclared(table, declared, byName);
  t.equal(m.get(nameKey('공수처법')), '다른 법률');
  t.equal(m.get(nameKey('대리점법')), '대리점거래의 공정화에 관한 법률');
  // a statute not in this store: not added
  t.equal(m.get(nameKey('산업집적법')), undefined);
  t.equal(table.size, 1);
});

t.test('a word spelling one statute\'s name in order names it; two candidates or a short word name none', async (t) => {
  const s = new SpelledShortNames([
    { name: '개발제한구역의 지정 및 관리에 관한 특별조치법' }, { name: '노동조합 및 노동관계조정법' }, { name: '노동위원회법' },
    { name: '산업안전보건법' }, { name: '산업재해보상보험법' },
  ]);
  t.equal(s.resolve('개발제한구역법'), '개발제한구역의 지정 및 관리에 관한 특별조치법');
  t.equal(s.resolve('노동관계법'), '노동조합 및 노동관계조정법');
  // 노동조합 및 노동관계조정법 holds no 위: one statute
  t.equal(s.resolve('노동위원법'), '노동위원회법');
  // a statute's own name names it, not another it spells
  t.equal(s.resolve('노동위원회법'), null);
  t.equal(s.resolve('노동법'), null);
  t.equal(s.resolve('산업보험법'), '산업재해보상보험법');
  t.equal(s.resolve('산업법'), null);
  t.equal(s.resolve('개발구역'), null);
  // everyday words ending in 법 (a method, how to) name no statute
  t.equal(s.resolve('개발제한방법'), null);
  t.equal(s.resolve('산업보험하는법'), null);
});
