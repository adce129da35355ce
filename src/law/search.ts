// Search: a character-bigram BM25 index over article text persisted in LMDB, plus an in-memory name matcher
// (exact / prefix / abbreviation / substring / bigram overlap on statute and rule names) with boosts.
import type { SearchSource } from './search/source.js';
import type { Category, DocRec } from './parse.js';
import { bigrams, nameKey, termIds } from './normalize.js';
import { analyseQuery, type AnalysedQuery } from './search/query.js';
import { asksForRule, namesRuleSubject, priorOf, snippetMatches, type ArticleMatch } from './search/rank.js';
import { SEARCH_SWITCHES } from './search/switches.js';
import { ABBREVIATIONS } from './search/names.js';
import { NameIndex } from './search/name-index.js';
import { NameWords } from './search/name-words.js';
import { Bm25, selectTerms, type Posting, type WeightedPosting } from './search/bm25.js';
import { buildIndex, dropGenerationsBefore } from './search/build.js';

export { ABBREVIATIONS };

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

/** ranked hits (at most the best 1,000 text-only matches) and the number of all matching documents */
export type HitList = Hit[] & { total: number };

/** text-only matches kept as ranked hits (pageable); more are counted in total */
const MAX_TEXT_HITS = 1000;
const PLAIN_COORD = 0.4;
const MAPPED_WEIGHT = 2;
/** an inner bigram of a word this many times rarer than both neighbours splits the compound there */
const SPLIT_RATIO = 20;
/** documents whose article titles are read for title evidence (the best by name and text) */
const TITLE_DOCS = 12;

export class SearchIndex {
  gen = 0;
  N = 0;
  avgdl = 1;
  ids: string[] = [];
  owner = new Uint32Array(0);
  seq = new Uint32Array(0);
  len = new Uint16Array(0);
  private cache = new Map<number, Posting | null>();
  private cacheBytes = 0;
  abbr = new Map<string, string>();
  private nameIndex = new NameIndex([]);
  private nameWords = new NameWords([]);
  private readonly bm25 = new Bm25();
  /** ids of documents whose title is also carried by a newer (preferred) document */
  private olderDup = new Set<string>();
  /** name key → how many documents cite that name in 「」 (citation prior) */
  private cited = new Map<string, number>();
  /** per document: the kind and citation prior for keyword queries and for plain questions (computed at open) */
  private priors = new Map<DocRec, [number, number]>();

  constructor(private readonly law: SearchSource) {}

