// The statute corpus in LMDB: named databases of the shared Store, plus an in-memory catalogue. The search index is
// composed by law/open.ts (openLaw) and handed in; it reads this store through SearchSource only.
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { Article, DocRec, TableRec } from './parse.js';
import { nameKey } from './normalize.js';
import type { SearchIndex } from './search.js';
import type { SearchSource } from './search/source.js';
import type { DerivedNames } from './search/derived-names.js';
import { ByteCache, stringBytes } from './cache.js';
import { leanCatalogue, type CatalogueDoc } from './catalogue-lean.js';
import { StoreFileReader, dropStoreFilesBefore, writeStoreFile, type StoreFileRecord } from './store-file.js';

export interface TocEntry { no: string; title: string; preview: string; deleted?: boolean }

export interface Revision {
  promulgation_date: string | null;
  promulgation_no: string | null;
  enforcement_date: string | null;
  mst: string | null;
  revision_type: string | null;
  law_name: string | null;
  law_type?: string | null;
  /** the text of this version is stored (usable by diff) */
  has_text: boolean;
}

export interface VersionRec {
  law_id: string;
  law_name: string;
  promulgation_date: string | null;
  enforcement_date: string | null;
  mst: string | null;
  revision_type: string | null;
  articles: Array<{ no: string; title: string; content: string }>;
}

export interface ChangeEntry {
  date: string;
  law_id: string | null;
  law_name: string | null;
  law_type: string | null;
  revision_type: string | null;
  ministry: string | null;
  promulgation_no: string | null;
  mst: string | null;
  path: string | null;
  entity_type: 'law' | 'admrul';
  source: string;
}

export interface CorpusInfo {
  imported_at: string | null;
  corpus_date: string | null;
  last_sync: string | null;
  index_gen: number;
  sources: string[];
}

/** the sys record holding every document record as of one index generation */
const CATALOGUE = 'catalogue';
interface CatalogueRecord {
  gen: number;
  /** articles in the index of that generation */
  articles?: number;
  /** the document records (without `tables` since rss21; an older record has them, ignored at load); since rss22 in
   * the generation's side file instead (store-file.ts) */
  docs?: CatalogueDoc[];
}
/** a small sys record beside it: the counts health and metrics show, read without decoding 16k document records */
const SUMMARY = 'catalogue-summary';
export interface LawCounts {
  statutes: number;
  admin_rules: number;
  /** articles of every document (DocRec.article_count) */
  articles: number;
}
interface SummaryRecord extends LawCounts {
  gen: number;
  /** articles in the index of that generation */
  indexed: number;
}
/** the sys record of the side file holding the long tables of contents of one generation (store-file.ts), written
 * and removed with `catalogue` */
const STORE_FILE = 'store-long';
/**
 * The sys record of the name tables derived at the index build (search/derived-names.ts: the declared short names,
 * the spelled stems), where they lie in the generation's `store-<gen>.long`. A record of its own, not part of
 * `store-long`: that one goes with the first document write (the tables of contents change), while these tables hold
 * for the generation as its index does, until the next build replaces both.
 */
const NAMES = 'derived-names';
interface NamesRecord { gen: number; at: [number, number] }
/**
 * The store's format, written by every index build: 2 = long values in side files beside the law env (rss22). Code
 * reading a store of a newer format than its own would silently miss what that format moved (code older than rss22
 * reads a format-2 store without its long postings), so reload() refuses one: an operator rolling back sees an error
 * naming both numbers instead of wrong answers. A store without the record is format 1 (every value in LMDB).
 */
export const LAW_STORE_FORMAT = 2;
const FORMAT = 'store-format';
/** the catalogue and its lookup maps, built on first use after a reload */
interface Catalogue {
  catalog: DocRec[];
  byId: Map<string, DocRec>;
  byName: Map<string, DocRec[]>;
  byPath: Map<string, DocRec>;
}

export class LawStore implements SearchSource {
  readonly docs: Database<DocRec, string>;
  readonly arts: Database<Article, [string, number]>;
  readonly toc: Database<TocEntry[], string>;
  /** [id, article no] → position in arts */
  readonly artno: Database<number, [string, string]>;
  readonly tables: Database<TableRec, [string, string]>;
  readonly hist: Database<Revision[], string>;
  readonly vers: Database<VersionRec, [string, string]>;
  readonly chg: Database<ChangeEntry[], string>;
  readonly sys: Database<any, string>;
  readonly idx: Database<Buffer, [number, number] | [number, string]>;

