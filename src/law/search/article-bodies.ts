// Article texts for the article choice (titles.ts bodyChoice, spelledChoice), kept in a small per-thread cache: the
// choice reads the same articles of the much-asked laws again and again, and each read is an LMDB read and a msgpack
// decode of the whole article record (the text alone is kept, as the choice compares it: titles.ts bodyText, once
// per read instead of once per use).
import { ByteCache } from '../cache.js';
import type { SearchSource } from './source.js';
import { bodyText } from './titles.js';
import { citedNumbers } from './article-citations.js';

/** the texts of about 8,000 articles. 2 MB held fewer than the evaluation questions read once admrul24's rule coverage
 *  reads a rule's best 3 articles too (≈ 2,400 articles, 1.55 M characters a pass): every pass read 2,300 of them again
 *  from LMDB (speed24; 8 MB: none after the first pass, min-of-3 p50 −9 %, bench/RESULTS.md). 16 MB since session 18:
 *  article27's text candidates and rule27's coverage over the first 20 hits read more articles a query, and at 8 MB
 *  the two evicted each other (law-speed-ab against main of before, load 1.3: min-of-3 p50 +18 %, p99 +50 % at 8 MB;
 *  +3 % / +5 % at 16 MB; either feature alone ≈ +0 at 8 MB) */
const BODY_CACHE_BYTES = 16 * 1024 * 1024;

export class ArticleBodies {
  private readonly cache = new ByteCache<string, string>(BODY_CACHE_BYTES);
  private readonly degrees = new ByteCache<string, Int32Array>(1024 * 1024);

  constructor(private readonly law: SearchSource) {}

  /** the compared text of article seq of document id ('' when absent) */
  of(id: string, seq: number): string {
    const k = `${id}\n${seq}`;
    let b = this.cache.get(k);
    if (b === undefined) {
      b = bodyText(this.law.arts.get([id, seq])?.content ?? '');
      // two bytes a character, the key and the entry
      this.cache.set(k, b, 2 * b.length + 2 * k.length + 100);
    }
    return b;
  }

  /** for each article of document id, how many other articles of it cite it (제N조, article-citations.ts): one read of
   *  the document's articles, kept (4 bytes an article) */
  citedBy(id: string): Int32Array {
    let d = this.degrees.get(id);
    if (d === undefined) {
      const texts: string[] = [];
      for (const { value } of this.law.arts.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) texts.push(bodyText(value.content ?? ''));
      d = new Int32Array(texts.length);
      texts.forEach((t, s) => { for (const no of citedNumbers(t)) { const c = this.law.articleSeq(id, no); if (c !== undefined && c !== s && c < d!.length) d![c]!++; } });
      this.degrees.set(id, d, 4 * d.length + 2 * id.length + 100);
    }
    return d;
  }

  clear(): void { this.cache.clear(); this.degrees.clear(); }
}
