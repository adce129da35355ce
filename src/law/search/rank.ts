// Ranking priors (instrument kind, citations), more abbreviations, and the article snippets of search hits.
import type { Article, DocRec } from '../parse.js';
import { SEARCH_SWITCHES } from './switches.js';

/** Abbreviations (약칭) in common use, beyond the core list of search.ts. */
export const MORE_ABBREVIATIONS: Record<string, string> = {
  산재법: '산업재해보상보험법', 산재보험법: '산업재해보상보험법', 산재: '산업재해보상보험법', 산업안전법: '산업안전보건법',
  정보통신망법: '정보통신망 이용촉진 및 정보보호 등에 관한 법률', 전자상거래법: '전자상거래 등에서의 소비자보호에 관한 법률',
  전상법: '전자상거래 등에서의 소비자보호에 관한 법률', 하도급법: '하도급거래 공정화에 관한 법률', 노조법: '노동조합 및 노동관계조정법',
  노동조합법: '노동조합 및 노동관계조정법', 기간제법: '기간제 및 단시간근로자 보호 등에 관한 법률', 파견법: '파견근로자 보호 등에 관한 법률',
  퇴직급여법: '근로자퇴직급여 보장법', 근퇴법: '근로자퇴직급여 보장법', 약관법: '약관의 규제에 관한 법률', 약관규제법: '약관의 규제에 관한 법률',
  집시법: '집회 및 시위에 관한 법률', 성폭력처벌법: '성폭력범죄의 처벌 등에 관한 특례법', 성폭법: '성폭력범죄의 처벌 등에 관한 특례법',
  아청법: '아동ㆍ청소년의 성보호에 관한 법률', 청소년성보호법: '아동ㆍ청소년의 성보호에 관한 법률', 전자금융법: '전자금융거래법',
  표시광고법: '표시ㆍ광고의 공정화에 관한 법률', 할부거래법: '할부거래에 관한 법률', 방문판매법: '방문판매 등에 관한 법률',
  방판법: '방문판매 등에 관한 법률', 소송촉진법: '소송촉진 등에 관한 특례법', 교특법: '교통사고처리 특례법', 교통사고처리법: '교통사고처리 특례법',
  폭처법: '폭력행위 등 처벌에 관한 법률', 폭력행위처벌법: '폭력행위 등 처벌에 관한 법률', 마약류관리법: '마약류 관리에 관한 법률',
  마약법: '마약류 관리에 관한 법률', 가정폭력처벌법: '가정폭력범죄의 처벌 등에 관한 특례법', 아동학대처벌법: '아동학대범죄의 처벌 등에 관한 특례법',
  스토킹처벌법: '스토킹범죄의 처벌 등에 관한 법률', 범죄수익은닉법: '범죄수익은닉의 규제 및 처벌 등에 관한 법률', 범죄수익법: '범죄수익은닉의 규제 및 처벌 등에 관한 법률',
  특정금융정보법: '특정 금융거래정보의 보고 및 이용 등에 관한 법률', 특금법: '특정 금융거래정보의 보고 및 이용 등에 관한 법률',
  금융실명법: '금융실명거래 및 비밀보장에 관한 법률', 금소법: '금융소비자 보호에 관한 법률', 금융소비자법: '금융소비자 보호에 관한 법률',
  여전법: '여신전문금융업법', 대부업법: '대부업 등의 등록 및 금융이용자 보호에 관한 법률', 유사수신법: '유사수신행위의 규제에 관한 법률',
  부동산실명법: '부동산 실권리자명의 등기에 관한 법률', 부동산거래신고법: '부동산 거래신고 등에 관한 법률', 공인중개사법: '공인중개사법',
  집합건물법: '집합건물의 소유 및 관리에 관한 법률', 도시정비법: '도시 및 주거환경정비법', 도정법: '도시 및 주거환경정비법',
  토지보상법: '공익사업을 위한 토지 등의 취득 및 보상에 관한 법률', 공익사업법: '공익사업을 위한 토지 등의 취득 및 보상에 관한 법률',
  국토법: '국토의 계획 및 이용에 관한 법률', 국계법: '국가를 당사자로 하는 계약에 관한 법률', 지방계약법: '지방자치단체를 당사자로 하는 계약에 관한 법률',
  민소법: '민사소송법', 형소법: '형사소송법', 민집법: '민사집행법', 행소법: '행정소송법', 행심법: '행정심판법', 가소법: '가사소송법',
  채무자회생법: '채무자 회생 및 파산에 관한 법률', 도산법: '채무자 회생 및 파산에 관한 법률', 국보법: '국가보안법', 공선법: '공직선거법',
  선거법: '공직선거법', 정치자금법: '정치자금법', 공직자윤리법: '공직자윤리법', 이해충돌방지법: '공직자의 이해충돌 방지법', 국공법: '국가공무원법',
  지공법: '지방공무원법', 국가배상법: '국가배상법', 의료법: '의료법', 약사법: '약사법', 건보법: '국민건강보험법', 국민연금법: '국민연금법',
  고보법: '고용보험법', 장애인차별금지법: '장애인차별금지 및 권리구제 등에 관한 법률', 장차법: '장애인차별금지 및 권리구제 등에 관한 법률',
  개인정보보호법: '개인정보 보호법', 위치정보법: '위치정보의 보호 및 이용 등에 관한 법률', 통비법: '통신비밀보호법',
  전기통신법: '전기통신사업법', 식위법: '식품위생법', 화관법: '화학물질관리법', 화평법: '화학물질의 등록 및 평가 등에 관한 법률',
  환경영향평가법: '환경영향평가법', 대기법: '대기환경보전법', 소방시설법: '소방시설 설치 및 관리에 관한 법률', 건진법: '건설기술 진흥법',
  건산법: '건설산업기본법', 주택법: '주택법', 상가임대차법: '상가건물 임대차보호법', 주택임대차법: '주택임대차보호법', 부가세법: '부가가치세법',
  법인세: '법인세법', 조특법: '조세특례제한법', 국기법: '국세기본법', 국징법: '국세징수법', 상증법: '상속세 및 증여세법', 상증세법: '상속세 및 증여세법',
  지특법: '지방세특례제한법', 관세법: '관세법', 외감법: '주식회사 등의 외부감사에 관한 법률', 외국환법: '외국환거래법', 금산법: '금융산업의 구조개선에 관한 법률',
  은행법: '은행법', 보험업법: '보험업법', 벤처법: '벤처기업육성에 관한 특별법', 중기법: '중소기업기본법', 상생법: '대ㆍ중소기업 상생협력 촉진에 관한 법률',
  유통법: '유통산업발전법', 근로자참여법: '근로자참여 및 협력증진에 관한 법률', 최임법: '최저임금법', 고평법: '남녀고용평등과 일ㆍ가정 양립 지원에 관한 법률',
  장애인고용법: '장애인고용촉진 및 직업재활법', 외국인고용법: '외국인근로자의 고용 등에 관한 법률', 출입국법: '출입국관리법', 병역법: '병역법',
  군형법: '군형법', 도로법: '도로법', 주차장법: '주차장법', 자동차관리법: '자동차관리법', 자배법: '자동차손해배상 보장법', 자배법시행령: '자동차손해배상 보장법 시행령',
};

