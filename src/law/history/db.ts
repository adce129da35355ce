// Every version of every statute (from a legalize-kr git history): version metadata, per-version article lists and an
// enforcement-date index. Article texts are stored per statute article as a chain (law.gat, key [law id, article no,
// n]): each distinct text of that article once, the first (and every KEYFRAME-th) in full, the others as a line delta
// against the entry before; a version's list names the entry of each of its articles (law.gvl).
import type { Database } from 'lmdb';
import type { LawStore } from '../store.js';
import { applyDelta, type DeltaOp } from './delta.js';

export interface GitVersionMeta {
  law_id: string;
  law_name: string;
  law_type: string | null;
  path: string;
  mst: string | null;
  promulgation_date: string | null;
  promulgation_no: string | null;
  enforcement_date: string | null;
  revision_type: string | null;
  ministry: string | null;
  commit: string;
  article_count: number;
}

/** Key of a version: [law id, promulgation date, MST] (sorts oldest first per law). */
export type VerKey = [string, string, string];
/** Key of an article text: [law id, article no, entry n of that article's chain] */
export type TextKey = [string, string, number];
/** [title (null: as the entry before), full text or line delta against the entry before] */
export type TextEntry = [string | null, string | DeltaOp[]];
/** A version's articles: [article numbers (runs of plain numbers written "a~b"), chain entry of each] */
export type VersionList = [string, number[]];

/** Stored format of the history dbs; a store with another (or none) is re-imported from the first commit. */
export const HISTORY_FORMAT = 2;
export const KEYFRAME = 16;

export interface GitState { last_commit: string | null; commits: number; versions: number; repo: string | null; updated_at: string | null; format?: number }

export interface Art { no: string; title: string; content: string }

export class HistoryDb {
  readonly meta: Database<GitVersionMeta, VerKey>;
  readonly lists: Database<VersionList, VerKey>;
  /** binary values (see encodeEntry): UTF-8 decoded natively, and only for the entries a read needs */
  readonly texts: Database<Buffer, TextKey>;
  /** [enforcement date, law id, MST] → promulgation date (upcoming-enforcement queries) */
  readonly enf: Database<string, [string, string, string]>;

  constructor(readonly law: LawStore) {
    const s = law.store;
    this.meta = s.db('law.gver');
    this.lists = s.db('law.gvl', { compression: true } as object);
    this.texts = s.db('law.gat', { encoding: 'binary', compression: true } as object); // LZ4 (lmdb-js) for values over its threshold
    this.enf = s.db('law.genf');
  }

  state(): GitState {
    return this.law.sys.get('git') ?? { last_commit: null, commits: 0, versions: 0, repo: null, updated_at: null };
  }

  /** Every stored version of a law, oldest promulgation first. */
  versions(id: string): GitVersionMeta[] {
    const out: GitVersionMeta[] = [];
    for (const { value } of this.meta.getRange({ start: [id, '', ''], end: [id, '\uffff', ''] })) out.push(value);
    return out;
  }

  /** [article no, chain entry] of every article of a version, in order. */
  refsOf(v: GitVersionMeta): Array<[string, number]> {
    const l = this.lists.get(keyOf(v));
    if (!l) return [];
    const nos = decodeNos(l[0]);
    return nos.map((no, i) => [no, l[1][i] ?? 0]);
  }

  /** The articles of a version with their texts (one range read over the statute's chains). */
  articlesOf(v: GitVersionMeta): Art[] {
    const refs = this.refsOf(v);
    const span = new Map<string, [number, number]>(); // article no → [first keyframe needed, last entry needed]
    for (const [no, n] of refs) {
      const lo = n - (n % KEYFRAME), s = span.get(no);
      span.set(no, s ? [Math.min(s[0], lo), Math.max(s[1], n)] : [lo, n]);
    }
    const got = new Map<string, [string, string]>();
    let title = '', text = '';
    for (const { key, value } of this.texts.getRange({ start: [v.law_id, '', 0], end: [v.law_id, '\uffff', 0] })) {
      const [, no, n] = key as TextKey;
      const s = span.get(no);
      if (!s || n < s[0] || n > s[1]) continue;
      [title, text] = decodeEntry(value, title, text);
      got.set(`${no}|${n}`, [title, text]);
    }
    return refs.map(([no, n]) => { const t = got.get(`${no}|${n}`); return { no, title: t?.[0] ?? '', content: t?.[1] ?? '' }; });
  }

