// Article-title evidence of law search: among the best candidates, the article whose title holds most of the query's
// words (and is most covered by them: 제54조 휴게 over 제59조 근로시간 및 휴게시간의 특례) lifts its document and becomes
// its first matching article. A document's titles are kept as one joined string of name keys, so the titles that can
// match (those holding a word's first two characters) are found by native substring search, not title by title.
import { bigrams, nameKey } from '../normalize.js';
import { SEARCH_SWITCHES } from './switches.js';
import { kthSmallest } from './bm25.js';
import { candidateBm25 } from './article-bm25.js';

/**
 * The article titles of one document as name keys, joined by '\n' (a key never holds one), with each title's start.
 * No array of the keys beside the joined string: a title's key is cut out when read (titleKey), so a cached set
 * costs about 2 bytes a character instead of 5 and the title cache holds 2.3 times as many documents (speed21).
 */
export interface TitleSet { joined: string; starts: Int32Array }

/** the set of the keys, given as a list or joined by '\n' (nameKeyText of the stored titles) */
export function titleSet(keys: string | string[]): TitleSet {
  const joined = typeof keys === 'string' ? keys : keys.join('\n');
  let n = 1;
  for (let at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) n++;
  const starts = new Int32Array(n);
  for (let i = 1, at = joined.indexOf('\n'); at >= 0; at = joined.indexOf('\n', at + 1)) starts[i++] = at + 1;
  return { joined, starts };
}

/** the name key of title s */
export function titleKey(ts: TitleSet, s: number): string {
  return ts.joined.slice(ts.starts[s]!, s + 1 < ts.starts.length ? ts.starts[s + 1]! - 1 : ts.joined.length);
}

/** What titleEvidence needs of a hit (search.ts Hit). */
export interface TitleHit { doc: { id: string; name?: string }; score: number; seqs: number[] }


/** what the title evidence reads of an analysed query (query.ts AnalysedQuery) */
export interface QueryWords { named: string[]; core: string; mapped: string; cues?: string[]; mappedGroups?: string[] }

/** a query's words as the title evidence reads them (prepared once per query) */
export interface TitleQuery { qw: QueryWord[]; qb: Set<number>; qf: Uint32Array; heads: string[]; cues: string[]; choice?: QueryWord[]; scan: HeadScan | null }

/** the last query read and its words (titleEvidence, chooseArticles and bodyChoice read the same analysed query), and
 * the scans of the title sets it read (a hit's titles are read up to three times a query) */
let last: { q: QueryWords; tq: TitleQuery | null; scans: Map<TitleSet, TitleScan> } | null = null;

/** the query's words for title evidence (null: none left once the named statutes' words are taken out) */
export function titleQuery(q: QueryWords): TitleQuery | null {
  if (last?.q !== q) last = { q, tq: wordsOf(q), scans: new Map() };
  return last.tq;
}

function wordsOf(q: QueryWords): TitleQuery | null {
  const nk = q.named.map(nameKey);
  const keys = (s: string) => s.split(/\s+/).map((w) => nameKey(w.replace(/죄$/, ''))).filter((w) => w.length >= 2 && !nk.some((n) => n.includes(w)));
  const weight = new Map<string, number>();
  for (const w of keys(q.core)) weight.set(w, 1);
  for (const w of keys(q.mapped)) weight.set(w, SEARCH_SWITCHES.titleMapped);
  // (switch titleMappedGroup: one question word's mapped terms share the weight, 아버지 → 부, 직계존속 at half each: in
  // the score and the article choice (1) or in the score only (2, the choice keeps the weights above))
  const grouped = SEARCH_SWITCHES.titleMappedGroup && q.mapped && q.mappedGroups?.length ? new Map(weight) : null;
  if (grouped) {
    const byGroup = q.mappedGroups!.map(keys);
    for (const ks of byGroup) for (const w of ks) grouped.set(w, 0);
    for (const ks of byGroup) for (const w of ks) grouped.set(w, Math.max(grouped.get(w)!, SEARCH_SWITCHES.titleMapped / ks.length));
  }
  const words = [...weight.keys()];
  if (!words.length) return null;
  // each word with its first three characters and its bigrams (read for every candidate title)
  const qw: QueryWord[] = words.map((w) => ({ w, wt: (grouped ?? weight).get(w)!, w3: w.slice(0, 3), grams: bigrams(w) }));
  // (a query whose grouping changed no weight keeps one list: the choice reads qw as before)
  const changed = grouped !== null && qw.some((x) => x.wt !== weight.get(x.w));
  const choice = changed && SEARCH_SWITCHES.titleMappedGroup === 2 ? qw.map((x) => ({ ...x, wt: weight.get(x.w)! })) : undefined;
  const qb = new Set(words.flatMap((w) => bigrams(w)).map((g) => g.charCodeAt(0) * 65536 + g.charCodeAt(1)));
  // (the first characters of qb's bigrams as a bit set: titlePrecision asks qb only at a title's bigram that starts
  // with one, speed25)
  const qf = new Uint32Array(2048);
  for (const b of qb) { const c = Math.floor(b / 65536); qf[c >>> 5]! |= 1 << (c & 31); }
  const cues = q.cues ?? [];
  const heads = [...new Set([...words, ...(SEARCH_SWITCHES.titleCueAlone ? cues : [])].map((w) => w.slice(0, 2)))];
  return { qw, qb, qf, heads, cues, choice, scan: headScan(heads) };
}

