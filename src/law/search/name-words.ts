// Name-word evidence for plain questions: a statute whose NAME holds the question's own words (이자 → 이자제한법,
// 폐기물 → 폐기물관리법, 개인회생 → 채무자 회생 및 파산에 관한 법률) is what a lawyer would open first. A plain question
// is never matched against names as a whole (it is far longer than any name), so without this the name says nothing.
// Built from the catalogue at open: each 법률's name split into words (particles and the 법/법률 ending stripped), a
// word weighed by its rarity among the statutes' names (주차 in a few names, 관리/지원/보호 in hundreds weigh little).
import type { DocRec } from '../parse.js';
import { nameKey, stripJosa } from '../normalize.js';

/** the generic parts of statute names: never evidence */
const GENERIC = new Set(['관한', '법률', '법', '등', '및', '특별법', '기본법', '특례법', '특별조치법', '시행령', '시행규칙', '규칙', '위한', '대한', '따른', '의', '에']);
/** the 법률 name words this rare (share of statutes' names holding the word) or rarer count */
const MAX_SHARE = 0.02;

export class NameWords {
  /** name word → the statutes whose name holds it */
  private byWord = new Map<string, DocRec[]>();
  /** per statute: its name words with their idf, flat (rss26: a [word, idf] pair per word was ≈ 6 MB of heap for the
   *  full corpus): statute → k, its words words[wordAt[k] … wordAt[k + 1]) with idf[…] */
  private wordsOf = new Map<DocRec, number>();
  private wordAt = new Int32Array(1);
  private words: string[] = [];
  private idf = new Float64Array(0);
  /** name word bigram → the name words holding it (a question word is looked up by its first bigram) */
  private byGram = new Map<string, string[]>();

  constructor(catalog: DocRec[], withRules = false) {
    const laws = catalog.filter((d) => (d.category === 'law' || (withRules && d.category === 'admrul')) && !d.repealed);
    const df = new Map<string, number>();
    const split = new Map<DocRec, string[]>();
    const canon = new Map<string, string>(); // each word's string kept once
    for (const d of laws) {
      const ws = [...new Set(nameWords(d.name))].map((w) => { const c = canon.get(w); if (c !== undefined) return c; canon.set(w, w); return w; });
      split.set(d, ws);
      for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
    }
    const n = laws.length || 1;
    const idf: number[] = [];
    this.wordAt = new Int32Array(laws.length + 1);
    laws.forEach((d, k) => {
      const ws = split.get(d)!;
      this.wordsOf.set(d, k);
      for (const w of ws) { this.words.push(w); idf.push(Math.log(n / df.get(w)!)); }
      this.wordAt[k + 1] = this.words.length;
      for (const w of ws) if (df.get(w)! <= Math.max(2, n * MAX_SHARE)) { const l = this.byWord.get(w); if (l) l.push(d); else this.byWord.set(w, [d]); }
    });
    this.idf = Float64Array.from(idf);
    for (const w of this.byWord.keys()) for (const g of new Set(bigramsOf(w))) { const l = this.byGram.get(g); if (l) l.push(w); else this.byGram.set(g, [w]); }
  }

  /**
   * Per statute, the share of its name's weight (idf) that the question's words cover: a question word is a name word,
   * begins one (이자 ~ 이자제한), lies inside one by three or more syllables (임대차 ~ 주택임대차보호) or holds one
   * (대부업체 ~ 대부업, 개인회생 ~ 회생).
   */
  cover(qwords: string[], maxHits = Infinity): Map<DocRec, number> {
    const hit = new Map<DocRec, Set<string>>();
    const keys = [...new Set(qwords.map(nameKey).filter((w) => w.length >= 2))];
    for (const w of keys) {
      // a question word in many statutes' names (자동차, 아동) says little about which one
      const docs = new Map<DocRec, string[]>();
      const take = (nw: string) => { for (const d of this.byWord.get(nw)!) { const l = docs.get(d); if (!l) docs.set(d, [nw]); else if (!l.includes(nw)) l.push(nw); } };
      // name words beginning with w or holding it (they hold its first bigram), and name words inside w
      for (const nw of this.byGram.get(w.slice(0, 2)) ?? []) if (nw.startsWith(w) || (w.length >= 3 && nw.includes(w))) take(nw);
      for (let i = 0; i < w.length - 1; i++) for (let j = i + 2; j <= w.length; j++) { const sub = w.slice(i, j); if (sub !== w && this.byWord.has(sub)) take(sub); }
      if (docs.size > maxHits) continue;
      for (const [d, nws] of docs) { const s = hit.get(d); if (s) for (const nw of nws) s.add(nw); else hit.set(d, new Set(nws)); }
    }
    const out = new Map<DocRec, number>();
    for (const [d, s] of hit) {
      const k = this.wordsOf.get(d)!;
      let c = 0, t = 0;
      for (let j = this.wordAt[k]!; j < this.wordAt[k + 1]!; j++) { const idf = this.idf[j]!; t += idf; if (s.has(this.words[j]!)) c += idf; }
      if (t > 0) out.set(d, c / t);
    }
    return out;
  }
}

const bigramsOf = (w: string) => Array.from({ length: w.length - 1 }, (_, i) => w.slice(i, i + 2));

/** the words of a statute's name (이자제한법 → 이자제한; 채무자 회생 및 파산에 관한 법률 → 채무자, 회생, 파산) */
export function nameWords(name: string): string[] {
  const out: string[] = [];
  for (const raw of name.normalize('NFKC').split(/[\s,()「」ㆍ·・]+/)) {
    let w = nameKey(raw);
    if (!w || GENERIC.has(w)) continue;
    w = stripJosa(w);
    // the statute ending (이자제한법 → 이자제한; 형법 stays: two syllables)
    if (w.length >= 3 && /(법률|법)$/.test(w)) w = w.replace(/(법률|법)$/, '');
    if (w.length >= 2 && !GENERIC.has(w)) out.push(w);
  }
  return out;
}

