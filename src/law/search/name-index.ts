// The in-memory name matcher of law search: candidates by shared (rare) name bigrams, the abbreviation's full name,
// the exact name and the ministry, each scored by nameScore (exact / abbreviation / prefix / word / bigram overlap).
import type { DocRec } from '../parse.js';
import { bigrams, nameKey, pairCode, stripJosa } from '../normalize.js';
import { nameScore } from './names.js';

export interface NameHit { doc: DocRec; score: number; match: 'name' | 'abbreviation' | 'ministry' }

interface Entry { d: DocRec; nk: string; nb: Set<string>; mk: string[] }

const add = (m: Map<string, number[]>, k: string, i: number) => { const l = m.get(k); if (l) l.push(i); else m.set(k, [i]); };

export class NameIndex {
  /** per catalogue entry: name key, its distinct bigrams, ministry keys */
  private names: Entry[] = [];
  /** name bigram → entry positions; name key → positions; ministry key → positions */
  private nameGrams = new Map<string, number[]>();
  private nameKeys = new Map<string, number[]>();
  private ministryKeys = new Map<string, number[]>();
  private counts = new Uint16Array(0);
  /** per entry: its name key's first two characters as one number (-1: shorter), for keepLikely's test without
   * reading the entry's string (the candidates of a query's rare bigrams run to thousands) */
  private head2 = new Float64Array(0);
  /** every name key joined by '\n' (a key holds none) and where each starts: the names holding one character */
  private joined = '';
  private starts = new Int32Array(0);

  constructor(catalog: DocRec[]) {
    this.names = catalog.map((d) => { const nk = nameKey(d.name); return { d, nk, nb: new Set(bigrams(nk)), mk: d.ministries.map(nameKey) }; });
    this.head2 = Float64Array.from(this.names, (e) => head2(e.nk));
    this.joined = this.names.map((e) => e.nk).join('\n');
    this.starts = new Int32Array(this.names.length);
    for (let i = 1; i < this.names.length; i++) this.starts[i] = this.starts[i - 1]! + this.names[i - 1]!.nk.length + 1;
    this.names.forEach((e, i) => {
      for (const g of e.nb) add(this.nameGrams, g, i);
      add(this.nameKeys, e.nk, i);
      for (const m of new Set(e.mk)) add(this.ministryKeys, m, i);
    });
    this.counts = new Uint16Array(this.names.length);
  }

  /**
   * Name matches of an analysed query (q = its core words, query = as typed); abbr maps name keys of abbreviations
   * to full names; named = the analysis expanded a statute's name inside the query.
   */
  match(q: string, query: string, named: boolean, abbr: Map<string, string>, allow: (d: DocRec) => boolean): NameHit[] {
    const qk = nameKey(q);
    if (!qk) return [];
    const qkj = nameKey(q.split(/\s+/).map(stripJosa).join(''));
    const full = abbr.get(qk) ?? abbr.get(qkj);
    const fullKey = full ? nameKey(full) : null;
    const qb = new Set(bigrams(qk));
    const cand = this.candidates(qk, qb, [fullKey, qkj]);
    const needCommon = Math.max(2, Math.ceil(qb.size * 0.6));
    const qk2 = qk.slice(0, 2);
    const nq = { query, qk, qkj, qb, fullKey, named };
    const out: NameHit[] = [];
    for (const ci of cand) {
      const { d, nk, nb, mk } = this.names[ci]!;
      const common = qk.length < 2 ? 0 : this.counts[ci]!;
      this.counts[ci] = 0;
      // a name sharing few of the query's bigrams can only match as an abbreviation (same first two characters)
      if (qk.length >= 2 && common < needCommon && common < qb.size && !nk.startsWith(qk2) && nk !== fullKey && nk !== qkj && !mk.includes(qk)) continue;
      if (!allow(d)) continue;
      let { s, match } = nameScore({ name: d.name, nk, nb, common }, nq);
      if (!s && mk.includes(qk)) { s = 30; match = 'ministry'; }
      if (s) out.push({ doc: d, score: d.repealed ? s * 0.5 : s, match });
    }
    return out;
  }

  /**
   * Candidate names (positions; this.counts holds each one's shared-bigram count): names sharing the query's rarer
   * bigrams, the names in keys (the abbreviation's full name, the query itself), the ministry's instruments.
   */
  private candidates(qk: string, qb: Set<string>, keys: Array<string | null>): number[] {
    const counts = this.counts;
    const cand: number[] = [];
    if (qk.length < 2 && keys.every((k) => !k || k === qk)) {
      // one character (겁, 집): only a name holding it (nameScore: the name itself, its start, inside it) or a ministry
      // named by it can score, in catalogue order as the whole list was tried (0.03 instead of 6 ms a query)
      for (const i of this.holding(qk)) cand.push(i);
    } else if (qk.length < 2) {
      for (let i = 0; i < this.names.length; i++) cand.push(i);
    } else {
      // candidate names come from the query's rarer bigrams (법률, 관한, 시행령's bigrams are in thousands of names)
      const grams = [...qb].map((g) => this.nameGrams.get(g) ?? []);
      const limit = this.names.length * 0.05;
      const rareG = grams.filter((l) => l.length <= limit);
      const useG = rareG.length >= 2 || (rareG.length === 1 && qb.size <= 3) ? rareG : grams;
      for (const l of useG) for (const i of l) if (counts[i]!++ === 0) cand.push(i);
      if (useG !== grams) this.keepLikely(cand, qk, qb, Math.ceil(useG.length * 0.6));
    }
    for (const k of keys) for (const i of (k && this.nameKeys.get(k)) || []) if (counts[i] === 0) { counts[i] = 1; cand.push(i); }
    for (const i of this.ministryKeys.get(qk) ?? []) if (counts[i] === 0) { counts[i] = 1; cand.push(i); }
    return cand;
  }

  /** positions (ascending, once each) of the names whose key holds ch and of the instruments of the ministry ch */
  private holding(ch: string): number[] {
    const { joined, starts } = this;
    const out: number[] = [];
    for (let at = joined.indexOf(ch); at >= 0;) {
      // the name holding position at: the last start ≤ at; then on to the next name
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid]! <= at) lo = mid; else hi = mid - 1; }
      out.push(lo);
      at = lo + 1 < starts.length ? joined.indexOf(ch, starts[lo + 1]!) : -1;
    }
    const ministry = this.ministryKeys.get(ch);
    if (!ministry) return out;
    return [...new Set([...out, ...ministry])].sort((a, b) => a - b);
  }

  /** exact shared-bigram counts only for names that hold most of the rare bigrams (or start like the query) */
  private keepLikely(cand: number[], qk: string, qb: Set<string>, needRare: number): void {
    const counts = this.counts, q2 = head2(qk), h2 = this.head2;
    let w = 0;
    for (const i of cand) {
      if (counts[i]! < needRare && h2[i] !== q2) { counts[i] = 0; continue; }
      const e = this.names[i]!;
      let c = 0;
      for (const g of qb) if (e.nb.has(g)) c++;
      counts[i] = c;
      cand[w++] = i;
    }
    cand.length = w;
  }
}

/** the first two characters of a key as one number (-1: a key shorter than two): equal iff the keys start alike */
const head2 = (k: string): number => (k.length < 2 ? -1 : pairCode(k));
