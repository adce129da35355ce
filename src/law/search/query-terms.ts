// The index terms of an analysed query and their weights (search.ts textMatches): bigram ids, compounds split where
// the corpus says so, each term's df and idf (the statutory terms a plain question was mapped to weigh differently).
import { termIds } from '../normalize.js';
import type { AnalysedQuery } from './query.js';
import { SEARCH_SWITCHES } from './switches.js';

/** a query term with its document frequency and weight (its posting is read only if the term is scored) */
export interface TermWeight { t: number; df: number; idf: number }

/** an inner bigram of a word this many times rarer than both neighbours splits the compound there */
const SPLIT_RATIO = 20;

/** The query's terms with their df and idf over N indexed articles; terms not in the index are counted as missing. */
export function weightedTerms(aq: AnalysedQuery, query: string, N: number, df: (t: number) => number): { post: TermWeight[]; missing: number; total: number } {
  const qt = [...new Set(compoundTerms(aq.text || aq.core || query, df))];
  const mapped = aq.plain && aq.mapped ? new Set(termIds(aq.mapped)) : null;
  const post: TermWeight[] = [];
  let missing = 0;
  for (const t of qt) {
    const d = df(t);
    if (!d) { missing++; continue; }
    post.push({ t, df: d, idf: Math.log(1 + (N - d + 0.5) / (d + 0.5)) * (mapped?.has(t) ? SEARCH_SWITCHES.mappedIdf : 1) });
  }
  return { post, missing, total: qt.length };
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