  /** in-memory catalogue, loaded on first use after reload(). Why lazily: the server's main thread, while law
   * workers answer the tools, needs it only for the REST law routes; health and metrics read the summary record. */
  private loaded?: Catalogue;
  /** the summary record of the generation in force (undefined: none stored, counts come from the catalogue) */
  private summary?: SummaryRecord;
  /** the search index over this store, made by the factory the composer (law/open.ts) hands in */
  private readonly index: SearchIndex;
  /** the generation the index opens on first use (-1: open). A thread that never searches (the server's main thread
   * while law workers answer the tools) never holds the index tables: ~70 MB of heap with the full corpus. */
  private indexToOpen = -1;
  /** articles the index in force holds, as its catalogue record says (health, without opening the index) */
  private recordedArticles?: number;
  /** bumped whenever data changes: caches keyed on it are dropped at once */
  version = 0;
  /** a catalogue record may be stored: the first document write removes it (see catalogueChanging) */
  private catalogueMayBeStored = true;
  /** the long tables of contents of the generation in force, from its side file (null: read from law.toc) */
  private sideFile: StoreFileReader | null = null;
  /** the same file for the derived name tables of the generation in force (null: none stored) */
  private namesFile: StoreFileReader | null = null;

  /** the law environment's directory (the index's side files: search/long-values.ts) */
  readonly dir: string;

  constructor(readonly store: Store, makeSearch: (source: SearchSource) => SearchIndex) {
    this.dir = store.path;
    this.docs = store.db('law.docs');
    this.arts = store.db('law.arts');
    this.toc = store.db('law.toc');
    this.artno = store.db('law.artno');
    this.tables = store.db('law.tables');
    this.hist = store.db('law.hist');
    this.vers = store.db('law.vers');
    this.chg = store.db('law.chg');
    this.sys = store.db('law.sys');
    this.idx = store.db('law.idx', { encoding: 'binary' });
    this.index = makeSearch(this);
  }

  indexGen(): number {
    return this.info().index_gen;
  }

  /**
   * Rebuild the search index as a new generation, then record that generation in the store's info record (the index
   * never writes it) and only then let the index drop the older generations: a crash in between leaves the info
   * record naming a generation that is still stored. Call reload() afterwards.
   */
  async rebuildIndex(onProgress?: (done: number, total: number) => void): Promise<{ docs: number; terms: number; postings: number; ms: number }> {
    const { gen, names, ...stats } = await this.index.build(onProgress); // builds and opens the new generation
    this.indexToOpen = -1;
    const articles = this.index.N;
    const docs = [...this.docs.getRange({})].map((x) => x.value);
    // the long tables of contents and the catalogue's records written to the generation's side file (store-file.ts),
    // fsynced before the records pointing into it; the records without the table lists: the catalogue does not hold
    // them (catalogue-lean.ts), so the records read at every load are ≈ half the size
    const fileRec = await writeStoreFile(this.dir, gen, {
      ids: [...this.toc.getKeys({})],
      // getBinaryFast: the stored value's length without decoding it
      bytes: (id) => this.toc.getBinaryFast(id)?.length ?? 0,
      read: (id) => this.toc.get(id),
    }, docs.map(({ tables: _t, ...d }) => d), names);
    await this.transaction(() => {
      this.updateInfo({ index_gen: gen });
      this.sys.put(CATALOGUE, { gen, articles } satisfies CatalogueRecord);
      this.sys.put(SUMMARY, { gen, indexed: articles, ...countsOf(docs) } satisfies SummaryRecord);
      this.sys.put(STORE_FILE, fileRec satisfies StoreFileRecord);
      if (fileRec.names) this.sys.put(NAMES, { gen, at: fileRec.names } satisfies NamesRecord);
      this.sys.put(FORMAT, LAW_STORE_FORMAT);
    });
    this.catalogueMayBeStored = true;
    await this.index.dropBefore(gen);
    dropStoreFilesBefore(this.dir, gen);
    return stats;
  }

  transaction<T>(fn: () => T): Promise<T> {
    return this.store.transaction(fn) as Promise<T>;
  }

  info(): CorpusInfo {
    return this.sys.get('info') ?? { imported_at: null, corpus_date: null, last_sync: null, index_gen: 0, sources: [] };
  }

  /** Change fields of the store's info record: the importers, the sync and rebuildIndex write it only through here. */
  updateInfo(patch: Partial<CorpusInfo>): void {
    this.sys.put('info', { ...this.info(), ...patch });
  }

  /** The newest promulgation date in the catalogue (the corpus date the importers record), or null. */
  newestPromulgation(): string | null {
    let newest = '';
    for (const d of this.catalog) if ((d.promulgation_date ?? '') > newest) newest = d.promulgation_date!;
    return newest || null;
  }

