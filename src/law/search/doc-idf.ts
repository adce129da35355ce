// A term's rarity among instruments beside its rarity among articles (plain26, switch docIdf): the article index's
// idf counts articles, so a word a small statute writes in many of its articles (사회봉사, 즉결심판, 대체복무) weighs
// like a word spread over as many articles of many instruments (벌금, 자녀); a plain question's subject word is the
// first kind. Counted from the postings already read: an instrument's articles are one contiguous range of the index
// and a posting lists article positions in order, so its distinct instruments are its owner changes.
import type { Posting } from './bm25.js';

/** the number of distinct instruments (owner[article]) among a posting's articles */
export function docFrequency(p: Posting, owner: Uint32Array): number {
  let n = 0, last = -1;
  for (let i = 0; i < p.ids.length; i++) {
    const o = owner[p.ids[i]!]!;
    if (o !== last) { n++; last = o; }
  }
  return n;
}

/**
 * The idf of a term times 1 + weight × (its rarity among the D instruments − its rarity among the N articles), each
 * rarity as a share of its largest value (a term in one place: 1): above 1 for a term concentrated in few instruments.
 */
export function withDocRarity(idf: number, df: number, dfDoc: number, N: number, D: number, weight: number): number {
  const art = Math.log(1 + (N - df + 0.5) / (df + 0.5)) / Math.log(1 + (N - 0.5) / 1.5);
  const doc = Math.log(1 + (D - dfDoc + 0.5) / (dfDoc + 0.5)) / Math.log(1 + (D - 0.5) / 1.5);
  return idf * Math.max(0.1, 1 + weight * (doc - art));
}
