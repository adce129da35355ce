// The import side of the article chains (see db.ts): the chain entry of an article text, stored when new. Each
// distinct (title, text) of a statute article is stored once; an unchanged article costs one string comparison.
// The chains of the statutes seen lately stay in memory (least recently used dropped past MAX_LAWS).
import { KEYFRAME, encodeEntry, type HistoryDb, type TextEntry } from './db.js';
import { lineDelta } from './delta.js';
import { articleDigest as digest } from './sections.js';

/** n entries; title/text/lastD of the last entry (the base of the next delta); cur/curD the entry of the version before */
interface Chain { n: number; title: string; text: string; lastD: string; cur: number; curD: string; seen: Map<string, number> }

const MAX_LAWS = 800;

export class ChainWriter {
  private laws = new Map<string, Map<string, Chain>>();
  newTexts = 0;
  newBytes = 0;

  constructor(private readonly h: HistoryDb) {}

  /** The chain entry holding the text of article `no` of law `id` whose digest is `d` (see articleDigest); `text()` gives
   *  [title, text], asked for only when the text is new and written now. */
  ref(id: string, no: string, d: string, text: () => [string, string]): number {
    const chains = this.chainsOf(id);
    let c = chains.get(no);
    if (c && c.curD === d) return c.cur;
    if (c && c.lastD === d) { c.cur = c.n - 1; c.curD = d; return c.cur; }
    const old = c?.seen.get(d);
    if (c && old !== undefined) { c.cur = old; c.curD = d; return old; }
    const [title, body] = text();
    const n = c ? c.n : 0;
    const e: TextEntry = !c || n % KEYFRAME === 0 ? [title, body] : [title === c.title ? null : title, lineDelta(c.text, body)];
    this.h.texts.put([id, no, n], encodeEntry(e));
    this.newTexts++;
    this.newBytes += Buffer.byteLength(body);
    if (!c) { c = { n: 0, title, text: body, lastD: d, cur: 0, curD: d, seen: new Map() }; chains.set(no, c); }
    c.n = n + 1; c.title = title; c.text = body; c.lastD = d; c.cur = n; c.curD = d;
    c.seen.set(d, n);
    return n;
  }

  private chainsOf(id: string): Map<string, Chain> {
    let m = this.laws.get(id);
    if (m) { this.laws.delete(id); this.laws.set(id, m); return m; }
    m = new Map();
    for (const e of this.h.chains(id)) {
      const c = m.get(e.no) ?? { n: 0, title: '', text: '', lastD: '', cur: 0, curD: '', seen: new Map() };
      const d = digest(e.title, e.content);
      c.n = e.n + 1; c.title = e.title; c.text = e.content; c.lastD = c.curD = d; c.cur = e.n;
      c.seen.set(d, e.n);
      m.set(e.no, c);
    }
    this.laws.set(id, m);
    if (this.laws.size > MAX_LAWS) this.laws.delete(this.laws.keys().next().value!);
    return m;
  }
}
