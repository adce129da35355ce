// Lexicon repair of Korean administrative names in an address or an issuing authority read by OCR: the leading
// province-level name (시/도), then a city/district (시/군/구) name, each replaced by the closest lexicon entry when
// the read text is within a small edit distance of exactly one entry. The lists are the public administrative
// divisions of Korea (province-level in full, and the common cities and districts), written from general knowledge.

const PROVINCES = ['서울특별시', '부산광역시', '대구광역시', '인천광역시', '광주광역시', '대전광역시', '울산광역시', '세종특별자치시', '경기도', '강원특별자치도', '강원도', '충청북도', '충청남도', '전북특별자치도', '전라북도', '전라남도', '경상북도', '경상남도', '제주특별자치도'];
/** short forms used in office names ("부산출입국외국인청") */
const PROVINCE_SHORT = ['서울', '부산', '대구', '인천', '광주', '대전', '울산', '세종', '수원', '제주', '청주', '창원', '전주', '춘천', '양주', '김해', '여수'];
const DISTRICTS = [
  // Seoul
  '종로구', '중구', '용산구', '성동구', '광진구', '동대문구', '중랑구', '성북구', '강북구', '도봉구', '노원구', '은평구', '서대문구', '마포구', '양천구', '강서구', '구로구', '금천구', '영등포구', '동작구', '관악구', '서초구', '강남구', '송파구', '강동구',
  // other metropolitan cities
  '서구', '동구', '남구', '북구', '영도구', '부산진구', '동래구', '해운대구', '사하구', '금정구', '연제구', '수영구', '사상구', '기장군', '수성구', '달서구', '달성군', '군위군', '미추홀구', '연수구', '남동구', '부평구', '계양구', '강화군', '옹진군', '광산구', '유성구', '대덕구', '울주군',
  // cities and counties of the provinces (the larger ones)
  '수원시', '성남시', '고양시', '용인시', '부천시', '안산시', '안양시', '남양주시', '화성시', '평택시', '의정부시', '시흥시', '파주시', '김포시', '광명시', '광주시', '군포시', '하남시', '오산시', '이천시', '안성시', '의왕시', '양주시', '구리시', '포천시', '동두천시', '과천시', '여주시', '양평군', '가평군', '연천군',
  '춘천시', '원주시', '강릉시', '동해시', '속초시', '삼척시', '태백시', '청주시', '충주시', '제천시', '천안시', '아산시', '공주시', '보령시', '서산시', '논산시', '계룡시', '당진시', '전주시', '익산시', '군산시', '정읍시', '남원시', '김제시',
  '목포시', '여수시', '순천시', '나주시', '광양시', '포항시', '경주시', '김천시', '안동시', '구미시', '영주시', '영천시', '상주시', '문경시', '경산시', '창원시', '진주시', '통영시', '사천시', '김해시', '밀양시', '거제시', '양산시', '제주시', '서귀포시',
];

/** The districts of each metropolitan city (all of them): once the city is read, its district is matched only
 * against its own list, which tells apart names the whole list holds twice or more (중구, 동구, 서구, 남구, 북구). */
const CITY_DISTRICTS: Record<string, string[]> = {
  서울특별시: ['종로구', '중구', '용산구', '성동구', '광진구', '동대문구', '중랑구', '성북구', '강북구', '도봉구', '노원구', '은평구', '서대문구', '마포구', '양천구', '강서구', '구로구', '금천구', '영등포구', '동작구', '관악구', '서초구', '강남구', '송파구', '강동구'],
  부산광역시: ['중구', '서구', '동구', '영도구', '부산진구', '동래구', '남구', '북구', '해운대구', '사하구', '금정구', '강서구', '연제구', '수영구', '사상구', '기장군'],
  대구광역시: ['중구', '동구', '서구', '남구', '북구', '수성구', '달서구', '달성군', '군위군'],
  인천광역시: ['중구', '동구', '미추홀구', '연수구', '남동구', '부평구', '계양구', '서구', '강화군', '옹진군'],
  광주광역시: ['동구', '서구', '남구', '북구', '광산구'],
  대전광역시: ['동구', '중구', '서구', '유성구', '대덕구'],
  울산광역시: ['중구', '남구', '동구', '북구', '울주군'],
};

/** the districts that are 구 (an office titled …구청장) */
const GU_DISTRICTS = DISTRICTS.filter((x) => x.endsWith('구'));

/** Substitution cost of two characters: Hangul syllables by the share of their jamo (initial, vowel, final) that differ. */
function subCost(a: string, b: string): number {
  if (a === b) return 0;
  const x = a.charCodeAt(0) - 0xac00, y = b.charCodeAt(0) - 0xac00;
  if (x < 0 || y < 0 || x > 11171 || y > 11171) return 1;
  const j = (c: number) => [Math.floor(c / 588), Math.floor((c % 588) / 28), c % 28];
  const [p, q] = [j(x), j(y)];
  return p.filter((v, i) => v !== q[i]).length / 3;
}

/** Edit distance over characters, a substitution costing the share of differing jamo (so 총/종 = 1/3). */
export function editDistance(a: string, b: string): number {
  const x = [...a], y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + subCost(x[i - 1]!, y[j - 1]!));
    prev = cur;
  }
  return prev[y.length]!;
}

/** edits allowed for a name of n syllables: a third (one jamo) for two, one for three or four, two for five or more */
const allowed = (n: number): number => (n <= 2 ? 0.34 : n <= 4 ? 1 : 2);
/** the best entry must be this much closer than the next different one */
const MARGIN = 0.3;

/**
 * The lexicon entry the start of s (no spaces) reads as: the entry and how many characters of s it replaces, when
 * one entry is within its allowed distance and clearly closer than any other; null otherwise.
 */
