// The content words of a plain question from its morphological analysis (issue #15, morph22): nouns kept (a noun
// run inside an eojeol joined as the statutes write it: 수입+인지 → 수입인지, 장애+인 → 장애인), the noun of a
// noun + 하다/되다 verb (운전하면 → 운전), a nominalised verb (괴롭힘), a number with its counter (65세, 80명);
// particles, endings, pronouns, determiners, adverbs, bound nouns alone (것, 수, 명) and bare verbs and adjectives
// dropped. Whether the eojeol holds a predicate or an adverb is reported too: the vocabularies map verb stems
// (훔치 → 절도, 때리 → 폭행) and adverbs (몰래), so the query maps such an eojeol as written.
import { tokens, type Morpheme } from './analyser.js';

/** tags of content nouns (Sejong tags as mecab-ko-dic writes them; UNKNOWN: a word the dictionary lacks) */
const NOUN = new Set(['NNG', 'NNP', 'XR', 'SL', 'SH', 'UNKNOWN']);
/** a suffix that continues a noun run (장애+인, 사업+자, 근로+자) */
const NOUN_SUFFIX = 'XSN';
/** counters after a number (80명, 65세) and numerals (3억) */
const COUNTER = new Set(['NNBC', 'NR']);
/** a copula or ending analysed right before a particle (수입인지를 → 수입/NNG 인지/VCP+EC 를/JKO) was a noun */
const PARTICLE = /^J/;
/** question endings the dictionary reads as nouns at an eojeol's end (죄인가요 → 죄인/NNG 가요/NNG 'songs') */
const ENDING_NOUNS = new Set(['가요', '나요', '까요']);
/** bound nouns that name a cause (때문에): kept as the rule set kept them (noise20 measured dropping them neutral to negative) */
const KEPT_BOUND = new Set(['때문']);
/** a main predicate, a noun made a verb (하/XSV) or an adverb: the eojeol carries meaning the vocabularies map */
const PREDICATE = /^(VV|VA|XSV|XSA|MAG)/;

export interface EojeolWords {
  nouns: string[];
  /** the eojeol holds a verb, an adjective, a noun made a verb or an adverb */
  predicate: boolean;
  /** the stems of its verbs and adjectives of two syllables or more (붙이, 돌려주; 잃 and 내 are too short to search) */
  stems: string[];
}

/** the eojeols of text (split at whitespace), each with its content words */
export function contentWordsByEojeol(text: string): EojeolWords[] {
  const out: EojeolWords[] = [];
  let cur: Morpheme[] = [];
  for (const m of tokens(text)) {
    if (m.spaceBefore && cur.length) { out.push(eojeolWords(cur)); cur = []; }
    cur.push(m);
  }
  if (cur.length) out.push(eojeolWords(cur));
  return out;
}

/** the content words of one eojeol's morphemes */
export function eojeolWords(all: Morpheme[]): EojeolWords {
  const ms = withoutQuestionEnding(all);
  const nouns: string[] = [];
  let run = '';
  let number = '';
  const flush = (): void => { if (run) nouns.push(run); run = ''; };
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    const next = ms[i + 1];
    if (run && next && PARTICLE.test(next.pos) && /^(VCP|E)/.test(m.pos) && m.surface.length >= 2) { run += m.surface; continue; }
    // a copula between two nouns of one eojeol (장애인연금 → 장애/NNG 인/VCP+ETM 연금/NNG) is the noun's syllable
    if (run && next && NOUN.has(next.pos) && /^VCP/.test(m.pos)) { run += m.surface; continue; }
    // an adjective's adnominal form glued to a noun (어린이보호구역 → 어린/VA+ETM 이보호/NNP 구역/NNG): one noun
    if (!run && next && /^(NNG|NNP)$/.test(next.pos) && /^V[VA]\+ETM$/.test(m.pos)) { run += m.surface; continue; }
    // a bound noun glued to a noun of the same eojeol (수영장을 read as 수/NNB 영장/NNG 을/JKO): one noun
    if (next && /^NNB/.test(m.pos) && /^(NNG|NNP)$/.test(next.pos)) { run += m.surface; continue; }
    if (m.type === 'Compound' || NOUN.has(m.pos) || m.pos === 'XPN' || (run && m.pos === NOUN_SUFFIX)) { run += m.surface; continue; }
    flush();
    // a nominalised verb (괴롭힘 = 괴롭히/VV + ㅁ/ETN, 배기음 read as 배기/VV 음/ETN) is the noun the statutes write
    if (/^V[VA]\+ETN$/.test(m.pos)) { nouns.push(m.surface); continue; }
    if (/^V[VA]$/.test(m.pos) && next?.pos === 'ETN') { nouns.push(m.surface + next.surface); i++; continue; }
    if (m.pos === 'NNB' && KEPT_BOUND.has(m.surface)) { nouns.push(m.surface); continue; }
    if (m.pos === 'SN') { if (number) nouns.push(number); number = m.surface; continue; }
    if (number && COUNTER.has(m.pos)) { nouns.push(number + m.surface); number = ''; continue; }
    if (number) { nouns.push(number); number = ''; }
  }
  flush();
  if (number) nouns.push(number);
  const stems = ms.flatMap((m) => m.parts).filter((p) => /^V[VA]$/.test(p.pos) && p.surface.length >= 2).map((p) => p.surface);
  return { nouns, predicate: ms.some((m) => PREDICATE.test(m.pos) && !/ETN$/.test(m.pos)), stems };
}

/** the eojeol without a question ending the dictionary read as a noun (죄인가요 → 죄인 가요, 학대인가요 → 학대 인 가요) */
function withoutQuestionEnding(ms: Morpheme[]): Morpheme[] {
  const last = ms[ms.length - 1];
  if (ms.length < 2 || !last || !ENDING_NOUNS.has(last.surface)) return ms;
  const rest = ms.slice(0, -1);
  return /^VCP/.test(rest[rest.length - 1]!.pos) && rest.length > 1 ? rest.slice(0, -1) : rest;
}