  /**
   * Documents are about to be written outside an index build (import, sync): the stored catalogue record no longer
   * holds, so it goes first. putDoc calls this; writers that put into `docs` directly call it before they start.
   */
  catalogueChanging(): void {
    if (!this.catalogueMayBeStored) return;
    this.sys.remove(CATALOGUE);
    this.sys.remove(SUMMARY);
    this.sys.remove(STORE_FILE);
    this.sideFile?.close();
    this.sideFile = null;
    this.catalogueMayBeStored = false;
  }

  /**
   * Every document record: from the catalogue record written with the index generation in force, else read one by
   * one. Why the record: the 16k document records lie scattered over the whole file between the articles, and the
   * kernel maps 64 KB around every page fault, so reading them one by one put ~200 MB of the file in the process's
   * RSS (in every process that opens the law) for 19 MB of records; one record's pages lie together.
   */
  private loadCatalogue(): CatalogueDoc[] {
    const rec = this.sys.get(CATALOGUE) as CatalogueRecord | undefined;
    const gen = this.info().index_gen;
    this.recordedArticles = undefined;
    const docs = rec && gen > 0 && rec.gen === gen ? rec.docs ?? this.sideFile?.catalogue<CatalogueDoc[]>() : undefined;
    if (docs) {
      this.recordedArticles = rec!.articles;
      return docs;
    }
    const cat: CatalogueDoc[] = [];
    for (const { value } of this.docs.getRange({})) cat.push(value);
    return cat;
  }

  /** Drop the catalogue (loaded again on first use) and reopen the persisted search index on first use. */
  reload(): void {
    const format = (this.sys.get(FORMAT) as number | undefined) ?? 1;
    if (format > LAW_STORE_FORMAT) throw new Error(`law store ${this.dir}: format ${format} was written by a newer sejong; this code reads formats up to ${LAW_STORE_FORMAT} (re-import the law, or run the newer code)`);
    this.loaded = undefined;
    this.recordedArticles = undefined;
    const gen = this.info().index_gen;
    const sum = this.sys.get(SUMMARY) as SummaryRecord | undefined;
    this.summary = sum && gen > 0 && sum.gen === gen ? sum : undefined;
    this.tocCache.clear();
    this.headCache.clear();
    this.sideFile?.close();
    const tl = this.sys.get(STORE_FILE) as StoreFileRecord | undefined;
    this.sideFile = tl && gen > 0 && tl.gen === gen ? StoreFileReader.open(this.dir, tl) : null;
    this.namesFile?.close();
    const nr = this.sys.get(NAMES) as NamesRecord | undefined;
    // opened now, as the side file above: a later build may remove the file while this thread has not read it yet
    this.namesFile = nr && gen > 0 && nr.gen === gen ? StoreFileReader.open(this.dir, { gen, at: {}, names: nr.at }) : null;
    this.indexToOpen = gen; // opened on first use
    this.version++;
  }

  /** The catalogue of every statute and rule (meta only) with its maps, loaded on first use. */
  private catalogue(): Catalogue {
    if (this.loaded) return this.loaded;
    // lean records: strings kept once, table lists read on demand (≈ 34 → 11 MB of heap, catalogue-lean.ts)
    const catalog = leanCatalogue(this.loadCatalogue(), this.docs);
    const byName = new Map<string, DocRec[]>(), byPath = new Map<string, DocRec>();
    for (const d of catalog) {
      const k = nameKey(d.name);
      const list = byName.get(k);
      if (list) list.push(d);
      else byName.set(k, [d]);
      if (d.path) byPath.set(d.path, d);
    }
    // prefer the latest 공포일자 among equal names
    for (const list of byName.values()) list.sort((a, b) => Number(Boolean(a.repealed)) - Number(Boolean(b.repealed)) || (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? ''));
    this.loaded = { catalog, byId: new Map(catalog.map((d) => [d.id, d])), byName, byPath };
    return this.loaded;
  }

  get catalog(): DocRec[] { return this.catalogue().catalog; }
  get byId(): Map<string, DocRec> { return this.catalogue().byId; }
  get byName(): Map<string, DocRec[]> { return this.catalogue().byName; }
  get byPath(): Map<string, DocRec> { return this.catalogue().byPath; }

  /** Statutes, rules and their articles, from the summary record when the catalogue is not loaded (health, metrics). */
  counts(): LawCounts {
    if (!this.loaded && this.summary) { const { statutes, admin_rules, articles } = this.summary; return { statutes, admin_rules, articles }; }
    return countsOf(this.catalog);
  }

  /** The search index, opened at the generation in force on first use after a reload. */
  get search(): SearchIndex {
    if (this.indexToOpen >= 0) {
      const gen = this.indexToOpen;
      this.indexToOpen = -1;
      this.index.open(gen);
    }
    return this.index;
  }