  /** Load the persisted doc tables of generation gen (postings are read from LMDB on demand). */
  open(gen: number): void {
    this.cache.clear();
    this.titles.clear();
    this.cacheBytes = 0;
    this.gen = gen;
    this.abbr = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [nameKey(k), v]));
    for (const d of this.law.catalog) if (d.abbreviation) this.abbr.set(nameKey(d.abbreviation), d.name);
    this.nameIndex = new NameIndex(this.law.catalog);
    this.nameWords = new NameWords(this.law.catalog, SEARCH_SWITCHES.nameWordsRules > 0);
    this.olderDup = new Set();
    this.cited = new Map();
    for (const d of this.law.catalog) for (const c of new Set(d.cites.map(nameKey))) this.cited.set(c, (this.cited.get(c) ?? 0) + 1);
    this.priors = new Map(this.law.catalog.map((d) => { const c = this.cited.get(nameKey(d.name)) ?? 0; return [d, [priorOf(d, c), priorOf(d, c, true)]]; }));
    for (const list of this.law.byName.values()) for (const d of list.slice(1)) this.olderDup.add(d.id);
    const meta = gen ? this.law.idx.get([gen, 'meta']) : undefined;
    if (!meta) {
      this.N = 0; this.ids = []; this.docOf = []; this.owner = new Uint32Array(0); this.seq = new Uint32Array(0); this.len = new Uint16Array(0);
      return;
    }
    const m = JSON.parse(meta.toString('utf8')) as { N: number; avgdl: number; ids: string[] };
    this.N = m.N; this.avgdl = m.avgdl; this.ids = m.ids;
    this.ownerIx = new Map(m.ids.map((id, o) => [id, o]));
    this.docOf = m.ids.map((id) => this.law.byId.get(id));
    const u32 = (b: Buffer) => { const c = new Uint8Array(b.length); c.set(b); return new Uint32Array(c.buffer); };
    this.owner = u32(this.law.idx.get([gen, 'owner'])!);
    this.seq = u32(this.law.idx.get([gen, 'seq'])!);
    const lb = this.law.idx.get([gen, 'len'])!;
    const lc = new Uint8Array(lb.length); lc.set(lb);
    this.len = new Uint16Array(lc.buffer);
  }

  /**
   * Rebuild the article-text index from the stored articles as a new generation and open it. Answers the generation
   * for the store to record (LawStore.rebuildIndex); older generations stay until dropBefore.
   */
  async build(onProgress?: (done: number, total: number) => void): Promise<{ gen: number; docs: number; terms: number; postings: number; ms: number }> {
    const t0 = performance.now();
    const { gen, stats } = await buildIndex(this.law, onProgress);
    this.open(gen);
    return { gen, ...stats, ms: Math.round(performance.now() - t0) };
  }

  /** Drop the generations older than gen (once the store records gen). */
  dropBefore(gen: number): Promise<void> {
    return dropGenerationsBefore(this.law, gen);
  }

  private posting(t: number): Posting | null {
    let p = this.cache.get(t);
    if (p !== undefined) return p;
    const b = this.law.idx.getBinary([this.gen, t]);
    if (!b) p = null;
    else {
      const n = b.length / 5;
      const c = new Uint8Array(b.length); c.set(b); // aligned copy (the fast buffer is reused by the next read)
      p = { ids: new Uint32Array(c.buffer, 0, n), tfs: c.subarray(n * 4) };
      this.cacheBytes += b.length;
    }
    // 32 MB of decoded postings (the hot bigrams); LMDB pages are mapped, not copied
    if (this.cacheBytes > 32 * 1024 * 1024) { this.cache.clear(); this.cacheBytes = 0; }
    this.cache.set(t, p);
    return p;
  }

  /**
   * Article-title evidence: among the best candidates, an article whose title holds the query's words (연차 유급휴가,
   * 사기, 건축허가) lifts its document and becomes its first matching article.
   */
  private titles = new Map<string, string[]>();
  private ownerIx = new Map<string, number>();
  /** the document of each index owner position */
  private docOf: Array<DocRec | undefined> = [];

  /** Article titles of a document as name keys (persisted per document with the index; none for older indexes). */
  private titlesOf(id: string): string[] | null {
    let ts = this.titles.get(id);
    if (!ts) {
      const o = this.ownerIx.get(id);
      const b = o === undefined ? undefined : this.law.idx.getBinary([this.gen, `t${o}`]);
      if (!b) return null;
      // kept as name keys: the title evidence compares keys only
      ts = b.toString('utf8').split('\n').map(nameKey);
      if (this.titles.size >= 4000) this.titles.delete(this.titles.keys().next().value!);
      this.titles.set(id, ts);
    }
    return ts;
  }

  /**
   * Article-title evidence: among the best candidates, the article whose title holds most of the query's words (and
   * is most covered by them: 제54조 휴게 over 제59조 근로시간 및 휴게시간의 특례) lifts its document and becomes its
   * first matching article; every title of the document is read, not only those of the best text matches.
   */
  private titleEvidence(out: Hit[], aq: AnalysedQuery): void {
    const nk = aq.named.map(nameKey);
    const keys = (s: string) => s.split(/\s+/).map((w) => nameKey(w.replace(/죄$/, ''))).filter((w) => w.length >= 2 && !nk.some((n) => n.includes(w)));
    // the statutory terms a plain question was mapped to weigh more than its own words (as in the text score)
    const weight = new Map<string, number>();
    for (const w of keys(aq.core)) weight.set(w, 1);
    for (const w of keys(aq.mapped)) weight.set(w, MAPPED_WEIGHT);
    const words = [...weight.keys()];
    if (!words.length) return;
    const wts = words.map((w) => weight.get(w)!);
    const qb = new Set(words.flatMap((w) => bigrams(w)));
    const heads = words.map((w) => w.slice(0, 2));
    for (const h of bestOf(out, TITLE_DOCS)) {
      const all = this.titlesOf(h.doc.id);
      const seqs = all ? all.keys() : h.seqs.values();
      let best = 0, bestSeq = -1, bestF = 0;
      for (const s of seqs) {
        const tk = all ? all[s]! : nameKey(this.law.arts.get([h.doc.id, s])?.title ?? '');
        // cheap test first: a title holding none of the words' first two characters cannot match
        if (!tk || !heads.some((x) => tk.includes(x))) continue;
        const f = titleRecall(tk, words, wts);
        if (f === 0) continue;
        // how much of the title the query covers, and a little for an article the text also matched
        const v = f + 0.4 * titlePrecision(tk, qb) + (h.seqs.includes(s) ? 0.02 : 0);
        if (v > best) { best = v; bestSeq = s; bestF = f; }
      }
      if (bestSeq >= 0) {
        h.score += 25 * bestF + (bestF === 1 ? 10 : 0) + 10 * (best - bestF);
        h.seqs = [bestSeq, ...h.seqs.filter((x) => x !== bestSeq)].slice(0, 3);
      }
    }
  }

  /**
   * Rank statutes and rules for a query: name matches (exact, abbreviation, prefix, substring, bigram overlap),
   * ministry matches, and BM25 over article text (best article per document, with its article numbers), then
   * article-title evidence, the kind and citation priors, and the article the query named.
   */
  query(query: string, filters: SearchFilters, articleRef: string | null): HitList {
    // query analysis: abbreviations expanded inside the phrase, endings/particles/filler dropped, synonyms added
    const aq = analyseQuery(query, this.abbr);
    const allow = (d: DocRec) => (!filters.categories || filters.categories.has(d.category)) && (!filters.ministry || d.ministries.some((m) => nameKey(m).includes(filters.ministry!)));
    const scores = new Map<DocRec, Hit>();
    for (const h of this.nameIndex.match(aq.core || query, query, aq.named.length > 0, this.abbr, allow)) scores.set(h.doc, { ...h, seqs: [] });
    const beyond = this.textMatches(aq, query, allow, scores);
    const out = this.rank([...scores.values()], aq, articleRef);
    let extra = 0;
    for (const o of beyond) {
      const d = this.docOf[o];
      if (d && allow(d) && !scores.has(d)) extra++;
    }
    this.attachMatches(out.slice(0, 50), aq.words.length ? aq.words : query.split(/\s+/));
    return Object.assign(out, { total: out.length + extra });
  }

  /** The query's terms with their postings and idf (the statutory terms a plain question was mapped to weigh more). */
  private weightedTerms(aq: AnalysedQuery, query: string): { post: WeightedPosting[]; missing: number; total: number } {
    const qt = [...new Set(this.compoundTerms(aq.text || aq.core || query))];
    const mapped = aq.plain && aq.mapped ? new Set(termIds(aq.mapped)) : null;
    const post: WeightedPosting[] = [];
    let missing = 0;
    for (const t of qt) {
      const p = this.posting(t);
      if (!p) { missing++; continue; }
      const df = p.ids.length;
      post.push({ p, idf: Math.log(1 + (this.N - df + 0.5) / (df + 0.5)) * (mapped?.has(t) ? 1.6 : 1) });
    }
    return { post, missing, total: qt.length };
  }

  /**
   * The term ids of a text, each compound split where the corpus says so: a bigram inside a word that is far rarer
   * than both its neighbours straddles two words written together (점유취득시효: 유취, 득시; 야간근로수당: 로수) and
   * is no evidence; it is dropped (a compound the statutes also write, 근로시간's 로시, keeps it).
   */
  private compoundTerms(text: string): number[] {
    if (!SEARCH_SWITCHES.compoundSplit) return termIds(text);
    const out: number[] = [];
    const df = (t: number) => this.posting(t)?.ids.length ?? 0;
    for (const w of text.split(/\s+/)) {
      const ids = termIds(w);
      if (ids.length < 3) { out.push(...ids); continue; }
      const d = ids.map(df);
      for (let i = 0; i < ids.length; i++) {
        const inner = i > 0 && i < ids.length - 1;
        if (inner && d[i]! * SPLIT_RATIO < Math.min(d[i - 1]!, d[i + 1]!)) continue;
        out.push(ids[i]!);
      }
    }
    return out;
  }

  /**
   * Article-text evidence (BM25 over bigrams, coordination ≥ 60 % of the scored terms, falling back to the articles
   * holding the most) added to the name hits; returns the documents matched beyond the best MAX_TEXT_HITS (counted only).
   */
  private textMatches(aq: AnalysedQuery, query: string, allow: (d: DocRec) => boolean, scores: Map<DocRec, Hit>): number[] {
    if (this.N === 0) return [];
    const w = this.weightedTerms(aq, query);
    if (!w.total) return [];
    const { post, nTerms } = selectTerms(w.post, w.missing, w.total, this.N);
    // mostly unknown terms (a typo, nonsense): no text answer rather than a guess on a fragment
    if (!post.length || w.missing * 2 > w.total) return [];
    // a plain question holds everyday words the statutes do not use: fewer of its terms must meet in one article
    const need = nTerms <= 2 ? nTerms : Math.ceil(nTerms * (aq.plain ? PLAIN_COORD : 0.6));
    const enough = (aq.plain ? SEARCH_SWITCHES.coordEnoughPlain : SEARCH_SWITCHES.coordEnough) || 1;
    const docs = this.bm25.run(post, { N: this.N, avgdl: this.avgdl, owner: this.owner, seq: this.seq, len: this.len, docs: this.ids.length }, nTerms, need, enough);
    // keep hit objects for the best MAX_TEXT_HITS documents only (the total still counts all)
    let cut = -Infinity;
    if (docs.n > MAX_TEXT_HITS) cut = docs.best.slice().sort()[docs.n - MAX_TEXT_HITS]!;
    const beyond: number[] = [];
    for (let i = 0; i < docs.n; i++) {
      const o = docs.owners[i]!, best = docs.best[i]!;
      if (best < cut) { beyond.push(o); continue; }
      const d = this.docOf[o];
      if (!d || !allow(d)) continue;
      const textScore = best + Math.log1p(docs.count[i]!) * 0.5;
      const h = scores.get(d);
      if (h) { h.score += textScore; h.seqs = docs.seqsOf(i); }
      else scores.set(d, { doc: d, score: textScore * (d.repealed ? 0.5 : 1), match: 'text', seqs: docs.seqsOf(i) });
    }
    return beyond;
  }

  /** Order the hits: article-title evidence, kind and citation priors, older duplicates down, the named article. */
  private rank(out: Hit[], aq: AnalysedQuery, articleRef: string | null): Hit[] {
    this.titleEvidence(out, aq);
    const k = aq.plain ? 1 : 0;
    const prior = (h: Hit) => this.priors.get(h.doc)?.[k] ?? priorOf(h.doc, 0, aq.plain);
    // a rule asked for by its kind (…규정, 고시) or by its subject (은행 → 은행업감독규정) competes with the statutes on
    // evidence alone: its prior is the best statute prior among the hits; other rules keep the parent-law prior
    let top = 0;
    const ruleAsked = SEARCH_SWITCHES.rulePrior ? asksForRule(aq.words) : false;
    if (SEARCH_SWITCHES.rulePrior) for (const h of out) if (h.doc.category !== 'admrul') top = Math.max(top, prior(h));
    // (a rule's subject is read among the best 100 hits only: further down the lift cannot bring it to the first page)
    const near = top ? new Set(bestOf(out, 100)) : null;
    // a plain question's words in a statute's name (이자 → 이자제한법): name-words.ts
    const cover = (aq.plain || SEARCH_SWITCHES.nameWordsAll) && SEARCH_SWITCHES.nameWords ? this.nameWords.cover(aq.words, SEARCH_SWITCHES.nameWordsMaxHits) : null;
    if (cover) for (const h of out) { const c = cover.get(h.doc); if (c) h.score *= 1 + SEARCH_SWITCHES.nameWords * c; }
    for (const h of out) {
      const p = prior(h);
      h.score *= top > p && h.doc.category === 'admrul' && near!.has(h) && (ruleAsked || namesRuleSubject(h.doc.name, aq.words)) ? top : p;
    }
    // duplicate titles (a changed 법령ID): the older instrument ranks below the current one
    if (this.olderDup.size) for (const h of out) if (this.olderDup.has(h.doc.id)) h.score *= 0.5;
    out.sort(byScore);
    if (articleRef) {
      for (const h of out.slice(0, 50)) {
        const i = this.law.articleSeq(h.doc.id, articleRef);
        if (i !== undefined) { h.ref = i; h.score += 5; }
      }
      out.sort(byScore);
    }
    return out;
  }

  /** the matching articles (number, title, snippet) of each hit, computed on first read */
  private attachMatches(hits: Hit[], words: string[]): void {
    const law = this.law;
    for (const h of hits) {
      let cache: ArticleMatch[] | undefined;
      Object.defineProperty(h, 'matches', {
        enumerable: true,
        get: () => (cache ??= snippetMatches((s) => law.arts.get([h.doc.id, s]), h.ref !== undefined ? [h.ref, ...h.seqs.filter((x) => x !== h.ref)] : h.seqs, words)),
      });
    }
  }
}

