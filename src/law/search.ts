// Search: a character-bigram BM25 index over article text persisted in LMDB, plus an in-memory name matcher
// (exact / prefix / abbreviation / substring / bigram overlap on statute and rule names) with boosts.
import type { SearchSource } from './search/source.js';
import type { Category, DocRec } from './parse.js';
import { bigrams, nameKey, stripJosa, termIds } from './normalize.js';
import { analyseQuery } from './search/query.js';
import { priorOf, snippetMatches, type ArticleMatch } from './search/rank.js';
import { ABBREVIATIONS, nameScore } from './search/names.js';
import { buildIndex } from './search/build.js';

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

interface Posting { ids: Uint32Array; tfs: Uint8Array }

const K1 = 1.2, B = 0.75;
/** text-only matches kept as ranked hits (pageable); more are counted in total */
const MAX_TEXT_HITS = 1000;

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
  private scores = new Float32Array(0);
  private hits = new Uint8Array(0);
  abbr = new Map<string, string>();
  /** per catalogue entry: name key, its distinct bigrams, ministry keys */
  private names: Array<{ d: DocRec; nk: string; nb: Set<string>; mk: string[] }> = [];
  /** name bigram → entry positions; name key → positions; ministry key → positions */
  private nameGrams = new Map<string, number[]>();
  private nameKeys = new Map<string, number[]>();
  private ministryKeys = new Map<string, number[]>();
  private nameCounts = new Uint16Array(0);
  private aggBuf = new Float64Array(0);
  /** ids of documents whose title is also carried by a newer (preferred) document */
  private olderDup = new Set<string>();
  /** name key → how many documents cite that name in 「」 (citation prior) */
  private cited = new Map<string, number>();
  private touchedBuf = new Uint32Array(0);

  constructor(private readonly law: SearchSource) {}

  /** Load the persisted doc tables of generation gen (postings are read from LMDB on demand). */
  open(gen: number): void {
    this.cache.clear();
    this.titles.clear();
    this.cacheBytes = 0;
    this.gen = gen;
    this.abbr = new Map(Object.entries(ABBREVIATIONS).map(([k, v]) => [nameKey(k), v]));
    for (const d of this.law.catalog) if (d.abbreviation) this.abbr.set(nameKey(d.abbreviation), d.name);
    this.names = this.law.catalog.map((d) => { const nk = nameKey(d.name); return { d, nk, nb: new Set(bigrams(nk)), mk: d.ministries.map(nameKey) }; });
    const add = (m: Map<string, number[]>, k: string, i: number) => { const l = m.get(k); if (l) l.push(i); else m.set(k, [i]); };
    this.nameGrams = new Map(); this.nameKeys = new Map(); this.ministryKeys = new Map();
    this.names.forEach((e, i) => {
      for (const g of e.nb) add(this.nameGrams, g, i);
      add(this.nameKeys, e.nk, i);
      for (const m of new Set(e.mk)) add(this.ministryKeys, m, i);
    });
    this.nameCounts = new Uint16Array(this.names.length);
    this.olderDup = new Set();
    this.cited = new Map();
    for (const d of this.law.catalog) for (const c of new Set(d.cites)) this.cited.set(c, (this.cited.get(c) ?? 0) + 1);
    for (const list of this.law.byName.values()) for (const d of list.slice(1)) this.olderDup.add(d.id);
    const meta = gen ? this.law.idx.get([gen, 'meta']) : undefined;
    if (!meta) {
      this.N = 0; this.ids = []; this.owner = new Uint32Array(0); this.seq = new Uint32Array(0); this.len = new Uint16Array(0);
      return;
    }
    const m = JSON.parse(meta.toString('utf8')) as { N: number; avgdl: number; ids: string[] };
    this.N = m.N; this.avgdl = m.avgdl; this.ids = m.ids;
    this.ownerIx = new Map(m.ids.map((id, o) => [id, o]));
    const u32 = (b: Buffer) => { const c = new Uint8Array(b.length); c.set(b); return new Uint32Array(c.buffer); };
    this.owner = u32(this.law.idx.get([gen, 'owner'])!);
    this.seq = u32(this.law.idx.get([gen, 'seq'])!);
    const lb = this.law.idx.get([gen, 'len'])!;
    const lc = new Uint8Array(lb.length); lc.set(lb);
    this.len = new Uint16Array(lc.buffer);
    this.scores = new Float32Array(this.N);
    this.hits = new Uint8Array(this.N);
  }

  /** Rebuild the article-text index from the stored articles and persist it as a new generation. Returns stats. */
  async build(onProgress?: (done: number, total: number) => void): Promise<{ docs: number; terms: number; postings: number; ms: number }> {
    const t0 = performance.now();
    const { gen, stats } = await buildIndex(this.law, onProgress);
    this.open(gen);
    return { ...stats, ms: Math.round(performance.now() - t0) };
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

  /** Article title at a position (persisted per document with the index; the article record for older indexes). */
  private titleOf(id: string, seq: number): string {
    let ts = this.titles.get(id);
    if (!ts) {
      const o = this.ownerIx.get(id);
      const b = o === undefined ? undefined : this.law.idx.getBinary([this.gen, `t${o}`]);
      if (!b) return this.law.arts.get([id, seq])?.title ?? '';
      ts = b.toString('utf8').split('\n');
      if (this.titles.size >= 1000) this.titles.delete(this.titles.keys().next().value!);
      this.titles.set(id, ts);
    }
    return ts[seq] ?? '';
  }

  private titleEvidence(out: Hit[], core: string, named: string[]): void {
    const nk = named.map(nameKey);
    const words = [...new Set(core.split(/\s+/).map((w) => nameKey(w.replace(/죄$/, ''))).filter((w) => w.length >= 2 && !nk.some((n) => n.includes(w))))];
    if (!words.length) return;
    out.sort((a, b) => b.score - a.score);
    for (const h of out.slice(0, 20)) {
      if (!h.seqs.length) continue;
      let best = 0, bestSeq = -1;
      for (const s of h.seqs) {
        // the article record (a few KB) rather than the document's whole article list (민법: 1,100 entries)
        const tk = nameKey(this.titleOf(h.doc.id, s));
        if (!tk) continue;
        let c = 0;
        for (const w of words) if (tk.includes(w) || (w.length >= 4 && tk.includes(w.slice(0, 3)))) c++;
        const f = c / words.length;
        if (f > best) { best = f; bestSeq = s; }
      }
      if (best > 0) {
        h.score += 25 * best + (best === 1 ? 10 : 0);
        h.seqs = [bestSeq, ...h.seqs.filter((x) => x !== bestSeq)];
      }
    }
  }

  /**
   * Rank statutes and rules for a query: name matches (exact, abbreviation, prefix, substring, bigram overlap),
   * ministry matches, and BM25 over article text (best article per document, with its article numbers).
   */
  query(query: string, filters: SearchFilters, articleRef: string | null): HitList {
    const law = this.law;
    // query analysis: abbreviations expanded inside the phrase, endings/particles/filler dropped, synonyms added
    const aq = analyseQuery(query, this.abbr);
    const q = aq.core || query;
    const allow = (d: DocRec) => (!filters.categories || filters.categories.has(d.category)) && (!filters.ministry || d.ministries.some((m) => nameKey(m).includes(filters.ministry!)));
    const scores = new Map<DocRec, Hit>();
    const extraTotal: number[] = [];
    const qk = nameKey(q);
    const qkj = nameKey(q.split(/\s+/).map(stripJosa).join(''));
    if (qk) {
      const full = this.abbr.get(qk) ?? this.abbr.get(qkj);
      const fullKey = full ? nameKey(full) : null;
      const qb = new Set(bigrams(qk));
      // candidates: names sharing a bigram with the query, the abbreviation's full name, the ministry
      const counts = this.nameCounts;
      const cand: number[] = [];
      if (qk.length < 2) {
        for (let i = 0; i < this.names.length; i++) cand.push(i);
      } else {
        // candidate names come from the query's rarer bigrams (법률, 관한, 시행령's bigrams are in thousands of names)
        const grams = [...qb].map((g) => this.nameGrams.get(g) ?? []);
        const limit = this.names.length * 0.05;
        const rareG = grams.filter((l) => l.length <= limit);
        const useG = rareG.length >= 2 || (rareG.length === 1 && qb.size <= 3) ? rareG : grams;
        for (const l of useG) for (const i of l) if (counts[i]!++ === 0) cand.push(i);
        if (useG !== grams) {
          // exact shared-bigram counts only for names that hold most of the rare bigrams (or start like the query)
          const needRare = Math.ceil(useG.length * 0.6), q2 = qk.slice(0, 2);
          let w = 0;
          for (const i of cand) {
            const e = this.names[i]!;
            if (counts[i]! < needRare && !e.nk.startsWith(q2)) { counts[i] = 0; continue; }
            let c = 0;
            for (const g of qb) if (e.nb.has(g)) c++;
            counts[i] = c;
            cand[w++] = i;
          }
          cand.length = w;
        }
      }
      for (const k of [fullKey, qkj]) for (const i of (k && this.nameKeys.get(k)) || []) if (counts[i] === 0) { counts[i] = 1; cand.push(i); }
      for (const i of this.ministryKeys.get(qk) ?? []) if (counts[i] === 0) { counts[i] = 1; cand.push(i); }
      const needCommon = Math.max(2, Math.ceil(qb.size * 0.6));
      const qk2 = qk.slice(0, 2);
      const nq = { query, qk, qkj, qb, fullKey, named: aq.named.length > 0 };
      for (const ci of cand) {
        const { d, nk, nb, mk } = this.names[ci]!;
        const common = qk.length < 2 ? 0 : counts[ci]!;
        counts[ci] = 0;
        // a name sharing few of the query's bigrams can only match as an abbreviation (same first two characters)
        if (qk.length >= 2 && common < needCommon && common < qb.size && !nk.startsWith(qk2) && nk !== fullKey && nk !== qkj && !mk.includes(qk)) continue;
        if (!allow(d)) continue;
        let { s, match } = nameScore({ name: d.name, nk, nb, common }, nq);
        if (!s && mk.includes(qk)) { s = 30; match = 'ministry'; }
        if (s) {
          if (d.repealed) s *= 0.5;
          scores.set(d, { doc: d, score: s, match, seqs: [] });
        }
      }
    }
    // article text (BM25 over bigrams, coordination ≥ 60% of distinct query terms)
    if (this.N > 0) {
      const qt = [...new Set(termIds(aq.text || q))];
      if (qt.length) {
        let post: Array<{ p: Posting; idf: number }> = [];
        let missing = 0;
        // the statutory terms a plain question was mapped to weigh more than its own words
        const mapped = aq.plain && aq.mapped ? new Set(termIds(aq.mapped)) : null;
        for (const t of qt) {
          const p = this.posting(t);
          if (!p) { missing++; continue; }
          const df = p.ids.length;
          post.push({ p, idf: Math.log(1 + (this.N - df + 0.5) / (df + 0.5)) * (mapped?.has(t) ? 1.6 : 1) });
        }
        // terms absent from the whole index (bigrams across a compound's parts, filler) do not count
        let nTerms = qt.length - missing;
        // very common bigrams (in more than 8% of articles, e.g. 대통령령's 대통) add little to BM25 and cost the most:
        // drop them when at least two rarer terms are left
        const rare = post.filter((x) => x.p.ids.length <= this.N * 0.08);
        if (rare.length >= 2 && rare.length < post.length) {
          nTerms -= post.length - rare.length;
          post = rare;
        }
        // long or stop-word-heavy queries: score with the rarest terms only, at most 8 and about 60,000 postings
        // (at least one term); the rare ones carry most of the BM25 weight
        post.sort((a, b) => a.p.ids.length - b.p.ids.length);
        let budget = 60_000, keep = 0;
        while (keep < post.length && keep < 8 && (keep === 0 || budget - post[keep]!.p.ids.length >= 0)) { budget -= post[keep]!.p.ids.length; keep++; }
        if (keep < post.length) {
          nTerms -= post.length - keep;
          post = post.slice(0, keep);
        }
        let need = nTerms <= 2 ? nTerms : Math.ceil(nTerms * 0.6);
        // mostly unknown terms (a typo, nonsense): no text answer rather than a guess on a fragment
        if (post.length && missing * 2 <= qt.length) {
          const { scores: sc, hits, len, avgdl } = this;
          if (this.touchedBuf.length < this.N) this.touchedBuf = new Uint32Array(this.N);
          const touched = this.touchedBuf;
          let nTouched = 0;
          const normLen = K1 * (1 - B), normB = (K1 * B) / avgdl;
          for (const { p, idf } of post) {
            const { ids, tfs } = p;
            const n = ids.length;
            for (let i = 0; i < n; i++) {
              const d = ids[i]!;
              if (hits[d] === 0) touched[nTouched++] = d;
              hits[d]!++;
              const tf = tfs[i]!;
              sc[d]! += (idf * tf * (K1 + 1)) / (tf + normLen + normB * len[d]!);
            }
          }
          // graceful fallback: when no article holds enough of the terms, take those that hold the most
          let maxH = 0, enough = false;
          for (let k = 0; k < nTouched && !enough; k++) { const h = hits[touched[k]!]!; if (h >= need) enough = true; else if (h > maxH) maxH = h; }
          if (!enough) need = Math.max(1, maxH);
          // best three articles per document (typed arrays indexed by document, no per-hit allocation)
          const nDocs = this.ids.length;
          if (this.aggBuf.length < nDocs * 7) this.aggBuf = new Float64Array(nDocs * 7);
          const agg = this.aggBuf;
          const owners: number[] = [];
          const owner = this.owner, seq = this.seq;
          for (let k = 0; k < nTouched; k++) {
            const d = touched[k]!;
            const h = hits[d]!;
            if (h >= need) {
              const o = owner[d]!;
              const base = o * 7;
              const s = sc[d]! * (h / nTerms);
              if (agg[base] === 0) { owners.push(o); agg[base + 1] = agg[base + 3] = agg[base + 5] = -1; }
              agg[base]!++;
              const q = seq[d]!;
              if (s > agg[base + 1]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = agg[base + 1]!; agg[base + 4] = agg[base + 2]!; agg[base + 1] = s; agg[base + 2] = q; }
              else if (s > agg[base + 3]!) { agg[base + 5] = agg[base + 3]!; agg[base + 6] = agg[base + 4]!; agg[base + 3] = s; agg[base + 4] = q; }
              else if (s > agg[base + 5]!) { agg[base + 5] = s; agg[base + 6] = q; }
            }
            sc[d] = 0; hits[d] = 0;
          }
          // keep hit objects for the best MAX_TEXT_HITS documents only (the total still counts all)
          let cut = -Infinity;
          if (owners.length > MAX_TEXT_HITS) {
            const sc2 = new Float64Array(owners.length);
            for (let k = 0; k < owners.length; k++) sc2[k] = agg[owners[k]! * 7 + 1]!;
            sc2.sort();
            cut = sc2[owners.length - MAX_TEXT_HITS]!;
          }
          const bestS: Array<[number, Float64Array]> = [];
          for (const o of owners) {
            if (agg[o * 7 + 1]! >= cut) bestS.push([o, agg.slice(o * 7, o * 7 + 7)]);
            else extraTotal.push(o);
            agg.fill(0, o * 7, o * 7 + 7);
          }
          for (const [o, b] of bestS) {
            const d = law.byId.get(this.ids[o]!);
            if (!d || !allow(d)) continue;
            const textScore = b[1]! + Math.log1p(b[0]!) * 0.5;
            const h = scores.get(d);
            const seqs = [b[2]!, b[4]!, b[6]!].slice(0, Math.min(3, b[0]!));
            if (h) { h.score += textScore; h.seqs = seqs; }
            else scores.set(d, { doc: d, score: textScore * (d.repealed ? 0.5 : 1), match: 'text', seqs });
          }
        }
      }
    }
    const out = [...scores.values()];
    this.titleEvidence(out, aq.core, aq.named);
    for (const h of out) h.score *= priorOf(h.doc, this.cited.get(nameKey(h.doc.name)) ?? 0);
    // duplicate titles (a changed 법령ID): the older instrument ranks below the current one
    if (this.olderDup.size) for (const h of out) if (this.olderDup.has(h.doc.id)) h.score *= 0.5;
    const order = (a: Hit, b: Hit) => b.score - a.score || a.doc.name.length - b.doc.name.length || a.doc.id.localeCompare(b.doc.id);
    out.sort(order);
    if (articleRef) {
      for (const h of out.slice(0, 50)) {
        const i = law.articleSeq(h.doc.id, articleRef);
        if (i !== undefined) { h.ref = i; h.score += 5; }
      }
      out.sort(order);
    }
    let extra = 0;
    for (const o of extraTotal) {
      const d = law.byId.get(this.ids[o]!);
      if (d && allow(d) && !scores.has(d)) extra++;
    }
    const words = aq.words.length ? aq.words : query.split(/\s+/);
    for (const h of out.slice(0, 50)) {
      let cache: ArticleMatch[] | undefined;
      Object.defineProperty(h, 'matches', {
        enumerable: true,
        get: () => (cache ??= snippetMatches((s) => law.arts.get([h.doc.id, s]), h.ref !== undefined ? [h.ref, ...h.seqs.filter((x) => x !== h.ref)] : h.seqs, words)),
      });
    }
    return Object.assign(out, { total: out.length + extra });
  }
}
