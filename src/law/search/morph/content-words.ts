// The content words of a plain question from its morphological analysis (issue #15, morph22): nouns kept (a noun
// run inside an eojeol joined as the statutes write it: 수입+인지 → 수입인지, 장애+인 → 장애인), the noun of a
// noun + 하다/되다 verb (운전하면 → 운전), a number with its counter (65세, 80명); particles, endings, pronouns,
// determiners, adverbs, bound nouns alone (것, 수, 명) and bare verbs and adjectives dropped.
import { tokens, type Morpheme, type MorphPart } from './analyser.js';

/** tags of content nouns (Sejong tags as mecab-ko-dic writes them; UNKNOWN: a word the dictionary lacks) */
const NOUN = new Set(['NNG', 'NNP', 'XR', 'SL', 'SH', 'UNKNOWN']);
/** a suffix that continues a noun run (장애+인, 사업+자, 근로+자) */
const NOUN_SUFFIX = new Set(['XSN']);
const NUMBER = new Set(['SN', 'NR']);
const COUNTER = new Set(['NNBC', 'NR']);
/** case particles: a copula or ending analysed right before one (수입인지를 → 수입/NNG 인지/VCP+EC 를/JKO) was a noun */
const PARTICLE = /^J/;

/** the eojeols of text (split at whitespace), each as its content words */
export function contentWordsByEojeol(text: string): string[][] {
  const out: string[][] = [];
  let cur: Morpheme[] = [];
  for (const m of tokens(text)) {
    if (m.spaceBefore && cur.length) { out.push(eojeolWords(cur)); cur = []; }
    cur.push(m);
  }
  if (cur.length) out.push(eojeolWords(cur));
  return out;
}

/** the content words of one eojeol's morphemes */
export function eojeolWords(ms: Morpheme[]): string[] {
  const words: string[] = [];
  let run = '';
  let number = '';
  const flush = (): void => { if (run) words.push(run); run = ''; };
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    const next = ms[i + 1];
    // a copula or ending read before a particle (인지 + 를): the dictionary's noun of the same spelling, in the run
    if (run && next && PARTICLE.test(next.pos) && /^(VCP|E)/.test(m.pos) && m.surface.length >= 2) { run += m.surface; continue; }
    if (m.type === 'Compound' || NOUN.has(m.pos)) { run += m.surface; continue; }
    if (run && NOUN_SUFFIX.has(m.pos)) { run += m.surface; continue; }
    flush();
    if (NUMBER.has(m.pos) && m.pos === 'SN') { number = m.surface; continue; }
    if (number && COUNTER.has(m.pos)) { words.push(number + m.surface); number = ''; continue; }
    if (number) { words.push(number); number = ''; }
    if (m.type === 'Preanalysis') words.push(...preanalysedNouns(m.parts));
  }
  flush();
  if (number) words.push(number);
  return words;
}

/** the nouns of a pre-analysed form (a noun with its particle written as one dictionary entry) */
function preanalysedNouns(parts: MorphPart[]): string[] {
  return parts.filter((p) => NOUN.has(p.pos)).map((p) => p.surface);
}
