// Search: a character-bigram BM25 index over article text persisted in LMDB, plus an in-memory name matcher
// (exact / prefix / abbreviation / substring / bigram overlap on statute and rule names) with boosts.
import type { SearchSource } from './search/source.js';
import type { Category, DocRec } from './parse.js';
import { nameKey, tokens } from './normalize.js';
import { analyseQuery, type AnalysedQuery } from './search/query.js';
import { asksForRule, namesRuleSubject, priorOf } from './search/rank.js';
import { SEARCH_SWITCHES } from './search/switches.js';
import { ABBREVIATIONS } from './search/names.js';
import { SpelledShortNames, withDeclared, withSpelled } from './search/declared-names.js';
import { DeclaredCollector } from './search/declared-table.js';
import { deriveNames, deriveNamesFromStore, type DerivedNames } from './search/derived-names.js';
import { asksForStandard, standardPrior } from './search/rule-questions.js';
import { coverageLift, coverageWords, type CoverageWord } from './search/rule-coverage.js';
import { nameCovers, nameMayCover } from './search/rule-name-cover.js';
import { NameIndex } from './search/name-index.js';
import { NameWords } from './search/name-words.js';
import { SpelledNames } from './search/spelled-names.js';
import { Bm25, kthSmallest, selectTerms, type Posting, type WeightedPosting } from './search/bm25.js';
import { bestOf, bodyChoice, chooseArticles, spelledChoice, titleEvidence, type TitleSet } from './search/titles.js';
import { Postings } from './search/postings.js';
import { TitleSets } from './search/title-sets.js';
import { LongValues, longFile, type LongTable } from './search/long-values.js';
import { buildIndex, dropGenerationsBefore } from './search/build.js';
import { ArticleBodies } from './search/article-bodies.js';
import { weightedTerms, wordByWord } from './search/query-terms.js';
import { byScore, sortByScore } from './search/sort-by-score.js';
import { parentPositions } from './search/parent-lift.js';
import { attachMatches, type Hit, type HitList, type Hits, type SearchFilters } from './search/hit.js';

export { ABBREVIATIONS };

export type { SearchFilters, Hit, HitList } from './search/hit.js';

/** text-only matches kept as ranked hits (pageable); more are counted in total */
const MAX_TEXT_HITS = 1000;
const PLAIN_COORD = 0.4;
/** documents whose article titles are read for title evidence (the best by name and text) */
const TITLE_DOCS = 12;
/** the no-stored-name-tables line was written (once per thread) */
let warnedUnstored = false;

export class SearchIndex {
  gen = 0;
  N = 0;
  avgdl = 1;
  ids: string[] = [];
  owner = new Uint32Array(0);
  seq = new Uint32Array(0);
  len = new Uint16Array(0);
  /** the posting lists and document frequencies, read on demand (search/postings.ts) */
  private readonly postings: Postings;
  /** the documents' article-title sets, read on demand (search/title-sets.ts) */
  private readonly titles: TitleSets;
  /** the generation's values longer than a chunk of the map, read from its side file (search/long-values.ts) */
  private readonly long = new LongValues();
  abbr = new Map<string, string>();
  /** abbr and the short names the corpus declares (switch declaredAbbr) */
  private abbrDeclared = new Map<string, string>();
  private spelled = new SpelledShortNames([]);
  private nameIndex = new NameIndex([]);
  private nameWords = new NameWords([]);
  private spelledNames = SpelledNames.of([]);
  /** the instruments the current query spells (spelledLift): a rule among them is named, as by its subject */
  private spelledNow = new Set<DocRec>();
  private readonly bm25 = new Bm25();
  /** catalogue position of each document; per position (computed at open): 1 = its title is also carried by a newer
   * (preferred) document, the kind and citation prior for keyword queries [2p] and plain questions [2p + 1] */
  private pos = new Map<DocRec, number>();
  private older = new Uint8Array(0);
  /** per position: 1 = an administrative rule (행정규칙) */
  private rule = new Uint8Array(0);
  private prior = new Float64Array(0);
  /** the catalogue's citing-document counts per position and the citePlain switch the plain priors were made with */
  private cited = new Float64Array(0);
  private citePlain = NaN;
  private citeLong = NaN;
  /** per position: the ministries as name keys (filled on first use), 1 + the place of its hit in the current query */
  private minKeys: Array<string[] | undefined> = [];
  private slot = new Int32Array(0);
  /** per position: the prior factor the current query's rank applied (read by the rule-coverage lift) */
  private applied = new Float64Array(0);
  /** catalogue position of each index owner (-1: not in the catalogue) */
  private ownerPos = new Int32Array(0);
  /** per position: the 법률 a decree or rule carries out (-1: none; search/parent-lift.ts) */
  private parent: Int32Array = new Int32Array(0);

