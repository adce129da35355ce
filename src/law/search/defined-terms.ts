// The statute's own terms a plain question's word stands for, as the corpus defines them (issue #15, expand24): a
// definition article writes 「"제2급감염병"이란 … 다음 각 목의 감염병을 말한다. 가. 결핵 나. 수두 …」 or 「"고카페인
// 함유 식품"이란 … 고카페인 함유로 표시된 식품을 말한다」, so a question about 수두 reaches the statutes' term
// 제2급감염병 (and through it 감염병), one naming 퇴직공제금 the defined 퇴직공제. Derived at every index build from
// the articles the build reads (no hand-written pairs: a word maps only to the terms whose own definitions hold it),
// stored with the generation beside the derived names (derived-names.ts), read when a thread opens the index. A word
// in the definitions of many terms (근로자, 사업주) says nothing of which one is meant: only rare words are kept.
// Hand-written rules (no library reads Korean statutory definitions).
import { tokens } from '../normalize.js';
import type { AnalysedQuery } from './query.js';

/** a definition: "term"(이)란 … (the term's own hanja in parentheses dropped: "퇴직공제(退職共濟)"이란) */
const DEF = /["“]([^"“”\n]{1,40})["”]\s*(?:이)?란\s/g;
/** the definition's body ends at the next numbered item of the article (its lettered sub-items belong to it) */
const NEXT_ITEM = /\n\s{0,3}\d+(?:의\d+)?\.\s/;
/** a word kept only while it is in the definitions of at most this many distinct terms (the query side gates lower) */
export const MAX_TERMS_STORED = 4;
const MAX_BODY = 800;
/** a "term" that only defers to another instrument (대통령령으로 정하는 기간): no statutory word of its own */
const DEFERRED = /정하는|정한|고시하는|각 호|이하/;

/** a lettered item of a definition that is a name, not a clause (가. 결핵(結核), 하. 수막구균 감염증) */
const ITEM = /^\s+[가-힣]\.\s+([^\n]{2,30})$/gm;
const ITEM_MAX = 15;

/** the stored table: the defined terms, each rare body word with the indexes of the terms it defines, and the words
 *  of the definitions' named items (the term's instances: 수두 of 제2급감염병) likewise */
export interface DefinedTable { terms: string[]; words: Array<[word: string, terms: number[]]>; items?: Array<[word: string, terms: number[]]> }

/** Collects the definitions of the articles it is shown (one index build's pass). */
export class DefinitionCollector {
  private termIndex = new Map<string, number>();
  private terms: string[] = [];
  /** body word → the terms whose definitions hold it (at most MAX_TERMS_STORED + 1: more only says "common") */
  private words = new Map<string, Set<number>>();
  private items = new Map<string, Set<number>>();

  visit(content: string): void {
    // most articles define nothing: the regex only runs where a definition's 란 is written after a quote
    if (!content.includes('란 ') || !/["“]/.test(content)) return;
    for (const m of content.matchAll(DEF)) {
      const term = m[1]!.replace(/\([^)]*\)/g, '').trim();
      if (term.length < 2 || !/[가-힣]/.test(term) || DEFERRED.test(term)) continue;
      const start = m.index! + m[0].length, rest = content.slice(start, start + MAX_BODY);
      const end = rest.search(NEXT_ITEM);
      this.add(term, end >= 0 ? rest.slice(0, end) : rest);
    }
  }

  private add(term: string, body: string): void {
    let ti = this.termIndex.get(term);
    if (ti === undefined) { ti = this.terms.length; this.terms.push(term); this.termIndex.set(term, ti); }
    const key = term.replace(/\s+/g, '');
    for (const w of new Set(tokens(body))) this.note(this.words, w, key, ti);
    for (const m of body.matchAll(ITEM)) {
      const item = m[1]!.replace(/\([^)]*\)/g, '').trim();
      if (item.length <= ITEM_MAX) for (const w of new Set(tokens(item))) this.note(this.items, w, key, ti);
    }
  }

  private note(into: Map<string, Set<number>>, w: string, key: string, ti: number): void {
    // Hangul words of two syllables or more that are not a part of the term itself (its bigrams already match)
    if (w.length < 2 || !/^[가-힣]+$/.test(w) || key.includes(w)) return;
    let s = into.get(w);
    if (!s) into.set(w, (s = new Set()));
    if (s.size <= MAX_TERMS_STORED) s.add(ti);
  }

  /** the table kept: the words in at most MAX_TERMS_STORED terms' definitions, and only the terms they name */
  table(): DefinedTable {
    const used = new Map<number, number>(), terms: string[] = [];
    const keep = (m: Map<string, Set<number>>): DefinedTable['words'] => [...m].filter(([, s]) => s.size <= MAX_TERMS_STORED)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([w, s]) => [w, [...s].map((t) => {
        let i = used.get(t);
        if (i === undefined) { i = terms.length; terms.push(this.terms[t]!); used.set(t, i); }
        return i;
      })]);
    return { terms, words: keep(this.words), items: keep(this.items) };
  }
}

/** The stored table read for the queries: a question word → the terms it is defined into. */
export class DefinedTerms {
  private readonly byWord: Map<string, number[]>;
  private readonly byItem: Map<string, number[]>;
  constructor(private readonly table: DefinedTable) {
    this.byWord = new Map(table.words);
    this.byItem = new Map(table.items ?? []);
  }

  get size(): number { return this.byWord.size; }

  /** the terms a word stands for when it is in at most maxTerms terms' definitions ([] otherwise); items: only the
   *  definitions' named items count */
  termsOf(word: string, maxTerms: number, items = false, prefix = false): string[] {
    const m = items ? this.byItem : this.byWord;
    let t = m.get(word);
    // the word as the head of a longer item (자폐 → 자폐성장애인 of 발달장애인): every such item's terms
    if (!t && prefix && word.length >= 2) {
      const all = new Set<number>();
      for (const [w, ts] of m) if (w.length > word.length && w.startsWith(word)) for (const x of ts) all.add(x);
      t = all.size ? [...all] : undefined;
    }
    return t && t.length <= maxTerms ? t.map((i) => this.table.terms[i]!) : [];
  }

  /**
   * A plain question with the defined terms of its own words added as mapped terms, grouped by the word they stand for
   * (query-terms.ts groupShares weighs a group as that one word). The question unchanged when none is found.
   */
  expand(aq: AnalysedQuery, maxTerms: number, opts: { items?: boolean; prefix?: boolean; rare?: (w: string) => boolean } = {}): AnalysedQuery {
    if (!aq.plain || !maxTerms) return aq;
    const have = new Set(aq.text.split(/\s+/));
    const groups: string[] = [], from: string[] = [];
    for (const w of new Set(aq.core.split(/\s+/))) {
      if (w.length < 2 || aq.named.includes(w) || (opts.rare && !opts.rare(w))) continue;
      for (const t of this.termsOf(w, maxTerms, opts.items, opts.prefix)) if (!have.has(t)) { have.add(t); groups.push(t); from.push(w); }
    }
    if (!groups.length) return aq;
    const mapped = [aq.mapped, ...groups].filter(Boolean).join(' ');
    return { ...aq, text: `${aq.text} ${groups.join(' ')}`, mapped, mappedGroups: [...(aq.mappedGroups ?? []), ...groups],
      mappedFrom: [...(aq.mappedFrom ?? []), ...from], words: [...new Set([...aq.words, ...groups.flatMap((g) => g.split(' '))])] };
  }
}