  /** One article of a version (only its own chain is read). */
  articleOf(v: GitVersionMeta, no: string): Art | undefined {
    const r = this.refsOf(v).find((x) => x[0] === no);
    if (!r) return undefined;
    const t = this.text(v.law_id, no, r[1]);
    return { no, title: t.title, content: t.content };
  }

  /** Entry n of an article's chain: from the keyframe at or before n, deltas applied in order. */
  text(id: string, no: string, n: number): { title: string; content: string } {
    let title = '', text = '';
    for (const { value } of this.texts.getRange({ start: [id, no, n - (n % KEYFRAME)], end: [id, no, n + 1] })) [title, text] = decodeEntry(value, title, text);
    return { title, content: text };
  }

  /** Every entry of an article chain, decoded (the import's state of a statute it has not seen in this run). */
  *chains(id: string): Generator<{ no: string; n: number; title: string; content: string }> {
    let title = '', text = '';
    for (const { key, value } of this.texts.getRange({ start: [id, '', 0], end: [id, '\uffff', 0] })) {
      const [, no] = key as TextKey;
      [title, text] = decodeEntry(value, title, text); // every chain starts with a keyframe (full title and text)
      yield { no, n: (key as TextKey)[2], title, content: text };
    }
  }
}

/** A chain entry as stored: "K<title>\0<text>" (full), "D<title>\0<ops JSON>" or "d\0<ops JSON>" (title as before). */
export function encodeEntry(e: TextEntry): Buffer {
  if (typeof e[1] === 'string') return Buffer.from(`K${e[0] ?? ''}\0${e[1]}`);
  return Buffer.from(`${e[0] === null ? 'd' : 'D'}${e[0] ?? ''}\0${JSON.stringify(e[1])}`);
}

export function decodeEntry(b: Buffer, prevTitle: string, prevText: string): [string, string] {
  const s = b.toString('utf8');
  const i = s.indexOf('\0');
  const kind = s[0];
  const title = kind === 'd' ? prevTitle : s.slice(1, i);
  return [title, kind === 'K' ? s.slice(i + 1) : applyDelta(prevText, JSON.parse(s.slice(i + 1)) as DeltaOp[])];
}

/** Article numbers as one string; runs of consecutive plain numbers become "a~b". */
export function encodeNos(nos: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < nos.length;) {
    let j = i;
    if (/^\d+$/.test(nos[i]!)) while (j + 1 < nos.length && nos[j + 1] === String(Number(nos[j]) + 1)) j++;
    out.push(j > i + 1 ? `${nos[i]}~${nos[j]}` : nos[i]!);
    if (j === i + 1) out.push(nos[j]!);
    i = j + 1;
  }
  return out.join(',');
}

export function decodeNos(s: string): string[] {
  if (!s) return [];
  const out: string[] = [];
  for (const t of s.split(',')) {
    const m = /^(\d+)~(\d+)$/.exec(t);
    if (m) for (let k = Number(m[1]); k <= Number(m[2]); k++) out.push(String(k));
    else out.push(t);
  }
  return out;
}

export const keyOf = (v: Pick<GitVersionMeta, 'law_id' | 'promulgation_date' | 'mst' | 'commit'>): VerKey => [v.law_id, v.promulgation_date ?? '', v.mst ?? v.commit];

const dbs = new WeakMap<LawStore, HistoryDb>();
export function historyOf(law: LawStore): HistoryDb {
  let h = dbs.get(law);
  if (!h) { h = new HistoryDb(law); dbs.set(law, h); }
  return h;
}