  /** The name tables derived at the build of the generation in force (undefined: none stored; SearchSource). */
  derivedNames(): DerivedNames | undefined {
    return this.namesFile?.names<DerivedNames>();
  }

  /** Articles in the index in force, without opening it when the catalogue record says. */
  indexedArticles(): number {
    if (this.indexToOpen < 0) return this.search.N;
    if (this.summary) return this.summary.indexed;
    if (this.recordedArticles === undefined) this.catalogue(); // the catalogue record carries the count
    return this.recordedArticles !== undefined ? this.recordedArticles : this.search.N;
  }

  get(id: string): DocRec | undefined {
    return this.byId.get(id);
  }

  /** Resolve a cited or typed name to the best statute/rule (latest promulgation, not repealed first). */
  resolveName(name: string): DocRec | undefined {
    return this.byName.get(nameKey(name))?.[0];
  }

  articles(id: string): Article[] {
    const out: Article[] = [];
    for (const { value } of this.arts.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) out.push(value);
    return out;
  }

  /** Position of article `no` ("15-2") of a document, or undefined. */
  articleSeq(id: string, no: string): number | undefined {
    return this.artno.get([id, no]);
  }

  /**
   * Number and title of the article at a position (for search hits), from a cache of the documents' heads alone: the
   * previews are most of a whole list's bytes, so 3 MB of heads serve search_laws' pages as the 8 MB of whole lists
   * did (rss26: 31 % misses with either over the evaluation questions), and the list cache stays for the tools that
   * show previews.
   */
  articleHead(id: string, seq: number): { no: string; title: string } | undefined {
    let h = this.headCache.get(id);
    if (!h) {
      const t = this.tocCache.peek(id) ?? this.readToc(id);
      h = t.map((e) => ({ no: e.no, title: e.title }));
      let n = 64;
      for (const e of h) n += 48 + stringBytes(e.no) + stringBytes(e.title);
      this.headCache.set(id, h, n);
    }
    const a = h[seq];
    return a ? { no: a.no, title: a.title } : undefined;
  }

  /** article heads by document (search hits), dropped on reload */
  private headCache = new ByteCache<string, Array<{ no: string; title: string }>>(3 * 1024 * 1024);

  private readToc(id: string): TocEntry[] {
    return this.sideFile?.read<TocEntry[]>(id) ?? this.toc.get(id) ?? [];
  }

  /** article lists by document (8 MB: a code's list with its previews is ~250 KB), dropped on reload */
  private tocCache = new ByteCache<string, TocEntry[]>(8 * 1024 * 1024);

  /** Article list of a document (cached, least recently used out first). */
  tocOf(id: string): TocEntry[] {
    let t = this.tocCache.get(id);
    if (!t) {
      t = this.readToc(id);
      let n = 64;
      for (const e of t) n += 48 + stringBytes(e.no) + stringBytes(e.title) + stringBytes(e.preview);
      this.tocCache.set(id, t, n);
    }
    return t;
  }

  /** Write one document with its articles and annex bodies (replacing what was stored under its id). Call inside a transaction or let lmdb batch. */
  putDoc(doc: DocRec, articles: Article[], tables: TableRec[]): void {
    this.catalogueChanging();
    const oldToc = this.toc.get(doc.id) ?? [];
    for (let i = articles.length; i < oldToc.length; i++) this.arts.remove([doc.id, i]);
    for (const t of oldToc) this.artno.remove([doc.id, t.no]);
    articles.forEach((a, i) => {
      this.arts.put([doc.id, i], a);
      this.artno.put([doc.id, a.no], i);
    });
    this.toc.put(doc.id, articles.map((a) => {
      const preview = a.content.replace(/\s+/g, ' ').slice(0, 80);
      const e: TocEntry = { no: a.no, title: a.title, preview: preview.length === 80 ? preview + '…' : preview };
      if (a.deleted) e.deleted = true;
      return e;
    }));
    for (const t of tables) this.tables.put([doc.id, `${t.kind}:${t.table_no}`], t);
    // a catalogue record (or a spread copy of one) holds no own table list (catalogue-lean.ts): keep the stored one
    const rec = Object.hasOwn(doc, 'tables') ? doc : { ...doc, tables: doc.tables ?? this.docs.get(doc.id)?.tables ?? [] };
    this.docs.put(doc.id, rec);
  }

  async flushed(): Promise<void> {
    await this.store.root.flushed;
  }
}

function countsOf(docs: DocRec[]): LawCounts {
  let statutes = 0, articles = 0;
  for (const d of docs) {
    if (d.entity_type === 'law') statutes++;
    articles += d.article_count;
  }
  return { statutes, admin_rules: docs.length - statutes, articles };
}
