// Search: a character-bigram BM25 index over article text persisted in LMDB, plus an in-memory name matcher
// (exact / prefix / abbreviation / substring / bigram overlap on statute and rule names) with boosts.
import type { SearchSource } from './search/source.js';
import type { Category, DocRec } from './parse.js';
import { bigrams, nameKey, stripJosa, termIds } from './normalize.js';
import { analyseQuery } from './search/query.js';
import { MORE_ABBREVIATIONS, priorOf, snippetMatches, type ArticleMatch } from './search/rank.js';

/** Well-known abbreviations (약칭) → full names. XML 법령명약칭 values found at import are added to these. */
export const ABBREVIATIONS: Record<string, string> = {
  개인정보법: '개인정보 보호법', 개보법: '개인정보 보호법', 근기법: '근로기준법', 주임법: '주택임대차보호법', 상임법: '상가건물 임대차보호법',
  중처법: '중대재해 처벌 등에 관한 법률', 중대재해법: '중대재해 처벌 등에 관한 법률', 중대재해처벌법: '중대재해 처벌 등에 관한 법률',
  국가계약법: '국가를 당사자로 하는 계약에 관한 법률', 국계법: '국가를 당사자로 하는 계약에 관한 법률', 정보통신망법: '정보통신망 이용촉진 및 정보보호 등에 관한 법률',
  정통망법: '정보통신망 이용촉진 및 정보보호 등에 관한 법률', 전공의법: '전공의의 수련환경 개선 및 지위 향상을 위한 법률', 산림자원법: '산림자원의 조성 및 관리에 관한 법률',
  공정거래법: '독점규제 및 공정거래에 관한 법률', 자본시장법: '자본시장과 금융투자업에 관한 법률', 신용정보법: '신용정보의 이용 및 보호에 관한 법률',
  특가법: '특정범죄 가중처벌 등에 관한 법률', 특경법: '특정경제범죄 가중처벌 등에 관한 법률', 도교법: '도로교통법', 헌법: '대한민국헌법',
  행절법: '행정절차법', 남녀고용평등법: '남녀고용평등과 일ㆍ가정 양립 지원에 관한 법률', 산안법: '산업안전보건법', 최저임금법: '최저임금법',
  청탁금지법: '부정청탁 및 금품등 수수의 금지에 관한 법률', 김영란법: '부정청탁 및 금품등 수수의 금지에 관한 법률', 전자서명법: '전자서명법',
  국토계획법: '국토의 계획 및 이용에 관한 법률', 정보공개법: '공공기관의 정보공개에 관한 법률', 가맹사업법: '가맹사업거래의 공정화에 관한 법률',
  ...MORE_ABBREVIATIONS,
};

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
    const law = this.law;
    const ids = law.catalog.map((d) => d.id);
    const ownerL: number[] = [], seqL: number[] = [], lenL: number[] = [];
    const terms = new Map<number, { ids: Uint32Array; tfs: Uint8Array; n: number }>();
    const titleL: string[][] = [];
    let N = 0, total = 0, postings = 0;
    const buf: number[] = [];
    for (let o = 0; o < ids.length; o++) {
      // yield now and then: lmdb-js renews its read transaction between turns (one huge synchronous scan fails with MDB_TXN_FULL)
      if (o % 200 === 0) await new Promise((r) => setImmediate(r));
      const id = ids[o]!;
      const doc = law.byId.get(id)!;
      const nameTerms = termIds(doc.name);
      let s = 0;
      const titles: string[] = [];
      titleL.push(titles);
      for (const { value: a } of law.arts.getRange({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) {
        const sq = s++;
        titles.push(a.deleted ? '' : a.title.replace(/\n/g, ' '));
        if (a.deleted) continue;
        buf.length = 0;
        // the article title is the strongest text evidence: its terms count three times
        termIds(a.title, buf); termIds(a.title, buf); termIds(a.title, buf);
        termIds(a.content, buf);
        for (const t of nameTerms) buf.push(t); // a law's name counts in each of its articles ("민법 불법행위")
        const n = buf.length;
        if (!n) continue;
        const arr = Int32Array.from(buf).sort();
        const docId = N++;
        ownerL.push(o); seqL.push(sq); lenL.push(Math.min(65535, n));
        total += n;
        let i = 0;
        while (i < arr.length) {
          const t = arr[i]!;
          let j = i + 1;
          while (j < arr.length && arr[j] === t) j++;
          let p = terms.get(t);
          if (!p) { p = { ids: new Uint32Array(4), tfs: new Uint8Array(4), n: 0 }; terms.set(t, p); }
          if (p.n === p.ids.length) {
            const ni = new Uint32Array(p.n * 2); ni.set(p.ids); p.ids = ni;
            const nt = new Uint8Array(p.n * 2); nt.set(p.tfs); p.tfs = nt;
          }
          p.ids[p.n] = docId; p.tfs[p.n] = Math.min(255, j - i); p.n++;
          postings++;
          i = j;
        }
      }
      if (onProgress && o % 200 === 0) onProgress(o, ids.length);
    }
    const tBuild = performance.now();
    const gen = (law.indexGen() || 0) + 1;
    const toBuf = (a: Uint32Array | Uint16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    let batch: Array<[number, Buffer]> = [];
    let batchBytes = 0;
    const flush = async () => {
      const b = batch;
      batch = [];
      batchBytes = 0;
      await law.transaction(() => { for (const [t, buf] of b) law.idx.put([gen, t], buf); });
    };
    for (const [t, p] of terms) {
      const b = Buffer.allocUnsafe(p.n * 5);
      Buffer.from(p.ids.buffer, 0, p.n * 4).copy(b, 0);
      Buffer.from(p.tfs.buffer, 0, p.n).copy(b, p.n * 4);
      batch.push([t, b]);
      batchBytes += b.length + 32;
      if (batchBytes > 32 * 1024 * 1024) await flush();
    }
    await flush();
    await law.transaction(() => {
      law.idx.put([gen, 'owner'], toBuf(Uint32Array.from(ownerL)));
      law.idx.put([gen, 'seq'], toBuf(Uint32Array.from(seqL)));
      law.idx.put([gen, 'len'], toBuf(Uint16Array.from(lenL)));
      titleL.forEach((ts, o) => law.idx.put([gen, `t${o}`], Buffer.from(ts.join('\n'))));
      law.idx.put([gen, 'meta'], Buffer.from(JSON.stringify({ N, avgdl: N ? total / N : 1, ids })));
      law.setIndexGen(gen);
    });
    const tWrite = performance.now();
    // drop older generations
    const old: Array<[number, number] | [number, string]> = [];
    for (const k of law.idx.getKeys({ start: [0], end: [gen] })) old.push(k as [number, number]);
    for (let i = 0; i < old.length; i += 50000) {
      const part = old.slice(i, i + 50000);
      await law.transaction(() => { for (const k of part) law.idx.remove(k); });
    }
    this.open(gen);
    return { docs: N, terms: terms.size, postings, ms: Math.round(performance.now() - t0) };
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
      for (const ci of cand) {
        const { d, nk, nb, mk } = this.names[ci]!;
        const common = qk.length < 2 ? 0 : counts[ci]!;
        counts[ci] = 0;
        // a name sharing few of the query's bigrams can only match as an abbreviation (same first two characters)
        if (qk.length >= 2 && common < needCommon && common < qb.size && !nk.startsWith(qk2) && nk !== fullKey && nk !== qkj && !mk.includes(qk)) continue;
        if (!allow(d)) continue;
        let s = 0;
        let match: Hit['match'] = 'name';
        if (nk === qk || nk === qkj) { s = 100; if (aq.named.length && nameKey(query) !== nk && !nameKey(query).startsWith(nk)) match = 'abbreviation'; }
        else if (fullKey && nk === fullKey) { s = 95; match = 'abbreviation'; }
        else if (fullKey && nk.startsWith(fullKey)) { s = 70 + 10 * (fullKey.length / nk.length); match = 'abbreviation'; }
        else if (nk.startsWith(qk)) s = 70 + 10 * (qk.length / nk.length);
        // the query starts with the whole name ("도로교통법 음주운전"): that statute, searched for the rest
        else if (nk.length >= 2 && (qk.startsWith(nk) || qkj.startsWith(nk))) s = 75 + 10 * (nk.length / qk.length);
        else if (qk.length >= 3 && isAbbrev(qk, nk)) { s = 60 + 10 * (qk.length / nk.length); match = 'abbreviation'; }
        // the query inside the name: a whole word of the name (or a long run) counts; syllables inside
        // other words (사기 in 사기업, 기사기) are a weak fragment
        else if (nk.includes(qk)) s = wordIn(d.name, qk) || qk.length >= 5 ? 40 + 10 * (qk.length / nk.length) : 12;
        else if (qb.size >= 2) {
          const dice = (2 * common) / (qb.size + nb.size);
          if (common >= 2 && common / qb.size >= 0.6) s = 40 * dice + 10 * (common / qb.size);
        }
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

/** key is one whole word of the name (spaces, middle dots), possibly with a particle or 법/죄/령 after it. */
function wordIn(name: string, key: string): boolean {
  for (const w of name.split(/[\sㆍ·,()]+/)) {
    const k = nameKey(w);
    if (k === key || (k.startsWith(key) && /^(의|에|과|와|을|를|등|법|죄|령|및|에관한|법률|규칙|시행령|시행규칙)$/.test(k.slice(key.length)))) return true;
  }
  return false;
}

/** q is an abbreviation of name: same first two chars, same last char, all chars in order. */
function isAbbrev(q: string, name: string): boolean {
  if (q[0] !== name[0] || q[1] !== name[1] || q[q.length - 1] !== name[name.length - 1]) return false;
  let j = 2;
  for (let i = 2; i < q.length; i++) {
    j = name.indexOf(q[i]!, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}
