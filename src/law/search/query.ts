// Korean query analysis for law search (a measured rule set; kiwi-nlp ships no model in its npm package):
// abbreviations expanded inside phrases, question endings and particles stripped, filler words dropped,
// everyday words mapped to statutory terms (the originals are kept), compounds left to the bigram index.
import { nameKey, stripJosa } from '../normalize.js';
import { CORE, everydayTerms, mapWord, phrases, type WordMap } from './vocabulary.js';
import { SEARCH_SWITCHES } from './switches.js';
import { questionCues } from './question-cues.js';
import { phrasesIn } from './phrase-index.js';
import { FILLERS, oneSyllableI, spokenPredicate } from './noise-words.js';
import { contentWordsByEojeol } from './morph/content-words.js';


/** Question endings (longest first), stripped from the end of an eojeol when enough of it is left. */
const ENDINGS = [
  '해야하나요', '하여야하나요', '할수있나요', '되어야하나요', '해도되나요', '하려면', '해야하는지', '하나요', '되나요', '받나요',
  '있나요', '없나요', '인가요', '한가요', '할까요', '을까요', '나요', '가요', '습니까', '합니까', '됩니까', '입니까', '인지', '하면',
  '되면', '려면', '으면', '해도', '하고', '하는', '했는데', '해요', '어요', '아요', '에요', '예요', '이면', '면', '고',
];

const ENDING_SET = new Set(ENDINGS);

/** Filler words of questions (after endings and particles are stripped). */
const STOP = new Set([
  '죄', '죄인', '죄가', '죄를', '너무', '정말', '진짜', '계속', '자꾸', '어떻게', '어떤', '무엇', '무슨', '언제', '얼마나', '얼마', '누가', '누구', '어디', '왜', '수', '것', '것도', '것은', '것이', '것을', '거', '건가요', '경우', '안', '못', '그냥', '다른',
  '내', '제가', '저', '나', '우리', '좀', '꼭', '미리', '혼자', '해야', '되', '하', '있', '없', '받을', '있는', '하는', '및', '등', '또는',
  '알려', '알려주세요', '궁금', '궁금합니다', '되는', '있을까', '관련', '대해', '대하여', '때', '할', '한', '된', '될', '더', '이', '그',
  '처벌받', '처벌', '불법', '위법', '어떻', '뭔가', '뭐', '뭘', '해', '돼', '되나', '하나', '모든', '도', '또', '이미', '지금', '정도',
]);


export interface AnalysedQuery {
  /** the rewritten query: abbreviations expanded, endings and filler dropped, mapped terms appended */
  text: string;
  /** the same without the mapped terms (for name matching) */
  core: string;
  /** full names of statutes named by abbreviation or exact name inside the query */
  named: string[];
  /** the query's content words (for snippets): its own and the mapped terms */
  words: string[];
  /** the mapped (statutory) terms alone; they weigh more than the question's own words */
  mapped: string;
  /** the mapped terms by the question word (or phrase) they stand for: 아버지 → "부 직계존속" (query-terms.ts) */
  mappedGroups?: string[];
  /** the question word (or phrase) each of mappedGroups stands for */
  mappedFrom?: string[];
  /** the original query had the shape of a plain-language question (endings or filler were removed) */
  plain: boolean;
  /** a plain question's kind as the title words of its answers (question-cues.ts; the article choice only) */
  cues: string[];
}

/**
 * The particles of spoken Korean that the statutes never write and normalize.ts's JOSA (shared with the index) does
 * not hold: …(이)랑 'and, with' (김치랑 고기, 평상이랑 진열대) and …한테(서) 'to, from' (손님한테). Left on, they make
 * noise bigrams (조개랑: 개랑) and hide the noun from the vocabularies. Stripped from question words only.
 */
function stripSpoken(w: string): string {
  if (!SEARCH_SWITCHES.spokenJosa) return w;
  if (w.length >= 3 && w.endsWith('이랑')) return w.slice(0, -2);
  if (w.length >= 3 && w.endsWith('랑')) return w.slice(0, -1);
  if (w.length >= 4 && w.endsWith('한테서')) return w.slice(0, -3);
  if (w.length >= 3 && w.endsWith('한테')) return w.slice(0, -2);
  return w;
}

function stripEnding(w: string): string {
  for (const e of ENDINGS) if (w.length - e.length >= 2 && w.endsWith(e) && (e.length > 1 || verbalBefore(w, 1))) return w.slice(0, w.length - e.length);
  return w;
}

