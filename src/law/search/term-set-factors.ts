// The WordWeights factor of a set of scored terms (bm25.ts; plain24), computed when an article first holds that set
// (speed24). plain24's 12 scored terms made the table of every set 4,096 entries, each built through Maps, for every
// plain question, while the articles kept hold a few dozen distinct sets: a set's factor is now computed on first
// read and kept for the query, with the same arithmetic in the same order (the same float64 values).

/** a scored term as the factor reads it (bm25.ts WeightedPosting), and the weights it applies (bm25.ts WordWeights) */
export interface SetTerm { idf: number; g?: number; m?: boolean }
export interface SetWeights { cover: number; whole: number }

export class TermSetFactors {
  private readonly n: number;
  /** per term: its word's dense index (-1: no word), its idf, whether mapped */
  private readonly word: Int32Array;
  private readonly idf: Float64Array;
  private readonly mapped: Uint8Array;
  /** per word: its scored terms; the number of words */
  private readonly per: Int32Array;
  private readonly words: number;
  /** scratch: per word, its terms in the set at hand */
  private readonly held: Int32Array;
  private readonly memo: Float64Array;
  private readonly done: Uint8Array;

  constructor(post: SetTerm[], private readonly ww: SetWeights) {
    const n = (this.n = post.length), dense = new Map<number, number>();
    this.word = new Int32Array(n); this.idf = new Float64Array(n); this.mapped = new Uint8Array(n);
    post.forEach((x, k) => {
      this.idf[k] = x.idf; this.mapped[k] = x.m ? 1 : 0;
      if (x.g === undefined) { this.word[k] = -1; return; }
      if (!dense.has(x.g)) dense.set(x.g, dense.size);
      this.word[k] = dense.get(x.g)!;
    });
    this.words = dense.size;
    this.per = new Int32Array(this.words); this.held = new Int32Array(this.words);
    for (let k = 0; k < n; k++) if (this.word[k]! >= 0) this.per[this.word[k]!]!++;
    this.memo = new Float64Array(1 << n); this.done = new Uint8Array(1 << n);
  }

  /** the factor of the set `mask` (bit k: post[k]) */
  of(mask: number): number {
    if (this.done[mask]) return this.memo[mask]!;
    this.done[mask] = 1;
    return (this.memo[mask] = this.compute(mask));
  }

  /** the words' coverage × the idf-weighted wholeness of the words held (as bm25.ts's table was built, plain24) */
  private compute(mask: number): number {
    const { n, word, held, per, ww } = this;
    held.fill(0);
    let distinct = 0;
    for (let k = 0; k < n; k++) if (mask & (1 << k) && word[k]! >= 0 && held[word[k]!]!++ === 0) distinct++;
    let num = 0, den = 0;
    for (let k = 0; k < n; k++) {
      const w = word[k]!;
      if (!(mask & (1 << k)) || w < 0) continue;
      // (a mapped group is several statutory words: any of them is the group whole)
      const c = this.mapped[k] ? 1 : held[w]! / per[w]!;
      num += this.idf[k]! * (ww.whole > 0 ? Math.pow(c, ww.whole) : 1); den += this.idf[k]!;
    }
    let f = den > 0 ? num / den : 1;
    if (ww.cover > 0 && this.words > 1) f *= Math.pow(distinct / this.words, ww.cover);
    return f;
  }
}