/** Whole-score factor of an instrument's kind: the parent 법률 first when evidence ties, then its 시행령, 시행규칙, 고시. */
const KIND_PRIOR: Record<string, number> = { law: 1.1, decree: 1.0, rule: 0.96, admrul: 0.93 };

/** citation weight (per log-citation), the same for plain questions, and the power of the kind prior for them (measured on the tuned questions) */
const CITE_W = 0.03, KIND_P = 3;
/**
 * Kind and citation prior: how many other instruments cite the name (민법, 형법 … far more than a 고시). A plain
 * question is about the statutes people live under: there both priors weigh more.
 */
export function priorOf(d: DocRec, cited: number, plain = false, citeW = SEARCH_SWITCHES.citePlain): number {
  const kind = KIND_PRIOR[d.category] ?? 1;
  return (plain ? kind ** KIND_P : kind) * (1 + (plain ? citeW : CITE_W) * Math.log1p(cited));
}

/** a word that asks for an administrative rule by its kind (…규정, 고시, 지침 …); 기준 is too common in statutes */
const RULE_KIND = /(규정|고시|지침|훈령|예규|세칙|요령|준칙)$/;
/** the kind part that ends a rule's name (전자금융감독규정 → 전자금융, 은행업감독규정 → 은행) */
const RULE_SUFFIX = /(업)?(감독규정|업무규정|시행세칙|감독업무시행세칙|규정|고시|지침|훈령|예규|세칙|요령|준칙|기준)$/;

/** the query asks for rules by their kind */
export function asksForRule(words: string[]): boolean {
  return words.some((w) => w.length >= 2 && RULE_KIND.test(w));
}

/**
 * The query names a rule's subject: a one-word rule name less its kind (은행업감독규정 → 은행, 여신전문금융업감독규정
 * → 여신전문금융) is a query word, starts one (보험 in 보험회사) or is mostly one (저축은행 in 상호저축은행); a rule
 * named in several words needs most of its words (other than the kind) in the query.
 */
