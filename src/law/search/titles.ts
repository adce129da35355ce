// Article-title evidence of law search: among the best candidates, the article whose title holds most of the query's
// words (and is most covered by them: 제54조 휴게 over 제59조 근로시간 및 휴게시간의 특례) lifts its document and becomes
// its first matching article. A document's titles are kept as one joined string of name keys, so the titles that can
// match (those holding a word's first two characters) are found by native substring search, not title by title.
import { bigrams, nameKey } from '../normalize.js';

/** The article titles of one document as name keys, joined by '\n' (a key never holds one), with each title's start. */
export interface TitleSet { keys: string[]; joined: string; starts: Int32Array }

export function titleSet(keys: string[]): TitleSet {
  const starts = new Int32Array(keys.length);
  let at = 0;
  for (let i = 0; i < keys.length; i++) { starts[i] = at; at += keys[i]!.length + 1; }
  return { keys, joined: keys.join('\n'), starts };
}

/** What titleEvidence needs of a hit (search.ts Hit). */
export interface TitleHit { doc: { id: string }; score: number; seqs: number[] }

/** statutory terms a plain question was mapped to weigh this much more than its own words (as in the text score) */
const MAPPED_WEIGHT = 2;

/**
 * Apply the title evidence to the `docs` best hits of out (best by score). titlesOf answers a document's titles
 * (null: none persisted; then titleOf reads the title of each of the hit's matching articles).
 */
export function titleEvidence<H extends TitleHit>(out: H[], q: { named: string[]; core: string; mapped: string }, docs: number,
  titlesOf: (id: string) => TitleSet | null, titleOf: (id: string, seq: number) => string): void {
  const nk = q.named.map(nameKey);
  const keys = (s: string) => s.split(/\s+/).map((w) => nameKey(w.replace(/죄$/, ''))).filter((w) => w.length >= 2 && !nk.some((n) => n.includes(w)));
  const weight = new Map<string, number>();
  for (const w of keys(q.core)) weight.set(w, 1);
  for (const w of keys(q.mapped)) weight.set(w, MAPPED_WEIGHT);
  const words = [...weight.keys()];
  if (!words.length) return;
  const wts = words.map((w) => weight.get(w)!);
  // each word with its first three characters and its bigrams (read for every candidate title)
  const qw: QueryWord[] = words.map((w, j) => ({ w, wt: wts[j]!, w3: w.slice(0, 3), grams: bigrams(w) }));
  const qb = new Set(words.flatMap((w) => bigrams(w)).map((g) => g.charCodeAt(0) * 65536 + g.charCodeAt(1)));
  const heads = [...new Set(words.map((w) => w.slice(0, 2)))];
  for (const h of bestOf(out, docs)) {
    const all = titlesOf(h.doc.id);
    // the titles that can match: those holding a word's first two characters (in order)
    const seqs = all ? candidates(all, heads) : h.seqs.filter((s) => { const tk = nameKey(titleOf(h.doc.id, s)); return tk && heads.some((x) => tk.includes(x)); });
    let best = 0, bestSeq = -1, bestF = 0;
    for (const s of seqs) {
      const tk = all ? all.keys[s]! : nameKey(titleOf(h.doc.id, s));
      const f = titleRecall(tk, qw);
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

/** positions (ascending, once each) of the titles holding one of the heads */
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

/**
 * The k best hits by score (the same set as taking the first k of a stable sort by score, best first: among equal
 * scores at the cut the earlier hits), in the order of out. One numeric sort of the scores finds the k-th score.
 */
export function bestOf<H extends { score: number }>(out: H[], k: number): H[] {
  if (out.length <= k) return out.slice();
  const scores = new Float64Array(out.length);
  for (let i = 0; i < out.length; i++) scores[i] = out[i]!.score;
  scores.sort();
  const kth = scores[out.length - k]!;
  let above = 0;
  for (let i = out.length - k + 1; i < out.length; i++) if (scores[i]! > kth) above++;
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
  let c = 0, n = 0;
  for (const { w, wt, w3, grams } of words) {
    n += wt;
    if (tk.includes(w) || (w.length >= 4 && tk.includes(w3)) || (tk.length >= 2 && w.startsWith(tk))) { c += wt; continue; }
    // most of a compound's bigrams in the title (연차휴가 in 연차 유급휴가): partial credit
    if (w.length >= 3) {
      let k = 0;
      for (const g of grams) if (tk.includes(g)) k++;
      const cov = k / (w.length - 1);
      if (cov >= 0.6) c += cov * wt;
    }
  }
  return c / n;
}

/** share of a title's bigrams (each occurrence; as char-code pairs) that the query holds */
function titlePrecision(tk: string, qb: Set<number>): number {
  if (tk.length < 2) return 0;
  let c = 0;
  for (let i = 0; i + 1 < tk.length; i++) if (qb.has(tk.charCodeAt(i) * 65536 + tk.charCodeAt(i + 1))) c++;
  return c / (tk.length - 1);
}
