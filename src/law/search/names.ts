// Statute and rule names: the well-known abbreviations, and how well a name matches a query (exact, abbreviation,
// prefix, the query starting with the name, an abbreviation by letters, a word inside the name, bigram overlap).
import { nameKey } from '../normalize.js';
import { MORE_ABBREVIATIONS } from './rank.js';

/** Well-known abbreviations (약칭) → full names. XML 법령명약칭 values found at import are added to these. */
export const ABBREVIATIONS: Record<string, string> = {
  개인정보법: '개인정보 보호법', 개보법: '개인정보 보호법', 근기법: '근로기준법', 주임법: '주택임대차보호법', 상임법: '상가건물 임대차보호법',
  중처법: '중대재해 처벌 등에 관한 법률', 중대재해법: '중대재해 처벌 등에 관한 법률', 중대재해처벌법: '중대재해 처벌 등에 관한 법률',
  국가계약법: '국가를 당사자로 하는 계약에 관한 법률', 국계법: '국가를 당사자로 하는 계약에 관한 법률', 정보통신망법: '정보통신망 이용촉진 및 정보보호 등에 관한 법률',
  정통망법: '정보통신망 이용촉진 및 정보보호 등에 관한 법률', 전공의법: '전공의의 수련환경 개선 및 지위 향상을 위한 법률', 산림자원법: '산림자원의 조성 및 관리에 관한 법률',
  공정거래법: '독점규제 및 공정거래에 관한 법률', 자본시장법: '자본시장과 금융투자업에 관한 법률', 신용정보법: '신용정보의 이용 및 보호에 관한 법률',
  특가법: '특정범죄 가중처벌 등에 관한 법률', 특경법: '특정경제범죄 가중처벌 등에 관한 법률', 도교법: '도로교통법', 헌법: '대한민국헌법',
  행절법: '행정절차법', 남녀고용평등법: '남녀고용평등과 일ㆍ가정 양립 지원에 관한 법률', 산안법: '산업안전보건법', 최저임금법: '최저임금법',
  청탁금지법: '부정청탁 및 금품등 수수의 금지에 관한 법률', 김영란법: '부정청탁 및 금품등 수수의 금지에 관한 법률', 전자서명법: '전자서명법',
  국토계획법: '국토의 계획 및 이용에 관한 법률', 정보공개법: '공공기관의 정보공개에 관한 법률', 가맹사업법: '가맹사업거래의 공정화에 관한 법률',
  ...MORE_ABBREVIATIONS,
};

export interface NameEntry {
  /** the name as written, its name key, the number of its distinct bigrams, and how many of the query's it shares */
  name: string;
  nk: string;
  nbSize: number;
  common: number;
}

export interface NameQuery {
  query: string;
  /** name key of the analysed query, and the same with particles stripped word by word */
  qk: string;
  qkj: string;
  qb: Set<string>;
  /** name key of the full name the query abbreviates, if any */
  fullKey: string | null;
  /** the query named a statute the analysis expanded */
  named: boolean;
}

/** The name score of one candidate (0 = no name match) and how it matched. */
export function nameScore(e: NameEntry, q: NameQuery): { s: number; match: 'name' | 'abbreviation' | 'ministry' } {
  const { nk, nbSize, common } = e;
  const { qk, qkj, qb, fullKey } = q;
  if (nk === qk || nk === qkj) return { s: 100, match: q.named && nameKey(q.query) !== nk && !nameKey(q.query).startsWith(nk) ? 'abbreviation' : 'name' };
  if (fullKey && nk === fullKey) return { s: 95, match: 'abbreviation' };
  if (fullKey && nk.startsWith(fullKey)) return { s: 70 + 10 * (fullKey.length / nk.length), match: 'abbreviation' };
  if (nk.startsWith(qk)) {
    // a term that merely begins a much longer name (출산전후휴가 → 출산전후휴가 급여등 상한액 고시) is weak name
    // evidence unless it reads like a name (ends in 법, 령, 규칙, 규정, 고시 …); the text decides
    const r = qk.length / nk.length;
    return { s: r < 0.5 && !NAME_END.test(qk) ? 45 + 20 * r : 70 + 10 * r, match: 'name' };
  }
  // the query starts with the whole name ("도로교통법 음주운전"): that statute, searched for the rest
  if (nk.length >= 2 && (qk.startsWith(nk) || qkj.startsWith(nk))) return { s: 75 + 10 * (nk.length / qk.length), match: 'name' };
  if (qk.length >= 3 && isAbbrev(qk, nk)) return { s: 60 + 10 * (qk.length / nk.length), match: 'abbreviation' };
  // the query inside the name: a whole word of the name (or a long run) counts; syllables inside
  // other words (사기 in 사기업, 기사기) are a weak fragment
  if (nk.includes(qk)) return { s: wordIn(e.name, qk) || qk.length >= 5 ? 40 + 10 * (qk.length / nk.length) : 12, match: 'name' };
  if (qb.size >= 2 && common >= 2 && common / qb.size >= 0.6) {
    const dice = (2 * common) / (qb.size + nbSize);
    // words that merely share syllables with a name (공무원 징계 종류 ~ 공무원 징계령) are weak name evidence unless
    // the query reads like a name itself
    const s = 40 * dice + 10 * (common / qb.size);
    return { s: NAME_END.test(qk) ? s : s * OVERLAP_W, match: 'name' };
  }
  return { s: 0, match: 'name' };
}

const OVERLAP_W = 0.3;
const NAME_END = /(법|령|규칙|규정|고시|지침|기준|요령|훈령|예규|조례|협약|특례|법률)$/;

/** key is one whole word of the name (spaces, middle dots), possibly with a particle or 법/죄/령 after it. */
function wordIn(name: string, key: string): boolean {
  for (const w of name.split(/[\sㆍ·,()]+/)) {
    const k = nameKey(w);
    if (k === key || (k.startsWith(key) && /^(의|에|과|와|을|를|등|법|죄|령|및|에관한|법률|규칙|시행령|시행규칙)$/.test(k.slice(key.length)))) return true;
  }
  return false;
}

/** q is an abbreviation of name: same first two chars, same last char, all chars in order. */
function isAbbrev(q: string, name: string): boolean {
  if (q[0] !== name[0] || q[1] !== name[1] || q[q.length - 1] !== name[name.length - 1]) return false;
  let j = 2;
  for (let i = 2; i < q.length; i++) {
    j = name.indexOf(q[i]!, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}
