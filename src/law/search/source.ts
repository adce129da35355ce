// The narrow view of the law store that the search index reads (LawStore implements it; a worker thread may
// implement it over the same LMDB environment). The index never writes the store's own records: it hands the
// new index generation to setIndexGen inside its last transaction.
import type { Database } from 'lmdb';
import type { Article, DocRec } from '../parse/types.js';

export interface SearchSource {
  /** every statute and rule (meta only) */
  readonly catalog: DocRec[];
  readonly byId: Map<string, DocRec>;
  /** name key → documents of that name, preferred first */
  readonly byName: Map<string, DocRec[]>;
  /** article bodies by [document id, position] */
  readonly arts: Pick<Database<Article, [string, number]>, 'get' | 'getRange'>;
  /** the index's own database: postings and doc tables per generation */
  readonly idx: Database<Buffer, [number, number] | [number, string]>;
  /** article list (number, title) of a document, cached by the store */
  tocOf(id: string): Array<{ no: string; title: string }>;
  /** position of article `no` of a document */
  articleSeq(id: string, no: string): number | undefined;
  /** the generation of the persisted index (0: none) */
  indexGen(): number;
  /** record a new index generation (called inside transaction) */
  setIndexGen(gen: number): void;
  transaction<T>(fn: () => T): Promise<T>;
}