export function matchPrefix(s: string, lexicon: readonly string[]): { name: string; used: number } | null {
  const ch = [...s];
  const found: Array<{ name: string; used: number; d: number }> = [];
  for (const name of lexicon) {
    const n = [...name].length;
    let b: { name: string; used: number; d: number } | null = null;
    for (const L of [n, n - 1, n + 1]) {
      if (L < 2 || L > ch.length) continue;
      const d = editDistance(ch.slice(0, L).join(''), name) + (L === n ? 0 : 0.01);
      if (!b || d < b.d) b = { name, used: L, d };
    }
    if (b) found.push(b);
  }
  found.sort((a, b) => a.d - b.d);
  const [best, next] = found;
  if (!best || best.d > allowed([...best.name].length) + 0.01) return null;
  return next && next.d - best.d < MARGIN ? null : { name: best.name, used: best.used };
}

/** Split off the first `used` non-space characters of text; the rest keeps its spacing. */
function rest(text: string, used: number): string {
  let i = 0, seen = 0;
  while (i < text.length && seen < used) { if (!/\s/.test(text[i]!)) seen++; i++; }
  return text.slice(i).trim();
}

/** An address with its province and city/district names mended against the lexicon. */
export function repairAddress(text: string): string {
  let t = text.trim();
  const out: string[] = [];
  const p = matchPrefix(t.replace(/\s+/g, ''), PROVINCES);
  if (p) { out.push(p.name); t = rest(t, p.used); }
  const d = matchPrefix(t.replace(/\s+/g, ''), (p && CITY_DISTRICTS[p.name]) || DISTRICTS);
  if (d) { out.push(d.name); t = rest(t, d.used); }
  else if (!p) {
    // the city's name half lost (glare, "광역시 광산구", "으시 감남구"): a district of exactly one city after a
    // remnant that ends like a city (…시) names that city
    const s = t.replace(/\s+/g, '');
    for (let o = 1; o <= 6 && o < s.length - 1; o++) {
      if (!/[시도]$/.test(s.slice(0, o))) continue;
      const m = matchPrefix(s.slice(o), DISTRICTS);
      const cities = m ? Object.keys(CITY_DISTRICTS).filter((c) => CITY_DISTRICTS[c]!.includes(m.name)) : [];
      if (m && cities.length === 1) { out.push(cities[0]!, m.name); t = rest(t, o + m.used); break; }
    }
  }
  // the flat number at the end, "103동 1501호": two numbers each followed by one syllable (or a stray mark), the
  // 동 and 호 read as look-alikes (돔, 농, 톰; 로, 조, 초, 축) — unless the first is a floor, lot or street (층, 번, 가, 길)
  t = t.replace(/(^|\s|[^\d\s])(\d{1,4})\s*[가-힣]\s*(\d{1,5})\s*(?:[가-힣]|[^\d\s가-힣])?$/, (m, pre: string, a: string, b: string) => {
    const syl = /\d\s*([가-힣])/.exec(m)![1]!;
    return '층번가길로'.includes(syl) ? m : ` ${a}동 ${b}호`;
  }).replace(/\s+/g, ' ').trim();
  // a road name's 대로 with its 대 read as a look-alike (때, 태, 패, 데, 매) before the building number
  t = t.replace(/([가-힣]{2,})[때태패데매]로(?=\s*\d)/, '$1대로');
  if (t) out.push(t);
  return out.join(' ');
}

const ISSUER_TAILS = ['출입국외국인청장', '경찰청장', '구청장', '시장', '군수', '청장'];

/** An issuing authority ("서울특별시 종로구청장", "서울특별시경찰청장", "부산출입국외국인청장") mended likewise. */
export function repairIssuer(text: string): string {
  const s = text.replace(/\s+/g, '');
  const ch = [...s];
  // the tail: the longest title within its allowed distance
  let tail: { name: string; used: number } | null = null;
  for (const name of ISSUER_TAILS) {
    const n = [...name].length;
    for (const L of [n, n - 1, n + 1]) {
      if (L < 2 || L >= ch.length) continue;
      if (editDistance(ch.slice(ch.length - L).join(''), name) <= allowed(n) + 0.01) { tail = { name, used: L }; break; }
    }
    if (tail) break;
  }
  if (!tail) return text;
  const head = ch.slice(0, ch.length - tail.used).join('');
  if (tail.name === '출입국외국인청장') {
    const c = matchPrefix(head, PROVINCE_SHORT);
    return c && c.used === [...head].length ? c.name + tail.name : head + tail.name;
  }
  const p = matchPrefix(head, PROVINCES);
  if (!p) return text;
  const h = [...head].slice(p.used).join('');
  if (tail.name === '구청장' || tail.name === '청장') {
    // "종로구청장": the district with its 구, then 청장
    const d = matchPrefix(h + (tail.name === '구청장' ? '구' : ''), CITY_DISTRICTS[p.name]?.filter((x) => x.endsWith('구')) ?? GU_DISTRICTS);
    if (d && d.used >= [...h].length) return `${p.name} ${d.name}청장`;
  }
  return h ? `${p.name} ${h}${tail.name}` : `${p.name}${tail.name}`;
}

const KNOWN_ISSUER = new RegExp(`^((${PROVINCES.join('|')})(경찰청장|(${DISTRICTS.join('|')})(청장|장|수))|(${PROVINCE_SHORT.join('|')})출입국외국인청장)$`);
/** Whether an issuing authority (after repairIssuer) is a known form: a city's police, a district office, an immigration office. */
export const knownIssuer = (text: string): boolean => KNOWN_ISSUER.test(text.replace(/\s+/g, ''));
