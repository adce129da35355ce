// A rule whose name holds several of a plain question's distinctive words, and one of whose best articles holds them
// too, answers the question in its own terms (issue 15, admrul25): 현금영수증 … 신고 … 포상금 → 현금영수증 발급 의무
// 위반자를 신고한 자에 대한 포상금 지급 규정 고시; 체불 근로자 생계비 → 임금등 체불 근로자 생계비 융자사업 고시. Such a
// rule competes with the statutes on evidence (the statutes' prior, search.ts rank), as one asked for by its subject.
// One word in the name is not enough (vocab23's rulePlainWord: 연장근로 → 특별연장근로 건강보호조치 over 근로기준법),
// and the name alone is not enough: its article must hold the words as well. Hand-written: no library ranks this.
import { nameKey } from '../normalize.js';
import { coverageOf, type CoverageWord } from './rule-coverage.js';
import { SEARCH_SWITCHES } from './switches.js';

/** the rule's name less its kind ending (…에 관한 고시, 규정, 지침 …): the kind is no evidence of the subject */
const KIND_END = /(에관한)?(고시|규정|지침|훈령|예규|세칙|요령|준칙|기준)+$/;

/** a rule's name as a key less its kind, memoised (the same rules come back query after query) */
const keys = new Map<string, string>();
function keyOf(name: string): string {
  let k = keys.get(name);
  if (k === undefined) {
    if (keys.size > 50_000) keys.clear();
    keys.set(name, (k = nameKey(name).replace(KIND_END, '')));
  }
  return k;
}

/** the name could hold ruleNameCoverMin of the question's own words (`own`: name keys): a check without the words'
 *  rarity, which reads the index (search.ts reads it only for a rule passing this) */
export function nameMayCover(name: string, own: string[]): boolean {
  const key = keyOf(name);
  let n = 0;
  for (const w of own) if (w.length >= 2 && key.includes(w)) n++;
  return n >= SEARCH_SWITCHES.ruleNameCoverMin;
}

/** the question's words the name holds, weighed by rarity: its own words only (a word's mapped terms in the name —
 *  measured by admrul25: plain −4 on the studied sets — do not hold it) */
export function nameCoverOf(name: string, words: CoverageWord[]): { share: number; found: number } {
  const key = keyOf(name);
  return coverageOf(key, words.map((w) => ({ w: w.w, idf: w.idf })));
}

/** the share of the question's word rarity the rule's name holds when it holds at least ruleNameCoverMin question
 *  words and ruleNameCoverShare of their rarity, and one of its best articles (`bodies`) holds at least
 *  ruleNameCoverMin of them; else 0 */
export function nameCovers(name: string, words: CoverageWord[], bodies: () => string[]): number {
  const min = SEARCH_SWITCHES.ruleNameCoverMin;
  const n = nameCoverOf(name, words);
  if (n.found < min || n.share < SEARCH_SWITCHES.ruleNameCoverShare) return 0;
  return bodies().some((b) => coverageOf(b, words).found >= min) ? n.share : 0;
}
