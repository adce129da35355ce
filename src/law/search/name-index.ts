// The in-memory name matcher of law search: candidates by shared (rare) name bigrams, the abbreviation's full name,
// the exact name and the ministry, each scored by nameScore (exact / abbreviation / prefix / word / bigram overlap).
// Held compactly (rss26): a law thread built ≈ 27 MB of heap for the full corpus's 15,921 names as a Set of bigram
// strings per name and a JS array per bigram; the bigrams are now int codes in flat typed arrays (one sorted run per
// name, one run of name positions per bigram), ≈ 4 MB, with the same candidates in the same order.
import type { DocRec } from '../parse.js';
import { bigrams, nameKey, pairCode, stripJosa } from '../normalize.js';
import { nameScore } from './names.js';

export interface NameHit { doc: DocRec; score: number; match: 'name' | 'abbreviation' | 'ministry' }

const add = (m: Map<string, number[]>, k: string, i: number) => { const l = m.get(k); if (l) l.push(i); else m.set(k, [i]); };
const NONE = new Int32Array(0);

export class NameIndex {
  /** per catalogue entry: the document, its name key, its ministry keys (equal lists shared) */
  private docs: DocRec[] = [];
  private nks: string[] = [];
  private mks: string[][] = [];
  /** per entry i: its distinct bigrams' codes (gramCode), sorted, at grams[gramAt[i] … gramAt[i + 1]) */
  private gramAt = new Int32Array(1);
  private grams = new Int32Array(0);
  /** bigram code → its run of entry positions (ascending) at holders[holderAt[slot] … holderAt[slot + 1]) */
  private gramSlot = new Map<number, number>();
  private holderAt = new Int32Array(1);
  private holders = new Int32Array(0);
  /** name key → positions; ministry key → positions */
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
    const n = catalog.length;
    this.docs = catalog.slice();
    this.nks = catalog.map((d) => nameKey(d.name));
    const lists = new Map<string, string[]>(), keys = new Map<string, string>();
    const intern = (k: string) => { const o = keys.get(k); if (o !== undefined) return o; keys.set(k, k); return k; };
    this.mks = catalog.map((d) => { const mk = d.ministries.map((m) => intern(nameKey(m))); const j = mk.join('\n'); const o = lists.get(j); if (o) return o; lists.set(j, mk); return mk; });
    this.gramAt = new Int32Array(n + 1);
    const codes: number[] = [];
    const per = new Map<number, number>(); // code → holders
    for (let i = 0; i < n; i++) {
      const own = [...new Set(bigrams(this.nks[i]!).map(gramCode))].sort((a, b) => a - b);
      for (const c of own) { codes.push(c); per.set(c, (per.get(c) ?? 0) + 1); }
      this.gramAt[i + 1] = codes.length;
    }
    this.grams = Int32Array.from(codes);
    this.holderAt = new Int32Array(per.size + 1);
    let slot = 0;
    for (const [c, k] of per) { this.gramSlot.set(c, slot); this.holderAt[slot + 1] = this.holderAt[slot]! + k; slot++; }
    this.holders = new Int32Array(codes.length);
    const fill = this.holderAt.slice(0, per.size);
    for (let i = 0; i < n; i++) for (let j = this.gramAt[i]!; j < this.gramAt[i + 1]!; j++) this.holders[fill[this.gramSlot.get(this.grams[j]!)!]!++] = i;
    this.head2 = Float64Array.from(this.nks, head2);
    this.joined = this.nks.join('\n');
    this.starts = new Int32Array(n);
    for (let i = 1; i < n; i++) this.starts[i] = this.starts[i - 1]! + this.nks[i - 1]!.length + 1;
    for (let i = 0; i < n; i++) {
      add(this.nameKeys, this.nks[i]!, i);
      for (const m of new Set(this.mks[i])) add(this.ministryKeys, m, i);
    }
    this.counts = new Uint16Array(n);
  }

  /** the positions of the entries whose name holds bigram g (ascending) */
  private holdersOf(g: string): Int32Array {
    const slot = this.gramSlot.get(gramCode(g));
    return slot === undefined ? NONE : this.holders.subarray(this.holderAt[slot]!, this.holderAt[slot + 1]!);
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
      const d = this.docs[ci]!, nk = this.nks[ci]!, mk = this.mks[ci]!;
      const common = qk.length < 2 ? 0 : this.counts[ci]!;
      this.counts[ci] = 0;
      // a name sharing few of the query's bigrams can only match as an abbreviation (same first two characters)
      if (qk.length >= 2 && common < needCommon && common < qb.size && !nk.startsWith(qk2) && nk !== fullKey && nk !== qkj && !mk.includes(qk)) continue;
      if (!allow(d)) continue;
      let { s, match } = nameScore({ name: d.name, nk, nbSize: this.gramAt[ci + 1]! - this.gramAt[ci]!, common }, nq);
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
      for (let i = 0; i < this.docs.length; i++) cand.push(i);
    } else {
      // candidate names come from the query's rarer bigrams (법률, 관한, 시행령's bigrams are in thousands of names)
      const grams = [...qb].map((g) => this.holdersOf(g));
      const limit = this.docs.length * 0.05;
      const rareG = grams.filter((l) => l.length <= limit);
      const useG = rareG.length >= 2 || (rareG.length === 1 && qb.size <= 3) ? rareG : grams;
      for (const l of useG) for (let j = 0; j < l.length; j++) { const i = l[j]!; if (counts[i]!++ === 0) cand.push(i); }
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
    const counts = this.counts, q2 = head2(qk), h2 = this.head2, { gramAt, grams } = this;
    const qc = Int32Array.from(new Set([...qb].map(gramCode))).sort();
    let w = 0;
    for (const i of cand) {
      if (counts[i]! < needRare && h2[i] !== q2) { counts[i] = 0; continue; }
      // the query's bigrams the name holds: both code runs sorted, one merge
      let c = 0, a = 0, b = gramAt[i]!;
      const end = gramAt[i + 1]!;
      while (a < qc.length && b < end) { const x = qc[a]!, y = grams[b]!; if (x === y) { c++; a++; b++; } else if (x < y) a++; else b++; }
      counts[i] = c;
      cand[w++] = i;
    }
    cand.length = w;
  }
}

/** a bigram as one int (a one-character key's only "bigram" is the character: its code, below any pair's) */
const gramCode = (g: string): number => (g.length < 2 ? g.charCodeAt(0) : (g.charCodeAt(0) << 16) | g.charCodeAt(1));

/** the first two characters of a key as one number (-1: a key shorter than two): equal iff the keys start alike */
const head2 = (k: string): number => (k.length < 2 ? -1 : pairCode(k));