/** the k best hits by score, best first (a partial selection: the hits may number thousands) */
function bestOf(out: Hit[], k: number): Hit[] {
  const top: Hit[] = [];
  for (const h of out) {
    if (top.length === k && h.score <= top[k - 1]!.score) continue;
    let i = top.length < k ? top.length : k - 1;
    while (i > 0 && top[i - 1]!.score < h.score) { top[i] = top[i - 1]!; i--; }
    top[i] = h;
  }
  return top;
}

const byScore = (a: Hit, b: Hit) => b.score - a.score || a.doc.name.length - b.doc.name.length || a.doc.id.localeCompare(b.doc.id);

/**
 * share of the query words found in a title (a word of four or more characters also by its first three; a short
 * title inside the word also counts: 휴게 for 휴게시간)
 */
function titleRecall(tk: string, words: string[], wts: number[]): number {
  let c = 0, n = 0;
  for (let j = 0; j < words.length; j++) {
    const w = words[j]!, wt = wts[j]!;
    n += wt;
    if (tk.includes(w) || (w.length >= 4 && tk.includes(w.slice(0, 3))) || (tk.length >= 2 && w.startsWith(tk))) { c += wt; continue; }
    // most of a compound's bigrams in the title (연차휴가 in 연차 유급휴가): partial credit
    if (w.length >= 3) {
      let k = 0;
      for (let i = 0; i + 1 < w.length; i++) if (tk.includes(w.slice(i, i + 2))) k++;
      const cov = k / (w.length - 1);
      if (cov >= 0.6) c += cov * wt;
    }
  }
  return c / n;
}

/** share of a title's bigrams that the query holds */
function titlePrecision(tk: string, qb: Set<string>): number {
  const tb = bigrams(tk);
  let c = 0;
  for (const g of tb) if (qb.has(g)) c++;
  return tb.length ? c / tb.length : 0;
}
