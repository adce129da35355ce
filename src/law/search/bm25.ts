// BM25 over the character-bigram article index: which query terms to score (rare ones, within a postings budget),
// the per-article accumulation, and the best three articles per document with a graceful coordination fallback.

import { SEARCH_SWITCHES } from './switches.js';

export interface Posting { ids: Uint32Array; tfs: Uint8Array }
export interface WeightedPosting { p: Posting; idf: number }

/** the persisted per-article tables of one index generation */
export interface ArticleTables { N: number; avgdl: number; owner: Uint32Array; seq: Uint32Array; len: Uint16Array; docs: number }

/**
 * The documents with text evidence, as columns (no object per document: a common word matches thousands):
 * owners[i] has count[i] matching articles, best score best[i], and its best (up to three) article positions.
 */
export interface DocTexts { n: number; owners: Uint32Array; count: Float64Array; best: Float64Array; seqsOf(i: number): number[] }

const K1 = 1.2, B = 0.75;

/**
 * The terms worth scoring and how many count for coordination: terms absent from the index do not count; very
 * common bigrams (in more than 8 % of articles, e.g. 대통령령's 대통) are dropped when two rarer ones are left; long
 * or stop-word-heavy queries keep the rarest terms only (at most `max`, about 60,000 postings, at least one; taken word
 * by word with byWords: byWord below). Reads the
 * document frequencies (df) only: the postings of the terms kept are read after.
 */
export function selectTerms<T extends { df: number; g?: number }>(post: T[], missing: number, total: number, N: number, max = 8, byWords = false): { post: T[]; nTerms: number } {
  let nTerms = total - missing;
  const rare = post.filter((x) => x.df <= N * 0.08);
  if (rare.length >= 2 && rare.length < post.length) {
    nTerms -= post.length - rare.length;
    post = rare;
  }
  post.sort((a, b) => a.df - b.df);
  if (byWords && post.some((x) => x.g !== undefined)) post = byWord(post);
  let budget = SEARCH_SWITCHES.postings, keep = 0;
  while (keep < post.length && keep < max && (keep === 0 || budget - post[keep]!.df >= 0)) { budget -= post[keep]!.df; keep++; }
  if (keep < post.length) {
    nTerms -= post.length - keep;
    post = post.slice(0, keep);
  }
  return { post, nTerms };
}

/**
 * The terms (rarest first) taken word by word (plain24, switch wordTerms): each question word's rarest bigram, then
 * each one's second, …, so the 8 scored terms span the question's words rather than the rare bigrams of one or two
 * long words (the rarest are often a word the statutes never write). Terms of no word come last.
 */
function byWord<T extends { df: number; g?: number }>(sorted: T[]): T[] {
  const rank = new Map<number, number>(), at = new Map<T, number>();
  for (const x of sorted) {
    if (x.g === undefined) { at.set(x, Infinity); continue; }
    const r = rank.get(x.g) ?? 0;
    rank.set(x.g, r + 1);
    at.set(x, r);
  }
  // (a stable sort: within one rank the rarest first)
  return sorted.slice().sort((a, b) => at.get(a)! - at.get(b)!);
}

/** Reusable scoring buffers (typed arrays indexed by article, then by document: no per-hit allocation). */
export class Bm25 {
  private scores = new Float32Array(0);
  private hits = new Uint8Array(0);
  private touched = new Uint32Array(0);
  private agg = new Float64Array(0);
  private ownerBuf = new Uint32Array(0);
  /** the articles count() touched (the first this.nTouched of touched), and score()'s kept ones sorted by position */
  private nTouched = 0;
  private sorted = new Uint32Array(0);

