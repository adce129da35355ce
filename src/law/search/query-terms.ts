// The index terms of an analysed query and their weights (search.ts textMatches): bigram ids, compounds split where
// the corpus says so, each term's df and idf (the statutory terms a plain question was mapped to weigh differently).
import { termIds } from '../normalize.js';
import type { AnalysedQuery } from './query.js';
import { SEARCH_SWITCHES } from './switches.js';

/** a query term with its document frequency and weight (its posting is read only if the term is scored) */
export interface TermWeight { t: number; df: number; idf: number; g?: number }

/** an inner bigram of a word this many times rarer than both neighbours splits the compound there */
const SPLIT_RATIO = 20;

/** The query's terms with their df and idf over N indexed articles; terms not in the index are counted as missing. */
export function weightedTerms(aq: AnalysedQuery, query: string, N: number, dfOf: (t: number) => number): { post: TermWeight[]; missing: number; total: number } {
  // (each term's df read once: the question's text, each of its words and each mapped group split the same bigrams
  // again, and every read is a cache look-up through the postings; speed24)
  const seen = new Map<number, number>();
  const df = (t: number): number => { let d = seen.get(t); if (d === undefined) seen.set(t, (d = dfOf(t))); return d; };
  let qt = [...new Set(compoundTerms(aq.text || aq.core || query, df))];
  const mapped = aq.plain && aq.mapped ? new Set(termIds(aq.mapped)) : null;
  const share = mapped && aq.mappedGroups ? groupShares(aq, df) : null;
  if (share) qt = qt.filter((t) => share.get(t) !== 0);
  const post: TermWeight[] = [];
  const words = wordByWord(aq) ? wordOfTerms(aq, df) : null;
  let missing = 0;
  for (const t of qt) {
    const d = df(t);
    if (!d) { missing++; continue; }
    const x: TermWeight = { t, df: d, idf: Math.log(1 + (N - d + 0.5) / (d + 0.5)) * (mapped?.has(t) ? SEARCH_SWITCHES.mappedIdf * (share?.get(t) ?? 1) : 1) };
    const g = words?.get(t);
    if (g !== undefined) x.g = g;
    post.push(x);
  }
  return { post, missing, total: qt.length };
}

/**
 * A plain question's terms are taken word by word, up to plainTerms (bm25.ts selectTerms, plain24), unless it names
 * a statute, expanded (aq.named) or by a word ending in 법 (국민참여재판법, matched by the names): the statute is
 * the subject, and the other words' many terms would outweigh its own (h9-abbrev-004 fell from first to second).
 */
export function wordByWord(aq: AnalysedQuery): boolean {
  return aq.plain && SEARCH_SWITCHES.wordTerms > 0 && !aq.named.length && !aq.core.split(/\s+/).some((w) => w.length >= 3 && w.endsWith('법'));
}

/**
 * Each term's question word (plain24, for bm25.ts byWord): the question's own words in order, then each word's
 * mapped terms as one word (아버지's 부 직계존속); a bigram of an own word is the own word's.
 */
function wordOfTerms(aq: AnalysedQuery, df: (t: number) => number): Map<number, number> {
  const out = new Map<number, number>();
  const own = aq.core.split(/\s+/).filter(Boolean);
  own.forEach((w, i) => { for (const t of compoundTerms(w, df)) if (!out.has(t)) out.set(t, i); });
  (aq.mappedGroups ?? []).forEach((w, j) => { for (const t of compoundTerms(w, df)) if (!out.has(t)) out.set(t, own.length + j); });
  return out;
}

/**
 * The mapped terms' share of their question word (vocab23): the statutory terms one everyday word was mapped to
 * (아버지 → 부 직계존속, PC방 → 인터넷컴퓨터게임시설제공업) carry as many bigrams as they are long, and each bigram
 * weighs as a word of the question, so one mapped word outweighs the question's own words and fills the 8 terms
 * scored. Each word's mapped terms keep their `mappedBigrams` rarest bigrams (0 = dropped; switch mappedGroup 1), or
 * all of them at `mappedBigrams` / their count of the weight (mappedGroup 2). A bigram of the question's own words
 * is not touched; one in two groups takes the larger share. null: the switch is off.
 */
function groupShares(aq: AnalysedQuery, df: (t: number) => number): Map<number, number> | null {
  const mode = SEARCH_SWITCHES.mappedGroup, k = SEARCH_SWITCHES.mappedBigrams;
  if (!mode || !k) return null;
  const own = new Set(termIds(aq.core));
  const share = new Map<number, number>();
  aq.mappedGroups!.forEach((g, gi) => {
    // (its bigrams as the query's terms are made: a compound's seam is not one)
    const found = [...new Set(compoundTerms(g, df))].map((t) => ({ t, d: df(t) })).filter((x) => x.d > 0 && !own.has(x.t));
    // (the rarest first where only some are kept)
    const ids = (mode === 1 || mode === 3 ? found.sort((a, b) => a.d - b.d) : found).map((x) => x.t);
    // mode 3 and 4: as many bigrams (the rarest, or all at that share of the weight) as the word they stand for
    const kk = mode >= 3 ? Math.max(k, termIds(aq.mappedFrom?.[gi] ?? '').length) : k;
    ids.forEach((t, i) => {
      const s = mode === 1 || mode === 3 ? (i < kk ? 1 : 0) : Math.min(1, kk / ids.length);
      share.set(t, Math.max(share.get(t) ?? 0, s));
    });
  });
  return share;
}

/**
 * The term ids of a text, each compound split where the corpus says so: a bigram inside a word that is far rarer
 * than both its neighbours straddles two words written together (점유취득시효: 유취, 득시; 야간근로수당: 로수) and
 * is no evidence; it is dropped (a compound the statutes also write, 근로시간's 로시, keeps it).
 */
export function compoundTerms(text: string, df: (t: number) => number): number[] {
  if (!SEARCH_SWITCHES.compoundSplit) return termIds(text);
  const out: number[] = [];
  for (const w of text.split(/\s+/)) {
    const ids = termIds(w);
    if (ids.length < 3) { out.push(...ids); continue; }
    const d = ids.map(df);
    for (let i = 0; i < ids.length; i++) {
      const inner = i > 0 && i < ids.length - 1;
      if (inner && d[i]! * SPLIT_RATIO < Math.min(d[i - 1]!, d[i + 1]!)) continue;
      out.push(ids[i]!);
    }
  }
  return out;
}