export function namesRuleSubject(name: string, words: string[], keywords = false): boolean {
  const sub = subjectOf(name);
  if (!sub) return false;
  if (typeof sub === 'string') return words.some((w) => w.length >= 2 && (w.startsWith(sub) || (sub.endsWith(w) && w.length >= sub.length * 0.6)));
  let hit = 0, long = false;
  const minLong = keywords ? SEARCH_SWITCHES.ruleLongSubject : 0;
  for (const p of sub) if (words.some((w) => w.length >= 2 && (p.includes(w) || w.includes(p)))) { hit++; if (minLong && p.length >= minLong && words.some((w) => w.includes(p))) long = true; }
  // a long compound of the name written whole in a keyword query (작업환경측정, 위험성평가, 물질안전보건자료) names the
  // rule alone (a plain question's long words are mostly its mapped terms: 영상정보처리기기 names many rules)
  return long || (hit >= 2 && hit >= sub.length * 0.6);
}

/** a rule's subject: one word (its name less the kind) or the content words of a longer name; null: none (memoised) */
const subjects = new Map<string, string | string[] | null>();
function subjectOf(name: string): string | string[] | null {
  let sub = subjects.get(name);
  if (sub !== undefined) return sub;
  const parts = name.replace(/\([^)]*\)/g, ' ').split(/[\sㆍ·,]+/).map((p) => p.replace(/(의|에|및|등)$/, '')).filter((p) => p.length >= 2);
  if (parts.length === 1) {
    const subj = parts[0]!.replace(RULE_SUFFIX, '');
    sub = subj.length < 2 || subj === parts[0] ? null : subj;
  } else {
    sub = parts.length ? parts.filter((p) => !RULE_SUFFIX.test(p) || p.replace(RULE_SUFFIX, '').length >= 2).map((p) => p.replace(RULE_SUFFIX, '') || p) : null;
  }
  if (subjects.size > 50_000) subjects.clear();
  subjects.set(name, sub);
  return sub;
}

export interface ArticleMatch { article_no: string; title: string; snippet: string }

/**
 * Up to 80 characters of an article's text around its hit: the window holding the most of the query's words (each
 * counted once, weighed by its length: 유급휴가 tells more than 경우), the earliest such window on a tie. An agent reads
 * the snippet to judge the match; centring it on the first word found showed a common word's place, often the
 * article's first line, rather than where the matter is stated.
 */
export function snippetOf(a: Article, words: string[]): string {
  const text = a.content.replace(/\s+/g, ' ').trim();
  let at = densest(text, words);
  if (at < 0) for (const w of words) { const i = w.length >= 3 ? text.indexOf(w.slice(0, 2)) : -1; if (i >= 0) { at = i; break; } }
  const start = Math.max(0, (at < 0 ? 0 : at) - SNIPPET_LEAD);
  const s = text.slice(start, start + SNIPPET_CHARS);
  return flat((start > 0 ? '…' : '') + s + (start + SNIPPET_CHARS < text.length ? '…' : ''));
}

const SNIPPET_CHARS = 80, SNIPPET_LEAD = 30;
/** occurrences of one word read at most (a long article repeats its common words hundreds of times) */
const MAX_PLACES = 64;

/** where the best window's first word starts (-1: no word in the text) */
function densest(text: string, words: string[]): number {
  const places: Array<{ at: number; w: number }> = [];
  const uniq = [...new Set(words)].filter((w) => w.length > 0);
  uniq.forEach((w, k) => {
    for (let i = text.indexOf(w), n = 0; i >= 0 && n < MAX_PLACES; i = text.indexOf(w, i + w.length), n++) places.push({ at: i, w: k });
  });
  if (!places.length) return -1;
  places.sort((x, y) => x.at - y.at);
  let best = -1, bestV = 0;
  for (let i = 0; i < places.length; i++) {
    // the window the snippet would show when centred on this place: its words that fit whole in it, each once
    const from = Math.max(0, places[i]!.at - SNIPPET_LEAD), to = from + SNIPPET_CHARS, seen = new Set<number>();
    let v = 0;
    for (let j = i; j < places.length && places[j]!.at < to; j++) {
      const p = places[j]!;
      if (p.at + uniq[p.w]!.length <= to && !seen.has(p.w)) { seen.add(p.w); v += uniq[p.w]!.length; }
    }
    if (v > bestV) { bestV = v; best = places[i]!.at; }
  }
  return best;
}

/** a copy of s that holds its own characters: a slice of a string keeps the whole string alive in V8, and a cached
 * search result must not keep every article it quotes (tens of KB each) for 80 characters of it */
const flat = (s: string): string => Buffer.from(s, 'utf16le').toString('utf16le');

/** The matching articles of a hit: number, title and a snippet with the hit. */
export function snippetMatches(read: (seq: number) => Article | undefined, seqs: number[], words: string[]): ArticleMatch[] {
  const out: ArticleMatch[] = [];
  for (const s of seqs) {
    const a = read(s);
    if (a) out.push({ article_no: a.no, title: a.title, snippet: snippetOf(a, words) });
  }
  return out;
}
