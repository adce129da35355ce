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
 * or stop-word-heavy queries keep the rarest terms only (at most 8, about 60,000 postings, at least one).
 */
export function selectTerms(post: WeightedPosting[], missing: number, total: number, N: number): { post: WeightedPosting[]; nTerms: number } {
  let nTerms = total - missing;
  const rare = post.filter((x) => x.p.ids.length <= N * 0.08);
  if (rare.length >= 2 && rare.length < post.length) {
    nTerms -= post.length - rare.length;
    post = rare;
  }
  post.sort((a, b) => a.p.ids.length - b.p.ids.length);
  let budget = SEARCH_SWITCHES.postings, keep = 0;
  while (keep < post.length && keep < 8 && (keep === 0 || budget - post[keep]!.p.ids.length >= 0)) { budget -= post[keep]!.p.ids.length; keep++; }
  if (keep < post.length) {
    nTerms -= post.length - keep;
    post = post.slice(0, keep);
  }
  return { post, nTerms };
}

/**
 * Reusable scoring buffers, one 16-byte slot per article so that scoring one posting touches one cache line: the
 * running score (float32 at byte 0), the article's length (uint16 at 4), how many query terms it holds (uint8 at 6),
 * its document (uint32 at 8) and its position there (uint32 at 12); then per document (no per-hit allocation).
 */
export class Bm25 {
  private slots = new ArrayBuffer(0);
  private f32 = new Float32Array(0);
  private u32 = new Uint32Array(0);
  private u16 = new Uint16Array(0);
  private u8 = new Uint8Array(0);
  /** the article tables the slots were filled from */
  private from: Uint16Array | null = null;
  private touched = new Uint32Array(0);
  private agg = new Float64Array(0);
  private ownerBuf = new Uint32Array(0);

  /**
   * Score the articles holding the terms and return each document's best articles among those holding at least
   * `need` of the nTerms terms; when no article holds that many, those holding the most (graceful fallback).
   */
  run(post: WeightedPosting[], t: ArticleTables, nTerms: number, need: number, enough = 1): DocTexts {
    this.fill(t);
    const { nTouched, reached } = this.accumulate(post, t, need);
    // as many articles as wanted hold the needed share: no fallback, no histogram
    const c = reached >= enough || need <= 1 ? Math.max(1, need) : this.coordination(nTouched, need, enough);
    return this.perDocument(nTouched, t, nTerms, c);
  }

  /** the article slots of tables t (filled once per index generation) */
  private fill(t: ArticleTables): void {
    if (this.from === t.len && this.f32.length >= t.N * 4) return;
    this.slots = new ArrayBuffer(t.N * 16);
    this.f32 = new Float32Array(this.slots); this.u32 = new Uint32Array(this.slots); this.u16 = new Uint16Array(this.slots); this.u8 = new Uint8Array(this.slots);
    for (let d = 0; d < t.N; d++) { this.u16[d * 8 + 2] = t.len[d]!; this.u32[d * 4 + 2] = t.owner[d]!; this.u32[d * 4 + 3] = t.seq[d]!; }
    this.touched = new Uint32Array(t.N);
    this.from = t.len;
  }

  /** add every posting's BM25 term score to its article; answers the articles touched and how many hold `need` terms */
  private accumulate(post: WeightedPosting[], t: ArticleTables, need: number): { nTouched: number; reached: number } {
    const { f32, u16, u8, touched } = this;
    let nTouched = 0, reached = 0;
    const normLen = K1 * (1 - B), normB = (K1 * B) / t.avgdl;
    for (const { p, idf } of post) {
      const { ids, tfs } = p;
      const n = ids.length;
      for (let i = 0; i < n; i++) {
        const d = ids[i]!;
        const hb = d * 16 + 6;
        const h = u8[hb]! + 1;
        if (h === 1) touched[nTouched++] = d;
        else if (h === need) reached++;
        u8[hb] = h;
        const tf = tfs[i]!;
        f32[d * 4]! += (idf * tf * (K1 + 1)) / (tf + normLen + normB * u16[d * 8 + 2]!);
      }
    }
    if (need === 1) reached = nTouched;
    return { nTouched, reached };
  }

  /**
   * The number of terms an article must hold: need, lowered step by step while fewer than `enough` articles hold
   * that many (a few odd articles holding the rare words of a question must not shut out every article holding its
   * main terms; the score still grows with the share of terms held).
   */
  private coordination(nTouched: number, need: number, enough: number): number {
    const at = new Uint32Array(need + 1);
    const { u8, touched } = this;
    for (let k = 0; k < nTouched; k++) at[Math.min(need, u8[touched[k]! * 16 + 6]!)]!++;
    let c = need, n = at[need]!;
    while (c > 1 && n < enough) { c--; n += at[c]!; }
    return Math.max(1, c);
  }

  /** best three articles per document; resets the article slots it read */
  private perDocument(nTouched: number, t: ArticleTables, nTerms: number, need: number): DocTexts {
    const { f32, u32, u8, touched } = this;
    if (this.agg.length < t.docs * 7) { this.agg = new Float64Array(t.docs * 7); this.ownerBuf = new Uint32Array(t.docs); }
    const agg = this.agg, ob = this.ownerBuf;
    let n = 0;
    for (let k = 0; k < nTouched; k++) {
      const d = touched[k]!;
      const h = u8[d * 16 + 6]!;
      if (h >= need) {
        const o = u32[d * 4 + 2]!;
        if (agg[o * 7] === 0) { ob[n++] = o; agg[o * 7 + 1] = agg[o * 7 + 3] = agg[o * 7 + 5] = -1; }
        insertBest(agg, o * 7, f32[d * 4]! * (h / nTerms), u32[d * 4 + 3]!);
      }
      f32[d * 4] = 0; u8[d * 16 + 6] = 0;
    }
    const owners = ob.slice(0, n), count = new Float64Array(n), best = new Float64Array(n), seqs = new Float64Array(n * 3);
    for (let i = 0; i < n; i++) {
      const b = owners[i]! * 7;
      count[i] = agg[b]!; best[i] = agg[b + 1]!;
      seqs[i * 3] = agg[b + 2]!; seqs[i * 3 + 1] = agg[b + 4]!; seqs[i * 3 + 2] = agg[b + 6]!;
      agg.fill(0, b, b + 7);
    }
    return { n, owners, count, best, seqsOf: (i) => { const c = count[i]!, b = i * 3; return c >= 3 ? [seqs[b]!, seqs[b + 1]!, seqs[b + 2]!] : c === 2 ? [seqs[b]!, seqs[b + 1]!] : [seqs[b]!]; } };
  }
}

/** count one more matching article of a document and keep its three best (score, position) pairs in order */
function insertBest(agg: Float64Array, base: number, s: number, q: number): void {
  agg[base]!++;
  if (s > agg[base + 1]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = agg[base + 1]!; agg[base + 4] = agg[base + 2]!; agg[base + 1] = s; agg[base + 2] = q; }
  else if (s > agg[base + 3]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = s; agg[base + 4] = q; }
  else if (s > agg[base + 5]!) { agg[base + 5] = s; agg[base + 6] = q; }
}