  /**
   * Score the articles holding the terms and return each document's best articles among those holding at least
   * `need` of the nTerms terms; when no article holds that many, those holding the most (graceful fallback).
   */
  run(post: WeightedPosting[], t: ArticleTables, nTerms: number, need: number, enough = 1): DocTexts {
    // one term needed: every article touched is kept, so counting and scoring go in one pass
    if (need <= 1) return this.perDocument(this.accumulate(post, t, need).nTouched, t, nTerms, 1);
    const reached = this.count(post, t.N, need);
    // as many articles as wanted hold the needed share: no fallback
    const c = reached[need]! >= enough ? need : coordination(reached, need, enough);
    // the kept articles (in the order touched) to their documents
    return this.perDocument(this.score(post, t, c, reached[c]!), t, nTerms, c);
  }

  /**
   * How many of the terms each article holds (the articles touched, and how many hold each number), before any score:
   * most postings of a many-term query belong to articles holding too few terms to be kept, and score() then skips
   * their term score (the division is most of the cost of a posting). speed20: see bench/RESULTS.md.
   */
  private count(post: WeightedPosting[], N: number, need: number): Uint32Array {
    this.grow(N);
    const { hits, touched } = this;
    // reached[h]: the articles holding h terms or more, counted as they get there (speed24: coordination() read every
    // article touched again for its histogram, a pass as long as this one, on every plain question short of `enough`)
    const reached = new Uint32Array(Math.max(post.length, need) + 2);
    // (speed25: the first term's articles are all new — a posting holds an article once — so they are copied, not
    // tested; and reached[1] is the count of articles touched, set after: an increment of reached[1] at every new
    // article was a chain of dependent writes to one place, 3 % of the search CPU at p50)
    const first = post[0]?.p.ids;
    let nTouched = 0;
    if (first) {
      touched.set(first);
      for (let i = 0; i < first.length; i++) hits[first[i]!] = 1;
      nTouched = first.length;
    }
    for (let j = 1; j < post.length; j++) {
      const ids = post[j]!.p.ids, n = ids.length;
      for (let i = 0; i < n; i++) {
        const d = ids[i]!;
        const h = hits[d]! + 1;
        hits[d] = h;
        if (h === 1) touched[nTouched++] = d;
        else reached[h]!++;
      }
    }
    reached[1] = nTouched;
    this.nTouched = nTouched;
    return reached;
  }

  /**
   * Add the BM25 term scores of the articles holding at least c terms (term by term, as accumulate adds them: the
   * same float32 sums) and reset the count of the others. Answers how many were kept (reached[c] of count()): their
   * positions replace the touched list, in the order count() touched them (an article first met at its first term's
   * posting), for perDocument.
   *
   * speed25: when the kept articles are few against the postings (a question whose rare terms meet in few articles),
   * each term's postings are read only where a kept article is (kept()): the kept positions sorted, then met in each
   * term's ids (ascending: build.ts writes a term's articles in article order) by a merge, or by a galloping search.
   * Otherwise (plain questions keep thousands: sorting them costs more than it saves) every posting of every term is
   * read again to test its article's count (byPosting). Both add the same sums in the same term order.
   */
  private score(post: WeightedPosting[], t: ArticleTables, c: number, nKept: number): number {
    let all = 0, met = 0;
    for (const { p } of post) { const n = p.ids.length; all += n; met += Math.min(n, meetCost(nKept, n)); }
    if (this.nTouched + nKept * Math.log2(nKept + 1) + met < all) return this.kept(post, t, c);
    return this.byPosting(post, t, c);
  }

  /** score() reading every posting: an article's first posting with enough terms puts it in the kept list */
  private byPosting(post: WeightedPosting[], t: ArticleTables, c: number): number {
    const { scores: sc, hits, touched: kept } = this;
    let nKept = 0;
    const len = t.len;
    const normLen = K1 * (1 - B), normB = (K1 * B) / t.avgdl;
    for (const { p, idf } of post) {
      const { ids, tfs } = p;
      const n = ids.length;
      for (let i = 0; i < n; i++) {
        const d = ids[i]!;
        const h = hits[d]!;
        // (an article left out is left out at every posting: its count back to 0 at the first, 0 < c after)
        if (h < c) { if (h) hits[d] = 0; continue; }
        // a term score is > 0 (idf > 0, tf ≥ 1): a score of 0 is an article not yet scored
        if (sc[d] === 0) kept[nKept++] = d;
        const tf = tfs[i]!;
        sc[d]! += (idf * tf * (K1 + 1)) / (tf + normLen + normB * len[d]!);
      }
    }
    return nKept;
  }

