// The narrow view of the law store that the search index reads (LawStore implements it; law/open.ts composes the
// two). The index writes only its own database (idx); it never writes the store's records: build() answers the new
// generation and the store records it in its info record (LawStore.rebuildIndex).
import type { Database } from 'lmdb';
import type { Article, DocRec } from '../parse/types.js';
import type { DerivedNames } from './derived-names.js';

export interface SearchSource {
  /** every statute and rule (meta only) */
  readonly catalog: DocRec[];
  readonly byId: Map<string, DocRec>;
  /** name key → documents of that name, preferred first */
  readonly byName: Map<string, DocRec[]>;
  /** article bodies by [document id, position] */
  readonly arts: Pick<Database<Article, [string, number]>, 'get' | 'getRange'>;
  /** the index's own database: postings and doc tables per generation */
  /** the directory of the law environment: the index's side files of long values (search/long-values.ts) go there */
  readonly dir: string;
  readonly idx: Database<Buffer, [number, number] | [number, string]>;
  /** article list (number, title) of a document, cached by the store */
  tocOf(id: string): Array<{ no: string; title: string }>;
  /** position of article `no` of a document */
  articleSeq(id: string, no: string): number | undefined;
  /** the name tables stored with the generation in force (search/derived-names.ts); undefined: none stored */
  derivedNames(): DerivedNames | undefined;
  /** the generation of the persisted index the store's info record names (0: none) */
  indexGen(): number;
  transaction<T>(fn: () => T): Promise<T>;
}