/**
 * Syllables that end a verb or adjective stem before a one-syllable ending (마시고, 받고, 하면, 지키면): a noun ending
 * in the same syllable (신고, 광고, 사고, 서면, 감면) keeps it.
 */
const STEM_END = new Set([...'하되받주내가오두쓰알살팔먹시타놓넣들있없않같많싶나리기치우르지히키보려으이라다니']);
function verbalBefore(w: string, endLen: number): boolean {
  const c = w[w.length - endLen - 1];
  return c !== undefined && STEM_END.has(c) && !NOT_PREDICATE.has(w.slice(-2));
}

/**
 * Analyse a query. abbr maps name keys of abbreviations (and of full names) to the full statute name.
 * "특가법 도주차량" → text "특정범죄 가중처벌 등에 관한 법률 도주차량", named [that law].
 */
export function analyseQuery(q: string, abbr: Map<string, string>): AnalysedQuery {
  const raw = q.normalize('NFKC').replace(/[?？!.,「」『』"'()]/g, ' ').split(/\s+/).filter(Boolean);
  const named: string[] = [];
  const out: string[] = [];
  const extra: string[] = [];
  // the general everyday vocabulary (vocabulary.ts): kept apart, added when the query turns out to be a question
  const everyday: string[] = [];
  const maps: WordMap[] = [];
  // the word each map was asked for, and each mapped term's word (AnalysedQuery.mappedFrom)
  let mapKeys: string[] = [];
  const sourceOf = new Map<string, string>();
  // each eojeol's word as the vocabularies were asked for it (the analyser's pass maps its predicates so)
  const keys: (string | undefined)[] = [];
  const compact = nameKey(q);
  // a question ("…나요", "…하려면", "어떻게 …"): its predicates (지으려면, 받아야, 마시고) are dropped below
  let plain = raw.some((w) => { const l = w.toLowerCase(); return ENDING_SET.has(l) || STOP.has(l) || politeVerb(l) || stripEnding(stripJosa(l)).length < stripJosa(l).length; });
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i]!;
    const k = nameKey(w);
    const full = abbr.get(k) ?? abbr.get(nameKey(stripJosa(w)));
    if (full) { named.push(full); out.push(full); continue; }
    const lw = w.toLowerCase();
    if (ENDING_SET.has(lw) || STOP.has(lw)) { plain = true; continue; }
    // a one-syllable noun with an object or topic particle (돈을, 술을, 집은): stripJosa keeps two syllables; other
    // particles also end two-syllable nouns (허가, 도로, 제도, 미만, 동의, 아이) and stay; a verb form the vocabularies
    // know (자를, 잘라) is not a noun with a particle
    const oneSyllable = lw.length === 2 && /[을를은는]$/.test(lw) && !STOP.has(lw) && lw !== '마을' && lw !== '가을' && !everydayTerms(lw) && !CORE.some(([f]) => f.length >= 2 && lw.startsWith(f));
    const noise = SEARCH_SWITCHES.noiseWords ? noiseOf(lw) : null;
    if (noise === 'drop') { plain = true; continue; }
    const s = noise ?? (oneSyllable ? lw[0]! : stripEnding(stripJosa(stripSpoken(lw))));
    if (s.length < lw.length - 1) plain = true;
    if (STOP.has(s) || (SEARCH_SWITCHES.noiseWords & 1 && FILLERS.has(s))) { plain = true; continue; }
    maps.push(mapWord(s));
    mapKeys.push(s);
    keys[i] = s;
    // a verb made of a noun and 하다/되다/받다 (운전하면, 설치하려면, 처벌받나요, 공개해): its noun is a content word
    const noun = verbalNoun(lw);
    if (noun) { if (!STOP.has(noun)) out.push(noun); continue; }
    if (plain && isPredicate(lw)) continue;
    // an offence named with 죄 (절도죄, 명예훼손죄): the statutes write the act (절도, 명예훼손)
    out.push(s.length >= 3 && s.endsWith('죄') ? s.slice(0, -1) : s);
  }
  if (plain && SEARCH_SWITCHES.morph) {
    const m = morphWords(raw, abbr, keys);
    if (m) { out.splice(0, out.length, ...m.out); maps.splice(0, maps.length, ...m.keys.map(mapWord)); mapKeys = m.keys; }
  }
  // one map (vocabulary.ts): a keyword query takes each word's best core key; a question its best key of all (the
  // longest), core or everyday
  maps.forEach((m, i) => {
    const useAll = plain && SEARCH_SWITCHES.everyday;
    const hit = useAll ? m.any : m.core;
    if (hit && !sourceOf.has(hit)) sourceOf.set(hit, mapKeys[i]!);
    if (hit && (!useAll || m.anyIsCore)) extra.push(hit);
    else if (hit) everyday.push(hit);
  });
  // phrase-level synonyms written across eojeols ("쉬는 시간", "사고를 내고")
  // (phraseStart 2: a phrase inside a longer word the vocabularies already mapped is that word's tail: 할아버지's 아버지,
  // 어린이보호구역's 보호구 — the longest key wins, as for one word's keys)
  const atStart = (from: string) => SEARCH_SWITCHES.phraseStart !== 2 || ![...sourceOf.values()].some((w) => w.length > from.length && w.includes(from));
  for (const [from, to] of phrasesIn(CORE, compact)) if (from.length >= 3 && !extra.includes(to) && atStart(from)) { extra.push(to); sourceOf.set(to, from); }
  const general: string[] = [];
  if (plain && SEARCH_SWITCHES.everyday) {
    for (const [from, to] of phrasesIn(phrases(), compact)) if (!everyday.includes(to) && atStart(from)) { everyday.push(to); if (!sourceOf.has(to)) sourceOf.set(to, from); }
    // the general list weighs like the question's own words unless the switch says otherwise (measured)
    for (const e of everyday) if (!extra.includes(e) && !general.includes(e)) (SEARCH_SWITCHES.everydayMapped ? extra : general).push(e);
  }
  const words = out.filter((w) => w.length >= 2 && !named.includes(w));
  // (switch mapped 0: no vocabulary terms at all, for the diagnosis of what they carry; bench/query-term-diag.ts)
  if (!SEARCH_SWITCHES.mapped) { extra.length = 0; general.length = 0; }
  const added = [...extra, ...general];
  return { text: [...out, ...added].join(' '), core: out.join(' '), mapped: extra.join(' '), mappedGroups: extra, mappedFrom: extra.map((e) => sourceOf.get(e) ?? ''), named, words: [...new Set([...words, ...added.flatMap((e) => e.split(' '))])], plain,
    cues: plain && SEARCH_SWITCHES.titleCue ? questionCues(q.normalize('NFKC')) : [] };
}