/**
 * Apply the title evidence to the `docs` best hits of out (best by score). titlesOf answers a document's titles
 * (null: none persisted; then titleOf reads the title of each of the hit's matching articles). Answers the hits it read.
 */
export function titleEvidence<H extends TitleHit>(out: H[], q: QueryWords, docs: number,
  titlesOf: (id: string) => TitleSet | null, titleOf: (id: string, seq: number) => string): Set<H> {
  const done = new Set<H>();
  const tq = titleQuery(q);
  if (!tq) return done;
  for (const h of bestOf(out, docs)) { done.add(h); readTitles(h, tq, titlesOf, titleOf, true); }
  return done;
}

/**
 * The article shown first for the first `k` hits of the final order that the title evidence did not read (they rose
 * by the priors or the name evidence): the same choice, without a score.
 */
export function chooseArticles<H extends TitleHit>(out: H[], k: number, q: QueryWords, done: Set<H>,
  titlesOf: (id: string) => TitleSet | null, titleOf: (id: string, seq: number) => string): void {
  if (!SEARCH_SWITCHES.titleChoiceAfter) return;
  const tq = titleQuery(q);
  for (let i = 0; i < out.length && i < k; i++) if (!done.has(out[i]!)) readTitles(out[i]!, tq, titlesOf, titleOf, false);
}

/**
 * The article shown first by the first `k` hits of the final order, chosen again with the articles' text as evidence
 * too: among the best few by title, the share of the query's words (weighed as for the titles) that the article's
 * text holds adds SEARCH_SWITCHES.titleBody × that share (상속의 순위's text holds 상속인 and 직계존속; 부모의 사망과
 * 인지청구의 소 only 부모 and 사망). bodyOf answers an article's text as compared (bodyText: article-bodies.ts keeps it so).
 */
export function bodyChoice<H extends TitleHit>(out: H[], k: number, q: QueryWords, titlesOf: (id: string) => TitleSet | null,
  titleOf: (id: string, seq: number) => string, bodyOf: (id: string, seq: number) => string, cites?: Citations): void {
  if (!SEARCH_SWITCHES.titleBody) return;
  const tq = titleQuery(q);
  if (!tq) return;
  for (let i = 0; i < out.length && i < k; i++) readTitles(out[i]!, tq, titlesOf, titleOf, false, bodyOf, cites);
}

/** the citations inside a document: how many other articles of the document cite each of its articles
 * (article-bodies.ts citedBy) */
export interface Citations { citedBy(id: string): Int32Array }

/**
 * The article shown first by a hit the question names by its words (spelled-names.ts), chosen over ALL its articles
 * by the share of the question's words (its own name's words discounted, as in the title choice) that the article's
 * text and title hold: such an instrument often has no text hit (the question's words are spread over it), so the
 * titles holding a word alone would choose, and its name's words are in most of them (학교급식 대상 for a question on
 * 급식비). Reads every article of the one document (bodyOf is cached and answers the text as compared: bodyText).
 */
