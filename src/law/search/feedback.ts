// Pseudo-relevance feedback for plain questions (issue #15, expand24): the words the first pass's best articles share
// are the statute's own terms for what the question says in everyday words (a question about 건설 현장 … 퇴직금 finds
// articles of several laws that write 퇴직공제금, 피공제자). The words written in the best articles of at least two
// different instruments, rare in the corpus, not already asked, are added as one mapped group (query-terms.ts
// groupShares: the group weighs as one word of the question) and the question is searched again. Hand-written: the
// classic scheme (Rocchio / RM3) on this index's words; no library here searches Korean statute text.
import { tokens } from '../normalize.js';
import type { AnalysedQuery } from './query.js';

export interface FeedbackOptions {
  /** words added at most */
  words: number;
  /** a word held by more articles than this is no term of a subject (경우, 해당, 규정) */
  maxDf: number;
  /** articles indexed (the idf's N) */
  N: number;
}

/** The feedback words of the first pass's best article texts (one per instrument, best first); [] if none. */
export function feedbackWords(texts: string[], aq: AnalysedQuery, wordDf: (w: string) => number, o: FeedbackOptions): string[] {
  const asked = new Set(aq.text.split(/\s+/));
  const seen = new Map<string, number>();
  for (const text of texts) {
    for (const w of new Set(tokens(text))) {
      if (w.length < 2 || !/^[가-힣]+$/.test(w) || asked.has(w)) continue;
      seen.set(w, (seen.get(w) ?? 0) + 1);
    }
  }
  const scored: Array<[string, number]> = [];
  for (const [w, n] of seen) {
    if (n < 2) continue;
    const df = wordDf(w);
    if (!df || df > o.maxDf) continue;
    scored.push([w, n * Math.log(1 + o.N / df)]);
  }
  scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return scored.slice(0, o.words).map(([w]) => w);
}

/** The question with the feedback words added as one mapped group (from the question as a whole: '') */
export function withFeedback(aq: AnalysedQuery, words: string[]): AnalysedQuery {
  if (!words.length) return aq;
  const g = words.join(' ');
  return { ...aq, text: `${aq.text} ${g}`, mapped: [aq.mapped, g].filter(Boolean).join(' '), mappedGroups: [...(aq.mappedGroups ?? []), g],
    mappedFrom: [...(aq.mappedFrom ?? []), ''], words: [...new Set([...aq.words, ...words])] };
}

/** a first pass too close to call: its first hit scores less than ratio × its second's (ratio 0: every pass) */
export function weakPass(hits: ReadonlyArray<{ score: number }>, ratio: number): boolean {
  if (!ratio) return true;
  return hits.length > 1 && hits[0]!.score < ratio * hits[1]!.score;
}

/** the first pass's best n hits in the order of their scores in the second pass (the rest as they were): feedback as
 *  a re-ranking only, no document enters the first n */
export function reorderTop<H extends { doc: unknown; score: number }>(first: H[] & { total: number }, second: H[], n: number): H[] & { total: number } {
  const by = new Map(second.map((h) => [h.doc, h.score]));
  const head = first.slice(0, n).map((h, i) => ({ h, s: by.get(h.doc) ?? -Infinity, i }));
  head.sort((a, b) => b.s - a.s || a.i - b.i);
  return Object.assign([...head.map((x) => x.h), ...first.slice(n)], { total: first.total });
}
