// Short names of statutes (issue 15): which declared short names read as a statute's short name, and the short names
// a query word may stand for by its letters alone. Hand-written rules (no library knows Korean statute short names).
import { nameKey, stripJosa } from '../normalize.js';

/** a short name the corpus declares for a statute (declared-table.ts): the full name, how many instruments declare it */
export type Declared = [short: string, full: string, instruments: number];

/**
 * A short name declared for a statute (「…」(이하 "X법"이라 한다)) that may stand for it in any query: its syllables
 * (less the final 법) appear in the full name in order (공수처법 ⊂ 고위공직자범죄수사처 설치 및 운영에 관한 법률), and
 * it is not just the name's last word (기본법, 안전법, 촉진법, 육성법: the citing text means one statute, a query
 * would not).
 */
export function usableShortName(short: string, full: string): boolean {
  const s = short.replace(/법$/, '');
  if (s.length < 2 || !inOrder(s, full.replace(/[\sㆍ·]/g, ''), 0)) return false;
  const last = full.split(/[\sㆍ·]+/).pop()!;
  return !last.endsWith(short) && !(last.endsWith('법') && s.endsWith(last.replace(/법$/, '')) && s.length <= last.length);
}

/**
 * The abbreviation map (name key → full name) with the store's declared short names (derived at its index build,
 * declared-table.ts) added: the table's own entries win, and a declared short name whose statute is not in the
 * catalogue loaded is left out.
 */
export function withDeclared(abbr: Map<string, string>, declared: readonly Declared[], byName: Map<string, unknown[]>): Map<string, string> {
  const out = new Map(abbr);
  for (const [short, full] of declared) {
    const k = nameKey(short);
    if (!out.has(k) && byName.has(nameKey(full))) out.set(k, full);
  }
  return out;
}

/**
 * Short names written from a statute's own words (개발제한구역법 for 개발제한구역의 지정 및 관리에 관한 특별조치법):
 * a query word of four or more syllables ending in 법 that is no name or known abbreviation stands for the one
 * current 법률 whose name starts with its first two syllables, holds its syllables in order and ends in 법 or 법률.
 * Two or more such statutes (노동법, 소송법): none — the word stays a word; so do words ending in 방법, …는법, 불법.
 */
export class SpelledShortNames {
  /** current 법률 names (name keys → name) by their first two syllables */
  private byHead = new Map<string, Array<[string, string]>>();
  private memo = new Map<string, string | null>();

  constructor(laws: Iterable<{ name: string }>) {
    for (const { name } of laws) {
      const k = nameKey(name);
      if (k.length < 3 || !/법(률)?$/.test(k)) continue;
      const l = this.byHead.get(k.slice(0, 2));
      if (l) l.push([k, name]); else this.byHead.set(k.slice(0, 2), [[k, name]]);
    }
  }

  /** the full name a word spells, or null */
  resolve(word: string): string | null {
    const w = nameKey(word);
    // everyday words ending in 법 are no statute: 사용방법 (method), 신고하는법 (how to), 불법/위법/편법
    if (w.length < 4 || !w.endsWith('법') || /(방법|는법|불법|위법|편법|적법)$/.test(w)) return null;
    let r = this.memo.get(w);
    if (r !== undefined) return r;
    r = null;
    for (const [k, name] of this.byHead.get(w.slice(0, 2)) ?? []) {
      // the word is a statute's own name (형사소송법): it names that one, not another it spells
      if (k === w) { r = null; break; }
      if (!inOrder(w.slice(2, -1), k, 2)) continue;
      if (r !== null) { r = null; break; }
      r = name;
    }
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(w, r);
    return r;
  }
}

/** the characters of s appear in k in order from position from */
function inOrder(s: string, k: string, from: number): boolean {
  let j = from;
  for (const c of s) {
    j = k.indexOf(c, j);
    if (j < 0) return false;
    j++;
  }
  return true;
}

/** abbr with the short names a query spells from a statute's own words (개발제한구역법) added, for this query only */
export function withSpelled(query: string, abbr: Map<string, string>, byName: Map<string, unknown[]>, spelled: SpelledShortNames): Map<string, string> {
  if (!query.includes('법')) return abbr;
  let out = abbr;
  for (const w of query.split(/[\s,.?!「」()]+/)) {
    const k = nameKey(stripJosa(w));
    if (!k.endsWith('법') || abbr.has(k) || byName.has(k)) continue;
    const full = spelled.resolve(k);
    if (full) {
      if (out === abbr) out = new Map(abbr);
      out.set(k, full);
    }
  }
  return out;
}