/**
 * A plain question's words from its morphological analysis (morph/content-words.ts; issue #15 morph22) in place of
 * the rule set's: abbreviations and law names as above, the fillers and stop words dropped as above. The words asked
 * of the vocabularies: the nouns, and an eojeol holding a predicate or an adverb as the rule set stripped it (keys:
 * 훔치면 → 훔치, 몰래), so a particle or a bound noun (한 명도 → 명도) is never mapped. null when the analysis does not
 * split the question into its eojeols.
 */
function morphWords(raw: string[], abbr: Map<string, string>, keys: (string | undefined)[]): { out: string[]; keys: string[] } | null {
  const byEojeol = contentWordsByEojeol(raw.join(' '));
  if (byEojeol.length !== raw.length) return null;
  const out: string[] = [];
  const mapKeys: string[] = [];
  raw.forEach((w, i) => {
    const full = abbr.get(nameKey(w)) ?? abbr.get(nameKey(stripJosa(w)));
    if (full) { out.push(full); return; }
    const e = byEojeol[i]!;
    const key = keys[i];
    for (const s of wholeWords(e.nouns.map((x) => x.toLowerCase()), key)) {
      if (STOP.has(s) || FILLERS.has(s)) continue;
      out.push(s.length >= 3 && s.endsWith('죄') ? s.slice(0, -1) : s);
      // a one-syllable noun the vocabularies know only with its particle (앱을: their core keys are prefixes)
      mapKeys.push(s.length === 1 && key?.startsWith(s) && !mapWord(s).any ? key : s);
    }
    if (SEARCH_SWITCHES.morph === 2) out.push(...e.stems);
    if (e.predicate && key && !mapKeys.includes(key)) mapKeys.push(key);
  });
  return { out, keys: mapKeys };
}

