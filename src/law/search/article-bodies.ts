// Article texts for the article choice (titles.ts bodyChoice, spelledChoice), kept in a small per-thread cache: the
// choice reads the same articles of the much-asked laws again and again, and each read is an LMDB read and a msgpack
// decode of the whole article record (the text alone is kept, as the choice compares it: titles.ts bodyText, once
// per read instead of once per use).
import { ByteCache } from '../cache.js';
import type { SearchSource } from './source.js';
import { bodyText } from './titles.js';

/** the texts of about 2,000 articles */
const BODY_CACHE_BYTES = 2 * 1024 * 1024;

export class ArticleBodies {
  private readonly cache = new ByteCache<string, string>(BODY_CACHE_BYTES);

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

  clear(): void { this.cache.clear(); }
}
