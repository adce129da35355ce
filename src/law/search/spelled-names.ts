// Instruments whose distinctive name a question spells in its own words, written apart: 장애 정도 심사 →
// 장애정도심사규정, 변호사 시험 → 변호사시험법, 학교 급식(비) → 학교급식법. A plain question is never matched against
// names as a whole (name-index.ts: it is far longer than any name) and name-words.ts weighs one name word at a time
// (학교, 변호사 are in many names: no evidence); here several of the question's words together must make up the
// whole name less its kind ending (법, 규정, 고시 …), in any order, joined by the name's connectives (의, 및, 에 관한),
// and the name so spelled must be in few names of the catalogue (a distinctive name, not a generic phrase).
// Hand-written: a search over the question's words for the few names starting like one of them (no library reads
// Korean statute names this way).
import type { DocRec } from '../parse.js';
import { nameKey, stripJosa } from '../normalize.js';

/** the kind ending of a name, stripped to its spelled stem (변호사시험법 → 변호사시험, 학교급식법 → 학교급식) */
const KIND_END = /(에관한|에대한|을위한|를위한)?(특별조치법|특별법|특례법|기본법|법률|법|규정|규칙|고시|기준|지침|요령|훈령|예규|세칙|령)$/;
/** connectives of a name the question need not write (관공서의 공휴일, 민원 처리에 관한), and 인 'person', left out
 * in speech (장애가 있는 … 활동지원 → 장애인활동 지원에 관한 법률) */
const LINKS = ['에관한', '에대한', '의', '및', '과', '와', '등', '인'];
/** a spelled stem held by more names than this (in the whole catalogue, any kind) is a generic phrase, no evidence */
const MAX_NAMES = 12;
/** the last word may run past the name by this many syllables (급식비 spells 급식) */
const OVERRUN = 1;

interface Stem { stem: string; docs: DocRec[] }

export interface Spelled { doc: DocRec; words: number; names: number }

/**
 * What SpelledNames holds, derived from the catalogue at the index build and stored with the generation (the side
 * file, LawStore.rebuildIndex), so that a law thread's open reads it instead of deriving it from every name again:
 * each stem with the ids of its current instruments, and every current name key joined by '\n'.
 */
export interface SpelledTable { stems: Array<[stem: string, ids: string[]]>; keys: string }

/** The stems of the catalogue's current names (a name less its kind ending) and their instruments. */
export function spelledTable(catalog: DocRec[]): SpelledTable {
  const stems = new Map<string, string[]>();
  const keys: string[] = [];
  for (const d of catalog) {
    if (d.repealed) continue;
    const nk = nameKey(d.name);
    keys.push(nk);
    // a decree or rule under a statute is named by the statute's name and 시행령 / 시행규칙: not spelled here
    if (/(시행령|시행규칙)$/.test(nk)) continue;
    const stem = nk.replace(KIND_END, '');
    if (stem.length < 3 || stem === nk) continue;
    const s = stems.get(stem);
    if (s) s.push(d.id); else stems.set(stem, [d.id]);
  }
  return { stems: [...stems], keys: keys.join('\n') };
}

export class SpelledNames {
  /** stem → its current instruments; stems by their first two characters */
  private byHead = new Map<string, Stem[]>();
  /** every current name key joined by '\n': how many names hold a stem */
  private joined = '';
  private held = new Map<string, number>();

  /** from a stored table: its ids resolved in the catalogue loaded (an id no longer there is left out) */
  constructor(table: SpelledTable, byId: Map<string, DocRec>) {
    for (const [stem, ids] of table.stems) {
      const docs = ids.map((id) => byId.get(id)).filter((d): d is DocRec => d !== undefined);
      if (!docs.length) continue;
      const h = stem.slice(0, 2);
      const l = this.byHead.get(h);
      if (l) l.push({ stem, docs }); else this.byHead.set(h, [{ stem, docs }]);
    }
    this.joined = table.keys;
  }

  /** derived from a catalogue here (tests, and a store built before the table was stored) */
  static of(catalog: DocRec[]): SpelledNames {
    return new SpelledNames(spelledTable(catalog), new Map(catalog.map((d) => [d.id, d])));
  }

  /**
   * The instruments whose stem the question's words spell with `min` or more of them (words: the question's own words
   * as typed, in order; particles are stripped here).
   */
  find(words: string[], min = 2): Spelled[] {
    const ws = [...new Set(words.map((w) => stripJosa(nameKey(w))).filter((w) => w.length >= 2))];
    const out: Spelled[] = [];
    const seen = new Set<Stem>();
    for (const w of ws) {
      for (const s of this.byHead.get(w.slice(0, 2)) ?? []) {
        if (seen.has(s) || !s.stem.startsWith(w)) continue;
        const used = spell(s.stem, w.length, ws, new Set([w]));
        if (used < min) continue;
        seen.add(s);
        const names = this.namesHolding(s.stem);
        if (names > MAX_NAMES) continue;
        for (const doc of s.docs) out.push({ doc, words: used, names });
      }
    }
    return out;
  }

  /** how many current names hold the stem (memoised; a scan of the joined keys) */
  private namesHolding(stem: string): number {
    let n = this.held.get(stem);
    if (n !== undefined) return n;
    n = 0;
    for (let at = this.joined.indexOf(stem); at >= 0; at = this.joined.indexOf(stem, at + stem.length)) n++;
    if (this.held.size > 20_000) this.held.clear();
    this.held.set(stem, n);
    return n;
  }
}

/**
 * The number of words that spell stem from position at on (each word once, connectives skipped; the last word may
 * run past the end by OVERRUN syllables), the most found; 0: not spelled.
 */
function spell(stem: string, at: number, ws: string[], used: Set<string>): number {
  if (at === stem.length) return used.size;
  const rest = stem.length - at;
  let best = 0;
  for (const w of ws) {
    if (used.has(w)) continue;
    const whole = stem.startsWith(w, at);
    const over = !whole && rest >= 2 && w.length > rest && w.length - rest <= OVERRUN && w.startsWith(stem.slice(at));
    if (!whole && !over) continue;
    used.add(w);
    best = Math.max(best, over ? used.size : spell(stem, at + w.length, ws, used));
    used.delete(w);
  }
  for (const l of LINKS) if (!best && stem.startsWith(l, at) && at + l.length < stem.length) best = spell(stem, at + l.length, ws, used);
  return best;
}
