// The posting lists of the article-text index, read on demand (search.ts scores them with bm25.ts) from LMDB, or
// from the generation's side file when longer than a chunk of the map (long-values.ts): a bounded cache of the
// decoded lists read from LMDB, a scratch space reused query after query for the side file's, and a cache of the
// terms' document frequencies, per generation.
import type { SearchSource } from './source.js';
import type { Posting } from './bm25.js';
import { ByteCache } from '../cache.js';
import type { LongValues } from './long-values.js';

/** decoded posting lists kept per thread (the hot bigrams; least recently used out first). 8 MB costs no CPU against
 * 32 or 64 MB (bench/RESULTS.md, speed17): a miss is one LMDB read and a copy */
const POSTING_CACHE_BYTES = 8 * 1024 * 1024;
/** term document frequencies kept per thread, counted at DF_BYTES each (a Map entry and its holder): 20,000 terms */
const DF_BYTES = 50;
const DF_CACHE_BYTES = 20_000 * DF_BYTES;

export class Postings {
  private gen = 0;
  private cache = new ByteCache<number, Posting | null>(POSTING_CACHE_BYTES);
  /** document frequency per term (terms weighed without their postings read; see df) */
  private dfs = new ByteCache<number, number>(DF_CACHE_BYTES);

  constructor(private readonly law: SearchSource, private readonly long: LongValues) {}

  /** read generation gen from now on (the caches emptied) */
  open(gen: number): void {
    this.cache.clear();
    this.dfs.clear();
    this.gen = gen;
  }

  /**
   * The side file's postings (longer than 16 KiB) are read into this scratch space, one after the other, and are not
   * cached (speed23): the 8 MB cache held almost none of them (566 of 593 read again on every pass of the 676
   * questions, 21.9 MB a pass), and each read was a fresh array for the GC. Valid until the next newQuery().
   */
  private scratch = new Uint8Array(0);
  private scratchAt = 0;

  /** the postings read for the previous query are no longer used: their scratch space is reused */
  newQuery(): void {
    this.scratchAt = 0;
  }

  /** a long posting in the scratch space (grown when short: the views already handed out keep the old buffer) */
  private longPosting(t: number, len: number): Posting {
    if (this.scratchAt + len > this.scratch.length) {
      this.scratch = new Uint8Array(Math.max(this.scratch.length * 2, len + (1 << 20)));
      this.scratchAt = 0;
    }
    const at = this.scratchAt, buf = this.scratch;
    this.long.readInto('postings', t, buf.subarray(at, at + len));
    // (the next one starts at a multiple of 4: its ids are a Uint32Array view)
    this.scratchAt = (at + len + 3) & ~3;
    const n = len / 5;
    return { ids: new Uint32Array(buf.buffer, buf.byteOffset + at, n), tfs: buf.subarray(at + n * 4, at + len) };
  }

  posting(t: number): Posting | null {
    let p = this.cache.get(t);
    if (p !== undefined) return p;
    const len = this.long.length('postings', t);
    if (len !== undefined) return this.longPosting(t, len);
    const b = this.law.idx.getBinaryFast([this.gen, t]);
    if (!b) p = null;
    else {
      const n = b.length / 5;
      // getBinaryFast answers LMDB's read buffer, reused by the next read: copied once into a plain Uint8Array of its
      // own (getBinary's copy is a Buffer, made through Node's FastBuffer constructor, and its subarray another)
      // (its length is the value's; the typed array under it is the whole buffer)
      const c = new Uint8Array(b.length);
      c.set(new Uint8Array(b.buffer, b.byteOffset, b.length));
      p = { ids: new Uint32Array(c.buffer, 0, n), tfs: c.subarray(n * 4) };
    }
    // LMDB pages are mapped, not copied: the cache holds the decoded lists
    this.cache.set(t, p, p ? p.tfs.length * 5 + 200 : 32);
    return p;
  }

  /**
   * A term's document frequency (its posting's length; 0: not in the index). Most terms of a query are weighed and
   * dropped (too common, over the postings budget) or only split compounds: their postings (up to 0.5 MB for a bigram
   * like 대통) are not copied out of LMDB for their length; the lengths are kept in a small cache of their own.
   */
  df(t: number): number {
    const p = this.cache.peek(t);
    if (p !== undefined) return p ? p.ids.length : 0;
    let n = this.dfs.get(t);
    if (n === undefined) {
      // getBinaryFast answers LMDB's reused read buffer: only its length is read
      n = (this.long.length('postings', t) ?? this.law.idx.getBinaryFast([this.gen, t])?.length ?? 0) / 5;
      this.dfs.set(t, n, DF_BYTES);
    }
    return n;
  }
}