  constructor(private readonly law: SearchSource) {
    this.postings = new Postings(law, this.long);
    this.titles = new TitleSets(law, this.long);
    this.bodies = new ArticleBodies(law);
  }

  /** a generation built before its name tables were stored: derived here from every article (seconds of CPU per
   *  law thread at each open), said once per thread so the operator runs `sejong law reindex` */
  private deriveAtOpen(gen: number): DerivedNames {
    if (!warnedUnstored) {
      warnedUnstored = true;
      process.stderr.write(`sejong law: index generation ${gen} has no stored name tables (built before they were stored): deriving them from every article at each open; run \`sejong law reindex\` once\n`);
    }
    return deriveNamesFromStore(this.law);
  }

  /**
   * Load the persisted doc tables of generation gen (postings are read from LMDB on demand) and the name tables
   * derived at its build: handed in by build(), else stored with the generation, else (a store built before they
   * were stored) derived here from every article.
   */
  open(gen: number, names?: DerivedNames): void {
    this.postings.open(gen);
    this.titles.open(gen);
    this.bodies.clear();
    this.gen = gen;
    this.abbr = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [nameKey(k), v]));
    for (const d of this.law.catalog) if (d.abbreviation) this.abbr.set(nameKey(d.abbreviation), d.name);
    names ??= this.law.derivedNames() ?? this.deriveAtOpen(gen);
    this.abbrDeclared = withDeclared(this.abbr, names.declared, this.law.byName);
    this.spelled = new SpelledShortNames(this.law.catalog.filter((d) => d.category === 'law' && !d.repealed));
    this.nameIndex = new NameIndex(this.law.catalog);
    this.nameWords = new NameWords(this.law.catalog, SEARCH_SWITCHES.nameWordsRules > 0);
    this.spelledNames = new SpelledNames(names.spelled, this.law.byId);
    this.tables(this.law.catalog);
    const meta = gen ? this.law.idx.get([gen, 'meta']) : undefined;
    const long = meta ? this.law.idx.get([gen, 'long']) : undefined;
    this.long.open(longFile(this.law.dir, gen), long ? JSON.parse(long.toString('utf8')) as LongTable : undefined);
    if (!meta) {
      this.N = 0; this.ids = []; this.ownerPos = new Int32Array(0); this.owner = new Uint32Array(0); this.seq = new Uint32Array(0); this.len = new Uint16Array(0);
      return;
    }
    const m = JSON.parse(meta.toString('utf8')) as { N: number; avgdl: number; ids: string[] };
    this.N = m.N; this.avgdl = m.avgdl; this.ids = m.ids;
    this.titles.owners(m.ids);
    this.ownerPos = Int32Array.from(m.ids, (id) => { const d = this.law.byId.get(id); return d ? this.pos.get(d) ?? -1 : -1; });
    const u32 = (b: Buffer) => { const c = new Uint8Array(b.length); c.set(b); return new Uint32Array(c.buffer); };
    this.owner = u32(this.law.idx.get([gen, 'owner'])!);
    this.seq = u32(this.law.idx.get([gen, 'seq'])!);
    const lb = this.law.idx.get([gen, 'len'])!;
    const lc = new Uint8Array(lb.length); lc.set(lb);
    this.len = new Uint16Array(lc.buffer);
  }

  /** the per-document tables of the catalogue: positions, priors (name key → citing documents), older duplicates */
  private tables(catalog: DocRec[]): void {
    const cited = new Map<string, number>();
    for (const d of catalog) for (const c of new Set(d.cites.map(nameKey))) cited.set(c, (cited.get(c) ?? 0) + 1);
    this.pos = new Map(catalog.map((d, i) => [d, i]));
    this.prior = new Float64Array(catalog.length * 3);
    this.cited = Float64Array.from(catalog, (d) => cited.get(nameKey(d.name)) ?? 0);
    catalog.forEach((d, i) => { this.prior[3 * i] = priorOf(d, this.cited[i]!); });
    this.plainPriors();
    this.older = new Uint8Array(catalog.length);
    const olderIds = new Set<string>();
    for (const list of this.law.byName.values()) for (const d of list.slice(1)) olderIds.add(d.id);
    this.rule = new Uint8Array(catalog.length);
    catalog.forEach((d, i) => { if (olderIds.has(d.id)) this.older[i] = 1; if (d.category === 'admrul') this.rule[i] = 1; });
    this.minKeys = [];
    this.slot = new Int32Array(catalog.length);
    this.applied = new Float64Array(catalog.length);
    this.parent = parentPositions(catalog, this.law.byName, this.pos);
  }

  /** the plain (and long plain) questions' priors, made again when a switch of theirs changed (a bench's A/B) */
  private plainPriors(): void {
    this.citePlain = SEARCH_SWITCHES.citePlain; this.citeLong = SEARCH_SWITCHES.citeLong;
    this.law.catalog.forEach((d, i) => { this.prior[3 * i + 1] = priorOf(d, this.cited[i]!, true); this.prior[3 * i + 2] = priorOf(d, this.cited[i]!, true, this.citeLong); });
  }

  /** a plain question long enough (citeLongWords own content words) for its evidence to weigh more than the priors */
  private isLong(aq: AnalysedQuery): boolean {
    return aq.plain && SEARCH_SWITCHES.citeLongWords > 0 && aq.core.split(/\s+/).filter(Boolean).length >= SEARCH_SWITCHES.citeLongWords;
  }

  /**
   * Rebuild the article-text index from the stored articles as a new generation and open it. Answers the generation
   * and its name tables for the store to record (LawStore.rebuildIndex); older generations stay until dropBefore.
   */
  async build(onProgress?: (done: number, total: number) => void): Promise<{ gen: number; names: DerivedNames; docs: number; terms: number; postings: number; ms: number }> {
    const t0 = performance.now();
    // the declarations are read in the build's own pass over the articles (search/derived-names.ts)
    const declared = new DeclaredCollector();
    const { gen, stats } = await buildIndex(this.law, onProgress, (id, a) => declared.visit(id, a.content));
    const names = deriveNames(this.law.catalog, this.law.byName, declared);
    this.open(gen, names);
    return { gen, names, ...stats, ms: Math.round(performance.now() - t0) };
  }

  /** Drop the generations older than gen (once the store records gen). */
  dropBefore(gen: number): Promise<void> {
    return dropGenerationsBefore(this.law, gen);
  }

  private posting(t: number): Posting | null {
    return this.postings.posting(t);
  }

  /** article texts read by the article choice (search/article-bodies.ts) */
  private readonly bodies: ArticleBodies;

  /** Article titles of a document as name keys (persisted per document with the index; none for older indexes). */
  private titlesOf(id: string): TitleSet | null {
    return this.titles.of(id);
  }

  /**
   * Rank statutes and rules for a query: name matches (exact, abbreviation, prefix, substring, bigram overlap),
   * ministry matches, and BM25 over article text (best article per document, with its article numbers), then
   * article-title evidence, the kind and citation priors, and the article the query named.
   */
  query(query: string, filters: SearchFilters, articleRef: string | null): HitList {
    // query analysis: abbreviations expanded inside the phrase, endings/particles/filler dropped, synonyms added
    const abbr = this.abbrOf(query);
    const aq = analyseQuery(query, abbr);
    const allow = (d: DocRec) => (!filters.categories || filters.categories.has(d.category)) && (!filters.ministry || this.ministryKeys(d).some((m) => m.includes(filters.ministry!)));
    // the hits in the order they were found and each one's catalogue position; slot[position] = 1 + its place in out
    const hits: Hits = { out: [], at: [] };
    try {
      for (const h of this.nameIndex.match(aq.core || query, query, aq.named.length > 0, abbr, allow)) this.put(hits, this.pos.get(h.doc)!, { ...h, seqs: [] });
      const beyond = this.textMatches(aq, query, allow, hits);
      this.spelledLift(hits, aq, query, allow);
      const out = this.rank(hits, aq, articleRef, SEARCH_SWITCHES.ruleStandard > 0 && asksForStandard(query), allow);
      let extra = 0;
      for (const o of beyond) {
        const p = this.ownerPos[o]!;
        if (p >= 0 && allow(this.law.catalog[p]!) && !this.slot[p]) extra++;
      }
      attachMatches(this.law, out.slice(0, 50), aq.words.length ? aq.words : query.split(/\s+/));
      return Object.assign(out, { total: out.length + extra });
    } finally {
      for (const p of hits.at) this.slot[p] = 0;
    }
  }

  /**
   * The abbreviations a query is read with: the table (and the corpus's declared short names), and a short name the
   * query spells from a statute's own words (개발제한구역법) added for this query only.
   */
  private abbrOf(query: string): Map<string, string> {
    const abbr = SEARCH_SWITCHES.declaredAbbr ? this.abbrDeclared : this.abbr;
    return SEARCH_SWITCHES.spelledAbbr ? withSpelled(query, abbr, this.law.byName, this.spelled) : abbr;
  }

  /** the full statute name a short name stands for (the table, the declared and the spelled short names), if any */
  fullNameOf(short: string): string | undefined {
    return this.abbrOf(short).get(nameKey(short));
  }

  /** add a hit for the document at catalogue position p (a second hit for it replaces the first in its place) */
  private put(hits: Hits, p: number, h: Hit): void {
    const i = this.slot[p]!;
    if (i) { hits.out[i - 1] = h; return; }
    hits.out.push(h); hits.at.push(p);
    this.slot[p] = hits.out.length;
  }

  /** a document's ministries as name keys (the ministry filter), computed once per document */
  private ministryKeys(d: DocRec): string[] {
    const p = this.pos.get(d);
    if (p === undefined) return d.ministries.map(nameKey);
    return (this.minKeys[p] ??= d.ministries.map(nameKey));
  }

  /** a term's document frequency (0: not in the index; search/postings.ts) */
  df(t: number): number {
    return this.postings.df(t);
  }

  /**
   * Article-text evidence (BM25 over bigrams, coordination ≥ 60 % of the scored terms, falling back to the articles
   * holding the most) added to the name hits; returns the documents matched beyond the best MAX_TEXT_HITS (counted only).
   */
  private textMatches(aq: AnalysedQuery, query: string, allow: (d: DocRec) => boolean, hits: Hits): number[] {
    if (this.N === 0) return [];
    const w = weightedTerms(aq, query, this.N, (t) => this.df(t));
    if (!w.total) return [];
    const byWords = wordByWord(aq);
    const sel = selectTerms(w.post, w.missing, w.total, this.N, byWords ? SEARCH_SWITCHES.plainTerms : 8, byWords), nTerms = sel.nTerms;
    // mostly unknown terms (a typo, nonsense): no text answer rather than a guess on a fragment
    if (!sel.post.length || w.missing * 2 > w.total) return [];
    this.postings.newQuery();
    const post: WeightedPosting[] = sel.post.map((x) => ({ p: this.posting(x.t)!, idf: x.idf }));
    // a plain question holds everyday words the statutes do not use: fewer of its terms must meet in one article
    const need = nTerms <= 2 ? nTerms : Math.ceil(nTerms * (aq.plain ? PLAIN_COORD : 0.6));
    const enough = (aq.plain ? SEARCH_SWITCHES.coordEnoughPlain : SEARCH_SWITCHES.coordEnough) || 1;
    const docs = this.bm25.run(post, { N: this.N, avgdl: this.avgdl, owner: this.owner, seq: this.seq, len: this.len, docs: this.ids.length }, nTerms, need, enough);
    // keep hit objects for the best MAX_TEXT_HITS documents only (the total still counts all)
    let cut = -Infinity;
    if (docs.n > MAX_TEXT_HITS) cut = kthSmallest(docs.best, docs.n - MAX_TEXT_HITS);
    const beyond: number[] = [];
    const cat = this.law.catalog;
    for (let i = 0; i < docs.n; i++) {
      const o = docs.owners[i]!, best = docs.best[i]!;
      if (best < cut) { beyond.push(o); continue; }
      const p = this.ownerPos[o]!;
      if (p < 0) continue;
      const d = cat[p]!;
      if (!allow(d)) continue;
      const textScore = best + Math.log1p(docs.count[i]!) * 0.5;
      const j = this.slot[p]!;
      if (j) { const h = hits.out[j - 1]!; h.score += textScore; h.seqs = docs.seqsOf(i); }
      else this.put(hits, p, { doc: d, score: textScore * (d.repealed ? 0.5 : 1), match: 'text', seqs: docs.seqsOf(i) });
    }
    return beyond;
  }

  /**
   * An instrument whose distinctive name the question spells in its own words (변호사 시험 → 변호사시험법;
   * spelled-names.ts) scores at least the best text hit, and its own score × (1 + spelledName), found by its text or not.
   */
  private spelledLift(hits: Hits, aq: AnalysedQuery, query: string, allow: (d: DocRec) => boolean): void {
    this.spelledNow.clear();
    const on = SEARCH_SWITCHES.spelledName;
    // (keyword queries and decrees' names measured neutral: plain questions, statutes and rules only)
    if (!on || !aq.plain) return;
    const found = this.spelledNames.find(tokens(query));
    if (!found.length) return;
    let top = 0;
    for (const h of hits.out) top = Math.max(top, h.score);
    const floor = top * SEARCH_SWITCHES.spelledNameFloor;
    for (const { doc } of found) {
      const p = this.pos.get(doc);
      if (p === undefined || this.older[p] || (doc.category !== 'law' && doc.category !== 'admrul') || !allow(doc)) continue;
      this.spelledNow.add(doc);
      const i = this.slot[p]!;
      if (i) { const h = hits.out[i - 1]!; h.score = Math.max(h.score * (1 + on), floor); }
      else if (floor > 0) this.put(hits, p, { doc, score: floor, match: 'name', seqs: [] });
    }
  }

  /** Order the hits: article-title evidence, kind and citation priors, older duplicates down, the named article. */
  private rank(hits: Hits, aq: AnalysedQuery, articleRef: string | null, standard: boolean, allow: (d: DocRec) => boolean): Hit[] {
    const { out, at } = hits;
    const titleOf = (id: string, s: number) => this.law.arts.get([id, s])?.title ?? '';
    const titled = titleEvidence(out, aq, TITLE_DOCS, (id) => this.titlesOf(id), titleOf);
    if (aq.plain && (this.citePlain !== SEARCH_SWITCHES.citePlain || this.citeLong !== SEARCH_SWITCHES.citeLong)) this.plainPriors();
    const k = aq.plain ? (this.isLong(aq) ? 2 : 1) : 0, prior = this.prior;
    // a rule asked for by its kind (…규정, 고시) or by its subject (은행 → 은행업감독규정) competes with the statutes on
    // evidence alone: its prior is the best statute prior among the hits; other rules keep the parent-law prior
    let top = 0, lifted = false;
    const rule = this.rule;
    if (SEARCH_SWITCHES.rulePrior) {
      for (let i = 0; i < out.length; i++) if (!rule[at[i]!]) top = Math.max(top, prior[at[i]! * 3 + k]!);
      for (let i = 0; i < out.length && !lifted; i++) lifted = rule[at[i]!] === 1 && top > prior[at[i]! * 3 + k]!;
    }
    const ruleAsked = lifted && asksForRule(aq.words);
    // (a rule's subject is read among the best 100 hits only: further down the lift cannot bring it to the first page)
    const near = lifted ? new Set(bestOf(out, 100)) : null;
    // a plain question's words in a statute's name (이자 → 이자제한법): name-words.ts
    const cover = (aq.plain || SEARCH_SWITCHES.nameWordsAll) && SEARCH_SWITCHES.nameWords ? this.nameWords.cover(aq.words, SEARCH_SWITCHES.nameWordsMaxHits) : null;
    if (cover) for (const h of out) { const c = cover.get(h.doc); if (c) h.score *= 1 + SEARCH_SWITCHES.nameWords * c; }
    // a question naming a statute whole by its words (주거급여 → 주거급여법) asks about that statute: no standard lift
    if (standard && cover) for (const c of cover.values()) if (c >= 1) standard = false;
    // a rule whose name and article hold several of a plain question's words (rule-name-cover.ts; words made once)
    let named: CoverageWord[] | null = null, own: string[] | null = null;
    const wordsOf = () => (named ??= coverageWords(aq.core, this.N, (t) => this.df(t), aq.mappedGroups, aq.mappedFrom));
    const nameCover = (h: Hit) => nameMayCover(h.doc.name, own ??= aq.core.split(/\s+/).map(nameKey)) ? nameCovers(h.doc.name, wordsOf(),
      () => h.seqs.slice(0, SEARCH_SWITCHES.ruleCoverageArticles).map((s) => this.bodies.of(h.doc.id, s))) : 0;
    for (let i = 0; i < out.length; i++) {
      const h = out[i]!, p = prior[at[i]! * 3 + k]!;
      const lift = top > p && rule[at[i]!] === 1 && near!.has(h);
      // a question asking for a figure or a standard (rule-questions.ts): a rule's prior moves toward the statutes'
      const std = standard && top > p && (lift || (SEARCH_SWITCHES.ruleStandardRules > 0 && h.doc.category === 'rule'));
      const nc = lift && SEARCH_SWITCHES.ruleNameCover > 0 && aq.plain ? nameCover(h) : 0;
      const f = lift && (ruleAsked || this.spelledNow.has(h.doc) || namesRuleSubject(h.doc.name, aq.words, !aq.plain) || nc > 0) ? top : std ? standardPrior(p, top, SEARCH_SWITCHES.ruleStandard) : p;
      h.score *= f;
      this.applied[at[i]!] = f;
      // duplicate titles (a changed 법령ID): the older instrument ranks below the current one
      if (this.older[at[i]!]) h.score *= 0.5;
    }
    if (aq.plain && SEARCH_SWITCHES.parentLift > 0) this.parentLift(hits, allow);
    sortByScore(out);
    // a rule whose article holds more of the question's rarer words than every hit above it: the statutes' prior
    if (SEARCH_SWITCHES.ruleCoverage && top > 0 && (aq.plain || SEARCH_SWITCHES.ruleCoverage > 1)) {
      const mapped = SEARCH_SWITCHES.ruleCoverageMapped;
      const words = mapped === 2 ? wordsOf : () => coverageWords(mapped === 1 && aq.mapped ? `${aq.core} ${aq.mapped}` : aq.core, this.N, (t) => this.df(t), undefined, aq.mappedFrom);
      coverageLift(out, SEARCH_SWITCHES.ruleCoverageTop, words, (h) => {
        const p = this.pos.get(h.doc)!, f = this.applied[p]!;
        if (!this.rule[p] || this.older[p]) return null;
        return f < top ? h.score / f * top : SEARCH_SWITCHES.ruleCoverageGain ? h.score : null;
      }, (id, s) => this.bodies.of(id, s), byScore);
    }
    // the article shown first by the first hits that rose by the priors (the title evidence read the best 12 before them)
    chooseArticles(out, 5, aq, titled, (id) => this.titlesOf(id), titleOf);
    bodyChoice(out, SEARCH_SWITCHES.titleBodyHits, aq, (id) => this.titlesOf(id), titleOf, (id, s) => this.bodies.of(id, s), this.bodies);
    if (SEARCH_SWITCHES.spelledArticle) for (const h of out.slice(0, 5)) if (this.spelledNow.has(h.doc)) spelledChoice(h, aq, (id) => this.titlesOf(id), (id, s) => this.bodies.of(id, s));
    if (articleRef) {
      const head = out.slice(0, 50);
      for (const h of head) {
        const i = this.law.articleSeq(h.doc.id, articleRef);
        if (i !== undefined) { h.ref = i; h.score += 5; }
      }
      // only the first 50 gained: they reorder among themselves and stay above the rest (the order is total)
      head.sort(byScore);
      for (let i = 0; i < head.length; i++) out[i] = head[i]!;
    }
    return out;
  }

  /** a plain question: a decree's or rule's score × parentLift is the least score of the 법률 it carries out, which
   *  enters the hits with it if its own text did not and the filters allow it (search/parent-lift.ts) */
  private parentLift(hits: Hits, allow: (d: DocRec) => boolean): void {
    const { out, at } = hits, g = SEARCH_SWITCHES.parentLift, n = out.length;
    for (let i = 0; i < n; i++) {
      const pp = this.parent[at[i]!]!;
      if (pp < 0) continue;
      const s = out[i]!.score * g, j = this.slot[pp]!;
      if (j) { const h = out[j - 1]!; h.score = Math.max(h.score, s); }
      else if (allow(this.law.catalog[pp]!)) { this.put(hits, pp, { doc: this.law.catalog[pp]!, score: s, match: 'text', seqs: [] }); this.applied[pp] = 1; }
    }
  }
}