export function spelledChoice<H extends TitleHit>(h: H, q: QueryWords, titlesOf: (id: string) => TitleSet | null,
  bodyOf: (id: string, seq: number) => string): void {
  const tq = titleQuery(q), all = titlesOf(h.doc.id);
  if (!tq || !all) return;
  const own = h.doc.name ? nameKey(h.doc.name) : '';
  const nameW = SEARCH_SWITCHES.titleNameWeight;
  const aw = (tq.choice ?? tq.qw).map((x) => (own.includes(x.w) ? { ...x, wt: x.wt * nameW } : x));
  let pick = -1, pickV = 0;
  for (let s = 0; s < all.starts.length; s++) {
    const v = titleRecall(bodyOf(h.doc.id, s), aw) + SEARCH_SWITCHES.spelledArticle * titleRecall(titleKey(all, s), aw);
    if (v > pickV) { pickV = v; pick = s; }
  }
  if (pick >= 0) h.seqs = [pick, ...h.seqs.filter((x) => x !== pick)].slice(0, 3);
}

/** the best few title candidates (seq, value) are re-weighed by their text: the one chosen, or -1 */
function byBody(id: string, cands: Array<{ s: number; v: number }>, words: QueryWord[], bodyOf: (id: string, seq: number) => string,
  cites?: Citations, extra: number[] = []): number {
  cands.sort((a, b) => b.v - a.v);
  if (SEARCH_SWITCHES.titleCite && cites) return byCitations(id, cands, words, bodyOf, cites, extra);
  let pick = -1, pickV = -Infinity;
  for (const c of cands.slice(0, SEARCH_SWITCHES.titleBodyCandidates)) {
    // the text adds at most titleBody (its recall is at most 1): once that cannot pass the pick, neither can the rest
    // (sorted best first), and their articles are not read
    if (c.v + SEARCH_SWITCHES.titleBody <= pickV) break;
    // (a statute's text is stored in NFC: white space and punctuation out is its name key, without NFKC's cost; bodyOf
    // answers it so, once per read of the store, not once per use: speed24, 2.5 % of the search CPU was this regex)
    const v = c.v + SEARCH_SWITCHES.titleBody * titleRecall(bodyOf(id, c.s), words);
    if (v > pickV) { pickV = v; pick = c.s; }
  }
  return pick;
}

/**
 * byBody with the citations inside the instrument (switch titleCite): every candidate's text is read, its value is
 * the title value plus titleBody × its text's recall, plus titleCite × n / (n + titleCiteHalf), n the articles of the
 * instrument whose text cites it (제N조, article-citations.ts). The article that regulates a matter is cited by its
 * procedures, committees, exceptions and penalties, which hold the same words because they point at it (제56조
 * 개발행위의 허가 over 제57조 개발행위허가의 절차, 제37조 업무상의 재해의 인정 기준 over 제38조 업무상질병판정위원회).
 * article27: the text's best articles (extra) join the candidates and a BM25-like count of the words in each text adds
 * titleBm25 × its share of the best (article-bm25.ts): an article whose title holds none of the question's words but
 * whose text states the matter can be chosen, and a text using the words again and again gains over one naming them once.
 */
function byCitations(id: string, cands: Array<{ s: number; v: number }>, words: QueryWord[], bodyOf: (id: string, seq: number) => string,
  cites: Citations, extra: number[]): number {
  const deg = cites.citedBy(id), half = SEARCH_SWITCHES.titleCiteHalf;
  const top = cands.slice(0, SEARCH_SWITCHES.titleBodyCandidates);
  // the text hits that no title of the question's words put among them compete too (article27): at titleTextSeq
  for (const s of extra) if (!top.some((c) => c.s === s)) top.push({ s, v: SEARCH_SWITCHES.titleTextSeq });
  const texts = top.map((c) => bodyOf(id, c.s));
  const bm = SEARCH_SWITCHES.titleBm25 ? candidateBm25(words, texts) : null;
  let pick = -1, pickV = -Infinity;
  for (let i = 0; i < top.length; i++) {
    const c = top[i]!, n = deg[c.s] ?? 0;
    const v = c.v + SEARCH_SWITCHES.titleBody * titleRecall(texts[i]!, words) + SEARCH_SWITCHES.titleCite * n / (n + half)
      + (bm ? SEARCH_SWITCHES.titleBm25 * bm[i]! : 0);
    if (v > pickV) { pickV = v; pick = c.s; }
  }
  return pick;
}