  /** score() reading the postings where a kept article is: the touched list filtered, its positions sorted and met in
   * each term's ids */
  private kept(post: WeightedPosting[], t: ArticleTables, c: number): number {
    const { scores: sc, hits, touched: kept } = this;
    let nKept = 0;
    for (let k = 0; k < this.nTouched; k++) {
      const d = kept[k]!;
      if (hits[d]! >= c) kept[nKept++] = d;
      else hits[d] = 0;
    }
    if (this.sorted.length < kept.length) this.sorted = new Uint32Array(kept.length);
    const byId = this.sorted.subarray(0, nKept);
    byId.set(kept.subarray(0, nKept));
    byId.sort();
    const len = t.len;
    const normLen = K1 * (1 - B), normB = (K1 * B) / t.avgdl;
    for (const { p, idf } of post) {
      const { ids, tfs } = p;
      const n = ids.length;
      const gallop = meetCost(nKept, n) < n;
      let i = 0;
      for (let k = 0; k < nKept && i < n; k++) {
        const d = byId[k]!;
        if (gallop) i = lowerBound(ids, d, i);
        else while (i < n && ids[i]! < d) i++;
        if (i === n || ids[i] !== d) continue;
        const tf = tfs[i]!;
        sc[d]! += (idf * tf * (K1 + 1)) / (tf + normLen + normB * len[d]!);
        i++;
      }
    }
    return nKept;
  }

  /** the article buffers sized for N articles */
  private grow(N: number): void {
    if (this.scores.length < N) { this.scores = new Float32Array(N); this.hits = new Uint8Array(N); this.touched = new Uint32Array(N); }
  }

  /** add every posting's BM25 term score to its article; answers the articles touched and how many hold `need` terms */
  private accumulate(post: WeightedPosting[], t: ArticleTables, need: number): { nTouched: number; reached: number } {
    this.grow(t.N);
    const { scores: sc, hits, touched } = this;
    const len = t.len;
    let nTouched = 0, reached = 0;
    const normLen = K1 * (1 - B), normB = (K1 * B) / t.avgdl;
    for (const { p, idf } of post) {
      const { ids, tfs } = p;
      const n = ids.length;
      for (let i = 0; i < n; i++) {
        const d = ids[i]!;
        const h = hits[d]! + 1;
        if (h === 1) touched[nTouched++] = d;
        else if (h === need) reached++;
        hits[d] = h;
        const tf = tfs[i]!;
        sc[d]! += (idf * tf * (K1 + 1)) / (tf + normLen + normB * len[d]!);
      }
    }
    if (need === 1) reached = nTouched;
    return { nTouched, reached };
  }