/**
 * The analyser's nouns of one eojeol, or the rule set's word (key: particles and endings stripped) where the analyser
 * lost the start of it (map26, switch morphWhole): mecab-ko-dic reads an unknown compound as a shorter noun inside it
 * (요소수 → 소수, 제조사 → 조사, 새집증후군 → 집증후군) and the wrong word then matches. Such a noun lies inside the
 * word but does not begin it; a noun beginning the word is the word less its particles (집에 → 집) and stays.
 */
function wholeWords(nouns: string[], key: string | undefined): string[] {
  if (!SEARCH_SWITCHES.morphWhole || !key || nouns.length !== 1) return nouns;
  const n = nouns[0]!;
  if (n === key || !key.includes(n)) return nouns;
  return key.startsWith(n) ? nouns : [key];
}

/**
 * A spoken question's word that is not its subject (noise-words.ts): 'drop' (a filler, a connective predicate), the
 * noun it stands for (형이 → 형), or null (an ordinary word).
 */
function noiseOf(lw: string): 'drop' | string | null {
  const on = SEARCH_SWITCHES.noiseWords;
  if (on & 1 && FILLERS.has(lw)) return 'drop';
  if (on & 4 && oneSyllableI(lw)) return lw[0]!;
  return on & 16 && spokenPredicate(lw) && !verbalNoun(lw) ? 'drop' : null;
}

/** the noun of a 하다/되다/받다/시키다 verb form (운전하면 → 운전, 해고하려면 → 해고, 처벌받나요 → 처벌), or null */
function verbalNoun(w: string): string | null {
  const m = /^([가-힣]{2,}?)(하|해|했|한|할|함|되|돼|됐|된|될|받|시키|시켜|당하|당해|당한)([가-힣]*)$/.exec(w);
  if (!m) return null;
  const [, noun, verb, rest] = m;
  // an adnominal form (지급한 임금, 부당한, 연관된): the noun before it; other forms need an ending after the verb
  if (!rest) return /^(한|할|된|될)$/.test(verb!) ? noun! : null;
  // the verb syllable is followed by an ending (하려면, 해야, 된다면), not by a noun's own syllables (관할법원);
  // a word ending in the verb syllable is a noun as often (방해, 손해, 제한, 권한)
  if (!isEnding(verb! + rest) && !ENDING_SET.has(rest) && !/^(려면|려고|면|고|여야|야|지|는|나요|도|기|여|였|세요|자|게|니|다|는데|더라도|거나|든지|라도|아야|어야|았|었|나|냐|ㄴ|요|서|니까|면서|을|를|은|는|지요|죠|줘|주|달라|달|드|할|한|은지|는지|ㄹ까|을까|할까)/.test(rest)) return null;
  return noun!;
}

/** the word is a whole question ending (하나요, 되나요, 해야하나요 …) */
function isEnding(w: string): boolean {
  return ENDING_SET.has(w) || ENDINGS.some((e) => w === e || (w.startsWith(e.slice(0, 1)) && w.length <= 2));
}

const NOT_PREDICATE = new Set(['서면', '측면', '전면', '이면', '표면', '지면', '국면', '분야', '시야', '심야', '보고', '사고', '최고', '사면', '방면', '장면', '화면', '정면', '외면', '직면', '당면']);

/** a verb in the polite spoken form (짖어요, 갚아요, 와요, 당했어요, 해줘요); 필요, 중요, 주요 are nouns */
function politeVerb(w: string): boolean {
  return w.length >= 3 ? /(어요|아요|여요|워요|해요|줘요|봐요|와요|돼요|려요|세요|네요|래요|게요|죠|데요|나요|까요)$/.test(w) : /^[와가줘봐해돼워와됐했갔]요$/.test(w);
}

/** An inflected verb or adjective of a question (지으려면, 받아야, 마시고, 넘겨도, 올려달라고, 갚아요). */
function isPredicate(w: string): boolean {
  if (NOT_PREDICATE.has(w)) return false;
  if (politeVerb(w)) return true;
  if (/(려면|라고|해도|아도|어도|겨도|워도|는데|지만|니까|면서)$/.test(w)) return true;
  if (w.length >= 2 && w.endsWith('면')) return verbalBefore(w, 1);
  if (w.length >= 3 && w.endsWith('야')) return /[아어여워져켜쳐줘봐와돼내려해]야$/.test(w);
  return w.length >= 3 && w.endsWith('고') && verbalBefore(w, 1);
}
