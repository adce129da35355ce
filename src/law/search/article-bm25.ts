// A BM25-like weight of the article choice's candidate texts (article27, issue #15): each of the question's words
// counts by how often a candidate's text holds it, saturating (k1 1.2) and discounted for a text longer than the
// candidates' mean (b 0.75), times the word's weight in the choice (titles.ts: already weighed by its rarity among
// the instrument's titles, docIdf). The choice's recall (titles.ts titleRecall) only asks whether a word is there;
// an article that states the matter uses its words again and again (소멸시효 in 채권, 재산권의 소멸시효).
// Hand-written: the search's BM25 (bm25.ts) ranks documents over the corpus's postings, not a document's articles;
// an idf over the instrument's own articles ranked better (leave-one-set-out 447 against 441 of 573) but needs every
// article's text at each question: search CPU per query p50 +47 %, p99 ×2.7 (bench/RESULTS.md article27), not kept.

const K1 = 1.2, B = 0.75;

/** occurrences of w in s, left to right, not overlapping */
function count(s: string, w: string): number {
  let n = 0;
  for (let at = s.indexOf(w); at >= 0; at = s.indexOf(w, at + w.length)) n++;
  return n;
}

/** each candidate text's weight over the words, as a share of the best candidate's (all 0 when none holds a word) */
export function candidateBm25(words: Array<{ w: string; wt: number }>, texts: string[]): Float64Array {
  const out = new Float64Array(texts.length);
  let avg = 0;
  for (const t of texts) avg += t.length;
  avg = Math.max(1, avg / Math.max(1, texts.length));
  for (const { w, wt } of words) {
    for (let i = 0; i < texts.length; i++) {
      const tf = count(texts[i]!, w);
      if (tf) out[i]! += wt * tf * (K1 + 1) / (tf + K1 * (1 - B + B * texts[i]!.length / avg));
    }
  }
  let best = 0;
  for (const v of out) best = Math.max(best, v);
  if (best > 0) for (let i = 0; i < out.length; i++) out[i]! /= best;
  return out;
}