  /** best three articles per document among the first nList articles of the touched list (or of those score()
   * kept there); resets the article buffers it read */
  private perDocument(nList: number, t: ArticleTables, nTerms: number, need: number): DocTexts {
    const { scores: sc, hits, touched: list } = this;
    if (this.agg.length < t.docs * 7) { this.agg = new Float64Array(t.docs * 7); this.ownerBuf = new Uint32Array(t.docs); }
    const agg = this.agg, ob = this.ownerBuf;
    let n = 0;
    for (let k = 0; k < nList; k++) {
      const d = list[k]!;
      const h = hits[d]!;
      if (h >= need) {
        const o = t.owner[d]!;
        if (agg[o * 7] === 0) { ob[n++] = o; agg[o * 7 + 1] = agg[o * 7 + 3] = agg[o * 7 + 5] = -1; }
        insertBest(agg, o * 7, sc[d]! * (h / nTerms), t.seq[d]!);
      }
      sc[d] = 0; hits[d] = 0;
    }
    const owners = ob.slice(0, n), count = new Float64Array(n), best = new Float64Array(n), seqs = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const b = owners[i]! * 7;
      count[i] = agg[b]!; best[i] = agg[b + 1]!;
      seqs[i * 3] = agg[b + 2]!; seqs[i * 3 + 1] = agg[b + 4]!; seqs[i * 3 + 2] = agg[b + 6]!;
      agg[b] = agg[b + 1] = agg[b + 2] = agg[b + 3] = agg[b + 4] = agg[b + 5] = agg[b + 6] = 0;
    }
    return { n, owners, count, best, seqsOf: (i) => { const c = count[i]!, b = i * 3; return c >= 3 ? [seqs[b]!, seqs[b + 1]!, seqs[b + 2]!] : c === 2 ? [seqs[b]!, seqs[b + 1]!] : [seqs[b]!]; } };
  }
}

/**
 * The number of terms an article must hold: need, lowered step by step while fewer than `enough` articles hold
 * that many (a few odd articles holding the rare words of a question must not shut out every article holding its
 * main terms; the score still grows with the share of terms held). reached[h]: the articles holding h terms or more.
 */
function coordination(reached: Uint32Array, need: number, enough: number): number {
  let c = need;
  while (c > 1 && reached[c]! < enough) c--;
  return Math.max(1, c);
}

/**
 * The value at position k of xs sorted ascending (what xs.slice().sort()[k] answers for finite values), by
 * selection (Hoare's quickselect, middle pivot) on a copy in a reused buffer: O(n), not a sort of every document's
 * best score (the cut at MAX_TEXT_HITS in search.ts; speed25: the sort was ≈ 3 % of the compute of the slowest
 * questions, those matching thousands of documents).
 */
let selectBuf = new Float64Array(0);
export function kthSmallest(xs: Float64Array, k: number): number {
  const n = xs.length;
  if (selectBuf.length < n) selectBuf = new Float64Array(n);
  const a = selectBuf;
  a.set(xs);
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) { const x = a[i]!; a[i] = a[j]!; a[j] = x; i++; j--; }
    }
    // a[lo..j] ≤ pivot ≤ a[i..hi], and a[j+1..i-1] = pivot
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** the postings a galloping search reads to meet `kept` sorted positions in n ascending ids (≈ 2 log2 of the gap) */
function meetCost(kept: number, n: number): number {
  return kept * 2 * Math.log2(1 + n / Math.max(1, kept));
}

/** the first position ≥ from whose id is ≥ d (ids ascending): steps doubling from `from`, then a binary search */
function lowerBound(ids: Uint32Array, d: number, from: number): number {
  const n = ids.length;
  if (from >= n || ids[from]! >= d) return from;
  let lo = from, step = 1;
  // ids[lo] < d throughout
  while (lo + step < n && ids[lo + step]! < d) { lo += step; step *= 2; }
  let hi = Math.min(n, lo + step);
  // ids[lo] < d ≤ ids[hi] (or hi = n)
  while (hi - lo > 1) { const mid = (lo + hi) >>> 1; if (ids[mid]! < d) lo = mid; else hi = mid; }
  return hi;
}

/** count one more matching article of a document and keep its three best (score, position) pairs in order */
function insertBest(agg: Float64Array, base: number, s: number, q: number): void {
  agg[base]!++;
  if (s > agg[base + 1]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = agg[base + 1]!; agg[base + 4] = agg[base + 2]!; agg[base + 1] = s; agg[base + 2] = q; }
  else if (s > agg[base + 3]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = s; agg[base + 4] = q; }
  else if (s > agg[base + 5]!) { agg[base + 5] = s; agg[base + 6] = q; }
}
