// The name tables search derives from the corpus, made at the index build (import, sync) and stored with the
// generation, read when a thread opens the index: the short names the corpus declares (declared-table.ts) and the
// stems of the names a question may spell (spelled-names.ts). Why at the build: the declarations are read from every
// article (≈ 4 s of CPU for the full corpus as a pass of its own, ≈ 0.5 s inside the build's own pass), and the
// spelled stems from every name; a law thread opening the index, at start and after every reload, only reads them.
import type { Database } from 'lmdb';
import type { Article, DocRec } from '../parse.js';
import type { Declared } from './declared-names.js';
import { DeclaredCollector } from './declared-table.js';
import { spelledTable, type SpelledTable } from './spelled-names.js';

export interface DerivedNames {
  /** the declared short names kept for the store (declared-table.ts), sorted by short name */
  declared: Declared[];
  /** the spelled stems of the current names and their instruments */
  spelled: SpelledTable;
}

/** The tables of a catalogue whose articles the collector has read (the build's pass). */
export function deriveNames(catalog: DocRec[], byName: Map<string, DocRec[]>, collector: DeclaredCollector): DerivedNames {
  return { declared: collector.table(byName).kept, spelled: spelledTable(catalog) };
}

/**
 * The tables derived here, reading every stored article: for a store whose generation was built before they were
 * stored (format 2 without the record), until its next index build (a sync, a re-import) stores them.
 */
export function deriveNamesFromStore(law: { catalog: DocRec[]; byName: Map<string, DocRec[]>; arts: Pick<Database<Article, [string, number]>, 'getRange'> }): DerivedNames {
  const collector = new DeclaredCollector();
  for (const { key, value } of law.arts.getRange({})) collector.visit(key[0], value.content);
  return deriveNames(law.catalog, law.byName, collector);
}
