// The in-memory catalogue's document records made smaller (issue #15, the law server's memory; bench/RESULTS.md
// rss21). The catalogue record decodes into 15,921 DocRecs, ≈ 34 MB of heap in every thread that loads it (the MCP
// law thread always: the search index reads it). Two cuts, neither changing what a reader sees:
// - every string is kept once (msgpackr decodes each occurrence as its own string; law types, ministries, families
//   and the 106k cited names repeat: 201k strings, ≈ 9 MB less held);
// - the table list (40k references with two download URLs each, ≈ 11 MB) is not held: `tables` is a getter on the
//   records' prototype reading the document's stored record (law.docs) when a tool asks (get_law with tables,
//   get_table, the REST law page), one LMDB read of a small record. Assigning `tables` sets it on the record.
import type { DocRec, TableRef } from './parse.js';

/** a document record as the catalogue record keeps it: the table list left out since rss21 (an older record has it) */
export type CatalogueDoc = Omit<DocRec, 'tables'> & { tables?: TableRef[] };

/** the store's document records, read by id (LawStore.docs) */
export interface DocSource { get(id: string): DocRec | undefined }

/** Interns strings: the first occurrence of each value is the one kept (a Map, dropped with the catalogue's load). */
function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const v = seen.get(s);
    if (v !== undefined) return v;
    seen.set(s, s);
    return s;
  };
}

/** the prototype of lean records: `tables` read from the stored record on each access */
function leanPrototype(docs: DocSource): object {
  const proto = {};
  Object.defineProperty(proto, 'tables', {
    get(this: DocRec): TableRef[] { return docs.get(this.id)?.tables ?? []; },
    // an assignment (a caller editing a record) keeps the value on the record itself
    set(this: DocRec, v: TableRef[]) { Object.defineProperty(this, 'tables', { value: v, writable: true, enumerable: true, configurable: true }); },
    enumerable: false,
    configurable: true,
  });
  return proto;
}

/**
 * The catalogue's records, lean: strings interned, `tables` read on demand from `docs`. Each record is built anew
 * (fields copied in one shape, no `delete`: deleting a property turns a V8 object into a dictionary, larger).
 */
export function leanCatalogue(catalog: CatalogueDoc[], docs: DocSource): DocRec[] {
  const s = interner();
  const proto = leanPrototype(docs);
  return catalog.map((d) => {
    const { tables: _tables, ...rest } = d;
    const out = { ...rest } as DocRec;
    for (const k of Object.keys(out) as Array<keyof DocRec>) {
      const v = out[k];
      if (typeof v === 'string') (out as unknown as Record<string, unknown>)[k] = s(v);
    }
    out.ministries = d.ministries.map(s);
    out.cites = d.cites.map(s);
    return Object.setPrototypeOf(out, proto) as DocRec;
  });
}
