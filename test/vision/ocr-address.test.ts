// Lexicon repair of province and city/district names in OCR'd addresses and issuing authorities.
import t from 'tap';
import { repairAddress, repairIssuer, matchPrefix, editDistance, knownIssuer } from '../../src/vision/ocr-address.js';

t.test('jamo-weighted edit distance', async (t) => {
  t.equal(editDistance('종로구', '종로구'), 0);
  t.equal(Math.round(editDistance('총로구', '종로구') * 3), 1, 'one initial consonant differs: 1/3');
  t.equal(editDistance('ab', 'abc'), 1, 'an insertion costs 1');
});

t.test('addresses: misread province and district names are mended, the rest kept', async (t) => {
  t.equal(repairAddress('서물특별시총로구테에란로6도 119동303호'), '서울특별시 종로구 테에란로6도 119동 303호');
  t.equal(repairAddress('대진망적시중구세종대로 1동'), '대전광역시 중구 세종대로 1동');
  t.equal(repairAddress('부산갈역지해운대규증암때로'), '부산광역시 해운대구 증암때로');
  t.equal(repairAddress('서울특별시 마포구 달구벌대로 265 109동 204호'), '서울특별시 마포구 달구벌대로 265 109동 204호', 'a clean address is unchanged');
  t.equal(repairAddress('경기도 수원시 팔달로 1'), '경기도 수원시 팔달로 1');
  t.equal(repairAddress('부산광역시 동래구 한받대로 105동801로'), '부산광역시 동래구 한받대로 105동 801호', '호 read as 로 after the flat number');
  // 연주구 is as near 연수구 as 연제구, but 연제구 is in Busan: within Incheon's districts it is 연수구
  t.equal(repairAddress('인천광역시 연주구세종대로의 102돔200로'), '인천광역시 연수구 세종대로의 102동 200호');
  t.equal(repairAddress('서울특별시 강구 테헤란로 1'), '서울특별시 강구 테헤란로 1', 'as near 강남구, 강북구, 강서구, 강동구: as read');
  t.equal(repairAddress('123 Main Street'), '123 Main Street', 'nothing near the lexicon: unchanged');
});

t.test('an ambiguous read is left alone', async (t) => {
  // 대?광역시: the second syllable unreadable, as close to 대구 as to 대전 — left as read
  t.equal(matchPrefix('대?광역시', ['대구광역시', '대전광역시']), null);
  t.same(matchPrefix('대전광역시중구', ['대구광역시', '대전광역시']), { name: '대전광역시', used: 5 });
});

t.test('issuing authorities', async (t) => {
  t.equal(repairIssuer('시물특별시경찰정장'), '서울특별시경찰청장');
  t.equal(repairIssuer('서율특별시종로구징장'), '서울특별시 종로구청장');
  t.equal(repairIssuer('인천광으시부명구정장'), '인천광역시 부평구청장');
  t.equal(repairIssuer('부산출입국외국인청장'), '부산출입국외국인청장');
  t.equal(repairIssuer('부산출입국외국인정장'), '부산출입국외국인청장');
  t.equal(repairIssuer('서울특별시 종로구청장'), '서울특별시 종로구청장');
  t.equal(repairIssuer('전혀 다른 글'), '전혀 다른 글', 'no title at the end: unchanged');
});

t.test('addresses: the flat number, a city known from its district, 대로 look-alikes (ocr21)', async (t) => {
  // 동 / 호 read as other syllables or marks after the two numbers of the flat; a floor (층) is left alone
  t.equal(repairAddress('대구광역시 달서구 세좀대로 362 106톰 1003추'), '대구광역시 달서구 세좀대로 362 106동 1003호');
  t.equal(repairAddress('서울특별시 종로구 달구벌대로 144 프114능 801호'), '서울특별시 종로구 달구벌대로 144 114동 801호');
  t.equal(repairAddress('인천광역시 부평구 인주대로 8 100동1402'), '인천광역시 부평구 인주대로 8 100동 1402호');
  t.equal(repairAddress('서울특별시 중구 세종대로 12 3층 301호'), '서울특별시 중구 세종대로 12 3층 301호');
  // the city half lost under glare: 광산구 is only in 광주, 강남구 only in 서울
  t.equal(repairAddress('광역시 광산구 중앙대로 66'), '광주광역시 광산구 중앙대로 66');
  t.equal(repairAddress('으시 감남구 테헤란로 219'), '서울특별시 강남구 테헤란로 219');
  t.equal(repairAddress('광역시 중구 중앙대로 66'), '광역시 중구 중앙대로 66', '중구 is in five cities: left as read');
  // within a city's own districts: 룩구 is 북구 in 대구
  t.equal(repairAddress('대구광역시 룩구 중앙대로 132'), '대구광역시 북구 중앙대로 132');
  t.equal(repairAddress('부산광역시 동래구 연주태로 19'), '부산광역시 동래구 연주대로 19');
});

t.test('known issuing authorities', async (t) => {
  t.equal(knownIssuer('서울특별시 종로구청장'), true);
  t.equal(knownIssuer('서울특별시경찰청장'), true);
  t.equal(knownIssuer('부산출입국외국인청장'), true);
  t.equal(knownIssuer('대출입국외국인청장'), false, 'the city lost');
  t.equal(knownIssuer('서울특별시 종구청장'), false);
});