/** what a name key leaves out of an article's text (white space, middle dots, brackets, punctuation) */
const BODY_DROP = /[\s\u00B7\u318D\u30FB「」『』()[\]<>,.:;'"‘’“”~-]/g;

/** an article's text as the article choice compares it (BODY_DROP out): what bodyChoice's and spelledChoice's bodyOf
 * answer (a text without those characters comes back unchanged, no copy) */
export const bodyText = (text: string): string => text.replace(BODY_DROP, '');

/** one hit's title evidence: its score (when scored) and the article it shows first */
function readTitles(h: TitleHit, tq: TitleQuery | null, titlesOf: (id: string) => TitleSet | null, titleOf: (id: string, seq: number) => string, scored: boolean,
  bodyOf?: (id: string, seq: number) => string, cites?: Citations): void {
  const nameW = SEARCH_SWITCHES.titleNameWeight;
  const all = titlesOf(h.doc.id);
  if (tq) {
    const { qw, qb, qf, heads, cues } = tq;
    // the words as the article choice weighs them (titleMappedGroup 2: the mapped terms' weights ungrouped)
    const base = tq.choice ?? qw;
    const cueW = SEARCH_SWITCHES.titleCue, alone = SEARCH_SWITCHES.titleCueAlone;
    // the titles that can match: those holding a word's first two characters (in order)
    const scanned = all ? scanOf(all, tq) : null;
    const seqs = scanned ? scanned.seqs : h.seqs.filter((s) => { const tk = nameKey(titleOf(h.doc.id, s)); return tk && heads.some((x) => tk.includes(x)); });
    // for the choice of the article inside this document, the words of its own name say little (every article of
    // 국민연금법 is about 국민연금: 국민연금연구원 is not the answer to a question about 국민연금)
    const own = nameW !== 1 && h.doc.name ? ownKey(h.doc) : '';
    let aw = own && base.some((x) => own.includes(x.w)) ? base.map((x) => (own.includes(x.w) ? { ...x, wt: x.wt * nameW } : x)) : tq.choice ?? null;
    // a word in many of this document's titles (퇴직금 in 근퇴법) tells its articles apart less than a rare one
    // (aw is qw's words in qw's order — the choice's list too: scanned.counts[j] is word j's)
    if (SEARCH_SWITCHES.titleDocIdf && all && seqs.length) aw = (aw ?? base).map((x, j) => ({ ...x, wt: x.wt * docIdf(all, scanned!.counts[j]!) }));
    let best = 0, bestSeq = -1, bestF = 0, pick = -1, pickV = -1;
    const cands: Array<{ s: number; v: number }> | null = bodyOf ? [] : null;
    for (const s of seqs) {
      const tk = all ? titleKey(all, s) : nameKey(titleOf(h.doc.id, s));
      // each word's credit in this title once, summed with the query's weights (f) and the document's (fa below)
      const cr = credits(tk, qw);
      const f = recallOf(cr, qw);
      // a title holding a word of the answers the question's kind asks for (기간 for 몇 년마다): the choice only
      const cue = cues.length && cues.some((c) => tk.includes(c)) ? cueW : 0;
      if (f === 0 && !(cue && alone)) continue;
      // how much of the title the query covers, and a little for an article the text also matched
      const p = 0.4 * titlePrecision(tk, qb, qf) + (h.seqs.includes(s) ? 0.02 : 0);
      const v = f + p;
      if (f > 0 && v > best) { best = v; bestSeq = s; bestF = f; }
      // the article chosen: the same evidence with the name's words discounted and each word weighed by its rarity
      const fa = aw ? recallOf(cr, aw) : f;
      const a = fa > 0 ? fa + p + cue : f === 0 ? alone * cue : 0;
      if (a > pickV) { pickV = a; pick = s; }
      if (cands && a > 0) cands.push({ s, v: a });
    }
    // (the text's best articles join the title candidates when the text weighs: titleTextSeq, byCitations)
    const extra = SEARCH_SWITCHES.titleTextSeq && cites ? h.seqs.filter((x) => !cands?.some((c) => c.s === x)) : [];
    if (cands && cands.length + extra.length > 1) pick = byBody(h.doc.id, cands, aw ?? qw, bodyOf!, cites, extra);
    // (a title holding a cue alone can be chosen where no title holds a word of the question; it scores nothing)
    if (bestSeq >= 0 || pick >= 0) {
      if (scored && bestSeq >= 0) h.score += 25 * bestF + (bestF === 1 ? 10 : 0) + 10 * (best - bestF);
      // only the name's words matched any title and they weigh nothing (titleNameWeight 0): the text's best stays first
      const first = aw && pickV <= 0 ? -1 : aw ? pick : bestSeq;
      if (first >= 0) h.seqs = [first, ...h.seqs.filter((x) => x !== first)].slice(0, 3);
    }
  }
}

/** a document's name as a name key, kept per document object (readTitles reads it for each hit up to three times a
 * query; NFKC each time, speed25) */
const ownKeys = new WeakMap<object, string>();
function ownKey(doc: { name?: string }): string {
  let k = ownKeys.get(doc);
  if (k === undefined) { k = nameKey(doc.name ?? ''); ownKeys.set(doc, k); }
  return k;
}

/** log(1 + titles / (1 + n)), n: the word's occurrences in the titles (left to right, not overlapping): the word's
 * rarity among one document's titles */
function docIdf(ts: TitleSet, n: number): number {
  return Math.log(1 + ts.starts.length / (1 + n));
}

/** the query's heads as char-code pairs, and their first and second characters */
interface HeadScan { pairs: Float64Array; firsts: Uint16Array; seconds: Uint16Array }

/** null when a head is not two characters (a one-character cue): the titles are then searched head by head */
function headScan(heads: string[]): HeadScan | null {
  if (heads.some((x) => x.length !== 2)) return null;
  return { pairs: Float64Array.from(heads, (x) => x.charCodeAt(0) * 65536 + x.charCodeAt(1)), firsts: Uint16Array.from(heads, (x) => x.charCodeAt(0)), seconds: Uint16Array.from(heads, (x) => x.charCodeAt(1)) };
}

/** 1 at the first characters of the heads being scanned for, 2 at their second characters (set and cleared by each
 * scan) */
const FIRST = new Uint8Array(65536);

/** a title set read for a query: the titles holding a head (ascending) and each query word's occurrences (qw order) */
interface TitleScan { seqs: number[]; counts: Int32Array }

function scanOf(ts: TitleSet, tq: TitleQuery): TitleScan {
  let s = last?.tq === tq ? last.scans.get(ts) : undefined;
  if (!s) {
    s = tq.scan ? scanHeads(ts, tq.qw, tq.scan) : { seqs: candidates(ts, tq.heads), counts: Int32Array.from(tq.qw, (x) => occurrences(ts.joined, x.w)) };
    if (last?.tq === tq) last.scans.set(ts, s);
  }
  return s;
}

/**
 * One pass over the joined titles (speed23; the same answers as candidates() and one indexOf loop per word, which
 * read the whole string once for each head and again for each word): at each position whose two characters are a
 * head, the title holding it is a candidate and each word starting with that head is looked for there.
 */
function scanHeads(ts: TitleSet, qw: QueryWord[], hs: HeadScan): TitleScan {
  const { joined, starts } = ts;
  const { pairs, firsts, seconds } = hs;
  for (let k = 0; k < seconds.length; k++) FIRST[seconds[k]!] = 2;
  for (let k = 0; k < firsts.length; k++) FIRST[firsts[k]!] |= 1;
  const seqs: number[] = [];
  const counts = new Int32Array(qw.length), free = new Int32Array(qw.length);
  let title = 0, next = starts.length > 1 ? starts[1]! : Infinity;
  for (let i = 0; i + 1 < joined.length; i++) {
    // (speed26: a character that is no head's first nor second character cannot be in a head: neither the pair at i
    // nor the pair at i + 1 is one, and both positions are passed; half the reads where the heads are rare)
    if (!FIRST[joined.charCodeAt(i + 1)]) { i++; continue; }
    const c = joined.charCodeAt(i);
    if (!(FIRST[c]! & 1)) continue;
    const pair = c * 65536 + joined.charCodeAt(i + 1);
    let k = 0;
    while (k < pairs.length && pairs[k] !== pair) k++;
    if (k === pairs.length) continue;
    while (i >= next) { title++; next = title + 1 < starts.length ? starts[title + 1]! : Infinity; }
    if (seqs.length === 0 || seqs[seqs.length - 1] !== title) seqs.push(title);
    for (let j = 0; j < qw.length; j++) {
      const w = qw[j]!.w;
      // (as indexOf from the end of the last occurrence counts them: not overlapping)
      if (i >= free[j]! && w.charCodeAt(0) === c && joined.startsWith(w, i)) { counts[j]!++; free[j] = i + w.length; }
    }
  }
  for (let k = 0; k < firsts.length; k++) FIRST[firsts[k]!] = 0;
  for (let k = 0; k < seconds.length; k++) FIRST[seconds[k]!] = 0;
  return { seqs, counts };
}

/** positions (ascending, once each) of the titles holding one of the heads (heads of any length) */
function candidates(ts: TitleSet, heads: string[]): number[] {
  const { joined, starts } = ts;
  const out: number[] = [];
  for (const x of heads) {
    for (let at = joined.indexOf(x); at >= 0;) {
      // the title holding position at: the last start ≤ at
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid]! <= at) lo = mid; else hi = mid - 1; }
      out.push(lo);
      // on to the next title (one position per title and head is enough)
      const next = lo + 1 < starts.length ? starts[lo + 1]! : joined.length;
      at = joined.indexOf(x, next);
    }
  }
  if (heads.length > 1) { out.sort((a, b) => a - b); let w = 0; for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[w++] = out[i]!; out.length = w; }
  return out;
}

