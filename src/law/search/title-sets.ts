// The article-title sets of the index's documents (titles.ts TitleSet), read from the index generation on demand and
// kept in a bounded cache per thread: the title evidence and the article choice read them (search.ts).
import type { SearchSource } from './source.js';
import { nameKeyText } from '../normalize.js';
import { titleSet, type TitleSet } from './titles.js';
import { ByteCache } from '../cache.js';
import type { LongValues } from './long-values.js';

/** article-title sets kept per thread (a document's titles as name keys, for title evidence); every set the 556
 * evaluation questions read (3,037) takes ≈ 4 MB since the sets hold the joined keys only (speed21; before, 12 MB held
 * 2,533 of them and the pass missed 1,646 times) */
const TITLE_CACHE_BYTES = 12 * 1024 * 1024;

export class TitleSets {
  private gen = 0;
  /** article titles per document (name keys; a bounded cache), the index owner position of each document id */
  private titles = new ByteCache<string, TitleSet>(TITLE_CACHE_BYTES);
  private ownerIx = new Map<string, number>();

  constructor(private readonly law: SearchSource, private readonly long: LongValues) {}

  /** read generation gen from now on (the cache emptied) */
  open(gen: number): void {
    this.titles.clear();
    this.gen = gen;
  }

  /** the index owners of the generation (document ids by owner position) */
  owners(ids: string[]): void {
    this.ownerIx = new Map(ids.map((id, o) => [id, o]));
  }

  /** Article titles of a document as name keys (persisted per document with the index; none for older indexes). */
  of(id: string): TitleSet | null {
    let ts = this.titles.get(id);
    if (!ts) {
      const o = this.ownerIx.get(id);
      // (a list longer than a chunk of the map is in the generation's side file: long-values.ts)
      const b = o === undefined ? undefined : this.long.read('titles', o) ?? this.law.idx.getBinary([this.gen, `t${o}`]);
      if (!b) return null;
      // kept as name keys: the title evidence compares keys only
      ts = titleSet(nameKeyText(Buffer.from(b.buffer, b.byteOffset, b.length).toString('utf8')));
      // the joined keys (two bytes a character), a start per title, the typed array, the set and its cache entry
      this.titles.set(id, ts, 2 * ts.joined.length + 4 * ts.starts.length + 250);
    }
    return ts;
  }
}
