// The import side of the article chains (see db.ts): the chain entry of an article text, stored when new. Each
// distinct (title, text) of a statute article is stored once; an unchanged article costs one string comparison.
// The chains of the statutes seen lately stay in memory (least recently used dropped past MAX_LAWS).
import { createHash } from 'node:crypto';
import { KEYFRAME, encodeEntry, type HistoryDb, type TextEntry } from './db.js';
import { lineDelta } from './delta.js';

interface Chain { n: number; title: string; text: string; cur: number; curTitle: string; curText: string; seen: Map<string, number> }

const MAX_LAWS = 800;
const digest = (title: string, text: string) => createHash('sha256').update(title).update('\0').update(text).digest('base64url').slice(0, 22);

export class ChainWriter {
  private laws = new Map<string, Map<string, Chain>>();
  newTexts = 0;
  newBytes = 0;

  constructor(private readonly h: HistoryDb) {}

  /** The chain entry holding this text of article `no` of law `id` (written now when the text is new). */
  ref(id: string, no: string, title: string, text: string): number {
    const chains = this.chainsOf(id);
    let c = chains.get(no);
    if (c && c.curText === text && c.curTitle === title) return c.cur;
    if (c && c.text === text && c.title === title) { c.cur = c.n - 1; c.curText = text; c.curTitle = title; return c.cur; }
    const d = digest(title, text);
    const old = c?.seen.get(d);
    if (c && old !== undefined) { c.cur = old; c.curTitle = title; c.curText = text; return old; }
    const n = c ? c.n : 0;
    const e: TextEntry = !c || n % KEYFRAME === 0 ? [title, text] : [title === c.title ? null : title, lineDelta(c.text, text)];
    this.h.texts.put([id, no, n], encodeEntry(e));
    this.newTexts++;
    this.newBytes += Buffer.byteLength(text);
    if (!c) { c = { n: 0, title, text, cur: 0, curTitle: title, curText: text, seen: new Map() }; chains.set(no, c); }
    c.n = n + 1; c.title = title; c.text = text; c.cur = n; c.curTitle = title; c.curText = text;
    c.seen.set(d, n);
    return n;
  }

  private chainsOf(id: string): Map<string, Chain> {
    let m = this.laws.get(id);
    if (m) { this.laws.delete(id); this.laws.set(id, m); return m; }
    m = new Map();
    for (const e of this.h.chains(id)) {
      const c = m.get(e.no) ?? { n: 0, title: '', text: '', cur: 0, curTitle: '', curText: '', seen: new Map() };
      c.n = e.n + 1; c.title = c.curTitle = e.title; c.text = c.curText = e.content; c.cur = e.n;
      c.seen.set(digest(e.title, e.content), e.n);
      m.set(e.no, c);
    }
    this.laws.set(id, m);
    if (this.laws.size > MAX_LAWS) this.laws.delete(this.laws.keys().next().value!);
    return m;
  }
}