/** occurrences of w in s, left to right, not overlapping */
function occurrences(s: string, w: string): number {
  let n = 0;
  for (let at = s.indexOf(w); at >= 0; at = s.indexOf(w, at + w.length)) n++;
  return n;
}

/**
 * The k best hits by score (the same set as taking the first k of a stable sort by score, best first: among equal
 * scores at the cut the earlier hits), in the order of out. The k-th score is found by selection (speed26: it was a
 * numeric sort of every hit's score, for the 12 of the title evidence and the 100 of the rule lift).
 */
let scoreBuf = new Float64Array(0);
export function bestOf<H extends { score: number }>(out: H[], k: number): H[] {
  if (out.length <= k) return out.slice();
  const n = out.length;
  if (scoreBuf.length < n) scoreBuf = new Float64Array(2 * n);
  const scores = scoreBuf.subarray(0, n);
  for (let i = 0; i < n; i++) scores[i] = out[i]!.score;
  // (what the ascending sort put at n - k; every score above it sorted after it)
  const kth = kthSmallest(scores, n - k);
  let above = 0;
  for (let i = 0; i < n; i++) if (scores[i]! > kth) above++;
  // every hit above the k-th score, and the first k - above of those at it
  let atKth = k - above;
  const top: H[] = [];
  for (const h of out) if (h.score > kth || (h.score === kth && atKth-- > 0)) top.push(h);
  return top;
}

