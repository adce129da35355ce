// Query analysis of law search (no corpus needed): abbreviations inside phrases, endings, filler, synonyms.
import t from 'tap';
import { analyseQuery } from '../../src/law/search/query.js';
import { ABBREVIATIONS } from '../../src/law/search.js';
import { snippetOf, priorOf } from '../../src/law/search/rank.js';
import { nameKey } from '../../src/law/normalize.js';
import type { DocRec } from '../../src/law/parse.js';

const abbr = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [nameKey(k), v]));

t.test('abbreviations are expanded inside phrases, not only alone', async (t) => {
  const a = analyseQuery('특가법 도주차량', abbr);
  t.same(a.named, ['특정범죄 가중처벌 등에 관한 법률']);
  t.equal(a.core, '특정범죄 가중처벌 등에 관한 법률 도주차량');
  t.same(analyseQuery('정통망법 제44조의7 삭제요청', abbr).named, ['정보통신망 이용촉진 및 정보보호 등에 관한 법률']);
  t.same(analyseQuery('국계법 부정당업자', abbr).named, ['국가를 당사자로 하는 계약에 관한 법률']);
  t.same(analyseQuery('산재 보상', abbr).named, ['산업재해보상보험법']);
  t.same(analyseQuery('근기법의 연차', abbr).named, ['근로기준법']);
});

t.test('question endings, particles and filler words are dropped; everyday words add statutory terms', async (t) => {
  const a = analyseQuery('회사가 연차휴가를 안 주면 어떻게 되나요', abbr);
  t.match(a.core, /^회사 연차휴가( |$)/);
  t.notMatch(a.core, /어떻게|되나요|안/);
  t.equal(a.plain, true);
  t.match(a.text, /연차 유급휴가/);
  // predicates of a question are dropped; the statutory terms they map to stay
  const h = analyseQuery('해고하려면 언제까지 미리 알려야 하나요', abbr);
  t.notMatch(h.core, /하려면|알려야|언제까지|미리/);
  t.match(h.mapped, /해고/);
  t.equal(analyseQuery('근로조건 명시 서면', abbr).core, '근로조건 명시 서면');
  const b = analyseQuery('술 마시고 운전하면 처벌받나요', abbr);
  t.match(b.text, /음주/);
  t.match(b.text, /^술 /);
  t.match(analyseQuery('전세 보증금 돌려받기', abbr).text, /임대차/);
  t.match(analyseQuery('쉬는 시간은 얼마나 줘야 하나요', abbr).text, /휴게시간/);
  t.equal(analyseQuery('연장근로 가산임금', abbr).plain, false);
});

t.test('compound nouns ending like a verb stay; the noun of a 하다/되다/받다 verb is kept', async (t) => {
  // 신고, 감면 end in 고/면 but are nouns: not stripped, not dropped as predicates
  t.equal(analyseQuery('출생신고 기간', abbr).core, '출생신고 기간');
  t.equal(analyseQuery('출생신고 기간', abbr).plain, false);
  t.equal(analyseQuery('취득세 감면', abbr).core, '취득세 감면');
  t.equal(analyseQuery('술 마시고 운전하면 처벌받나요', abbr).core, '술 운전');
  t.equal(analyseQuery('해고하려면 언제까지 미리 알려야 하나요', abbr).core, '해고');
  t.equal(analyseQuery('이미 지급한 임금', abbr).core, '지급 임금');
  // nouns ending in the verb syllable stay whole (방해, 제한, 산업재해)
  t.equal(analyseQuery('공무집행방해', abbr).core, '공무집행방해');
  t.equal(analyseQuery('권한의 위임', abbr).core, '권한 위임');
  t.equal(analyseQuery('산업재해', abbr).core, '산업재해');
  // an offence written with 죄 searches the act; a one-syllable noun keeps its noun
  t.equal(analyseQuery('절도죄', abbr).core, '절도');
  t.equal(analyseQuery('거짓말로 돈을 받아내면 무슨 죄인가요', abbr).core, '거짓말 돈');
  t.equal(analyseQuery('도로 허가 휴가', abbr).core, '도로 허가 휴가');
  // the polite spoken verb form (갚아요, 와요) is a predicate of a plain question; 필요, 주요 are nouns
  const p = analyseQuery('친구가 돈을 안 갚아요', abbr);
  t.equal(p.core, '친구 돈');
  t.equal(p.plain, true);
  t.equal(analyseQuery('택배가 안 와요', abbr).core, '택배');
  t.equal(analyseQuery('필요 서류', abbr).core, '필요 서류');
});

t.test('snippets show the hit; the parent law and often-cited names get a higher prior', async (t) => {
  const s = snippetOf({ no: '1', title: '가', content: '가나다라마바사 '.repeat(10) + '연차 유급휴가를 주어야 한다. ' + '끝'.repeat(100) }, ['유급휴가']);
  t.match(s, /^….*연차 유급휴가를 주어야 한다.*…$/);
  t.ok(s.length <= 82);
  // the window holding most of the query's words, not the first place a common one appears
  const body = '이 법에서 사용하는 용어의 경우 ' + '다'.repeat(120) + ' 사용자는 근로자가 청구한 경우 연차 유급휴가를 주어야 한다 ' + '라'.repeat(120);
  const d = snippetOf({ no: '60', title: '연차 유급휴가', content: body }, ['경우', '유급휴가', '사용자']);
  t.match(d, /사용자는 근로자가 청구한 경우 연차 유급휴가를 주어야 한다/);
  t.notMatch(d, /용어의/);
  // equal windows: the earlier one
  t.match(snippetOf({ no: '1', title: '', content: '휴가 ' + '마'.repeat(200) + ' 휴가' }, ['휴가']), /^휴가 마/);
  const doc = (category: DocRec['category']) => ({ category } as DocRec);
  t.ok(priorOf(doc('law'), 0) > priorOf(doc('decree'), 0));
  t.ok(priorOf(doc('decree'), 0) > priorOf(doc('rule'), 0));
  t.ok(priorOf(doc('rule'), 0) > priorOf(doc('admrul'), 0));
  t.ok(priorOf(doc('law'), 500) > priorOf(doc('law'), 3));
});
