// Statute short names the corpus declares or a query spells (declared-names.ts, issue #15). Pure functions: no corpus
// needed.
import t from 'tap';
import { SpelledShortNames, usableShortName, withDeclared } from '../../src/law/search/declared-names.js';
import { DECLARED_ABBREVIATIONS } from '../../src/law/search/declared-abbreviations.js';
import { nameKey } from '../../src/law/normalize.js';

t.test('a declared short name is kept when its syllables are the name\'s, in order, and not just its last word', async (t) => {
  t.equal(usableShortName('공수처법', '고위공직자범죄수사처 설치 및 운영에 관한 법률'), true);
  t.equal(usableShortName('산업집적법', '산업집적활성화 및 공장설립에 관한 법률'), true);
  t.equal(usableShortName('안전법', '철도안전법'), false);
  t.equal(usableShortName('촉진법', '중소기업기술혁신 촉진법'), false);
  t.equal(usableShortName('준용법', '국가유공자 등 예우 및 지원에 관한 법률'), false);
  t.equal(usableShortName('법', '민법'), false);
});

t.test('the generated table holds corpus declarations and leaves the generic ones out', async (t) => {
  t.same(DECLARED_ABBREVIATIONS['공수처법']?.[0], '고위공직자범죄수사처 설치 및 운영에 관한 법률');
  t.same(DECLARED_ABBREVIATIONS['대리점법']?.[0], '대리점거래의 공정화에 관한 법률');
  t.same(DECLARED_ABBREVIATIONS['보험료징수법']?.[0], '고용보험 및 산업재해보상보험의 보험료징수 등에 관한 법률');
  for (const generic of ['기본법', '안전법', '촉진법', '특별법', '발전법', '징수법']) t.equal(DECLARED_ABBREVIATIONS[generic], undefined, generic);
});

t.test('withDeclared adds declared names of statutes in the store; the table wins', async (t) => {
  const table = new Map([[nameKey('공수처법'), '다른 법률']]);
  const byName = new Map<string, unknown[]>([[nameKey('대리점거래의 공정화에 관한 법률'), [{}]], [nameKey('고위공직자범죄수사처 설치 및 운영에 관한 법률'), [{}]]]);
  const m = withDeclared(table, byName);
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
