// A search hit, the hits of one query as found, and the hit's matching articles (number, title, snippet), read
// lazily: most hits of a query are ranked and dropped without anyone reading their articles.
import type { Category, DocRec } from '../parse.js';
import type { SearchSource } from './source.js';
import { snippetMatches, type ArticleMatch } from './rank.js';

export interface SearchFilters {
  categories?: Set<Category> | null;
  ministry?: string | null;
}

export interface Hit {
  doc: DocRec;
  score: number;
  match: 'name' | 'abbreviation' | 'text' | 'ministry';
  /** article positions (best first) whose text matched; resolve with LawStore.tocOf for the page shown */
  seqs: number[];
  /** the article the query named (e.g. 제750조), when this document has it */
  ref?: number;
  /** the matching articles (number, title, a snippet around the hit), best first; computed on first read */
  readonly matches?: ArticleMatch[];
}

/** the hits of one query in the order found, with each one's catalogue position */
export interface Hits { out: Hit[]; at: number[] }

/** ranked hits (at most the best 1,000 text-only matches) and the number of all matching documents */
export type HitList = Hit[] & { total: number };

/** the matching articles (number, title, snippet) of each hit, computed on first read */
export function attachMatches(law: SearchSource, hits: Hit[], words: string[]): void {
  for (const h of hits) {
    Object.defineProperty(h, MATCH_SOURCE, { value: { law, words }, writable: true });
    Object.defineProperty(h, 'matches', MATCHES);
  }
}

/**
 * A hit's `matches`, read on first use: one getter shared by every hit, reading what it needs from the hit (a hidden
 * symbol property: not enumerable, not copied, not cloned). speed26: a closure per hit as the getter gave each hit
 * its own hidden class (an accessor is part of it) — 2.5 % of the search CPU at p50; with one getter the hits share
 * it (≈ 80 → 20 µs for 50 hits in a micro-benchmark).
 */
const MATCH_SOURCE = Symbol('matchSource');
interface MatchSource { law: SearchSource; words: string[]; cache?: ArticleMatch[] }
function readMatches(this: Hit & { [MATCH_SOURCE]: MatchSource }): ArticleMatch[] {
  const m = this[MATCH_SOURCE], h = this, law = m.law;
  return (m.cache ??= snippetMatches((s) => law.arts.get([h.doc.id, s]), h.ref !== undefined ? [h.ref, ...h.seqs.filter((x) => x !== h.ref)] : h.seqs, m.words));
}
const MATCHES: PropertyDescriptor = { enumerable: true, get: readMatches };