interface QueryWord { w: string; wt: number; w3: string; grams: string[] }

/**
 * share of the query words found in a title (a word of four or more characters also by its first three; a short
 * title inside the word also counts: 휴게 for 휴게시간)
 */
function titleRecall(tk: string, words: QueryWord[]): number {
  return recallOf(credits(tk, words), words);
}

/** the credit of each query word in a title: 1 (the word, its first three characters, or the title a prefix of it),
 * the share of its bigrams the title holds when most are there (연차휴가 in 연차 유급휴가), or 0; in a buffer reused by
 * the next call */
let creditBuf = new Float64Array(16);
function credits(tk: string, words: QueryWord[]): Float64Array {
  if (creditBuf.length < words.length) creditBuf = new Float64Array(words.length * 2);
  const cr = creditBuf;
  for (let i = 0; i < words.length; i++) {
    const { w, w3, grams } = words[i]!;
    cr[i] = 0;
    if (tk.includes(w) || (w.length >= 4 && tk.includes(w3)) || (tk.length >= 2 && w.startsWith(tk))) { cr[i] = 1; continue; }
    if (w.length >= 3) {
      let k = 0, left = grams.length;
      for (const g of grams) {
        if (tk.includes(g)) k++;
        // (speed25: once even every bigram left could not bring the share to 0.6, the credit is 0: the rest unread)
        if ((k + --left) / (w.length - 1) < 0.6) break;
      }
      const cov = k / (w.length - 1);
      if (cov >= 0.6) cr[i] = cov;
    }
  }
  return cr;
}

/** the words' credits summed with their weights, as a share of the weights */
function recallOf(cr: Float64Array, words: Array<{ wt: number }>): number {
  let c = 0, n = 0;
  for (let i = 0; i < words.length; i++) {
    const wt = words[i]!.wt;
    n += wt;
    c += cr[i]! * wt;
  }
  return c / n;
}

/** share of a title's bigrams (each occurrence; as char-code pairs) that the query holds (qf: their first characters) */
function titlePrecision(tk: string, qb: Set<number>, qf: Uint32Array): number {
  if (tk.length < 2) return 0;
  let c = 0;
  for (let i = 0; i + 1 < tk.length; i++) {
    const a = tk.charCodeAt(i);
    if (qf[a >>> 5]! & (1 << (a & 31)) && qb.has(a * 65536 + tk.charCodeAt(i + 1))) c++;
  }
  return c / (tk.length - 1);
}
