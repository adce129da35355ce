// Every version of every statute (from a legalize-kr git history): version metadata, per-version article lists that
// reference content-addressed article texts (each distinct text stored once), and an enforcement-date index.
import { createHash } from 'node:crypto';
import type { Database } from 'lmdb';
import type { LawStore } from '../store.js';

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

/** [article no, title, sha256 of the content (base64url, 22 chars)] */
export type ArtRef = [string, string, string];

/** Key of a version: [law id, promulgation date, MST] (sorts oldest first per law). */
export type VerKey = [string, string, string];

export interface GitState { last_commit: string | null; commits: number; versions: number; repo: string | null; updated_at: string | null }

export class HistoryDb {
  readonly meta: Database<GitVersionMeta, VerKey>;
  readonly arts: Database<ArtRef[], VerKey>;
  readonly texts: Database<string, string>;
  /** [enforcement date, law id, MST] → promulgation date (upcoming-enforcement queries) */
  readonly enf: Database<string, [string, string, string]>;

  constructor(readonly law: LawStore) {
    const s = law.store;
    this.meta = s.db('law.gver');
    this.arts = s.db('law.gart', { compression: true } as object);
    this.texts = s.db('law.gtxt', { compression: true } as object); // LZ4 (lmdb-js) for values over its threshold
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

  /** The articles of a version with their texts. */
  articlesOf(v: GitVersionMeta): Array<{ no: string; title: string; content: string }> {
    const refs = this.arts.get(keyOf(v)) ?? [];
    return refs.map(([no, title, h]) => ({ no, title, content: this.texts.get(h) ?? '' }));
  }

  /** One article of a version (no text lookups for the others). */
  articleOf(v: GitVersionMeta, no: string): { no: string; title: string; content: string } | undefined {
    const r = (this.arts.get(keyOf(v)) ?? []).find((x) => x[0] === no);
    return r ? { no: r[0], title: r[1], content: this.texts.get(r[2]) ?? '' } : undefined;
  }
}

export const keyOf = (v: Pick<GitVersionMeta, 'law_id' | 'promulgation_date' | 'mst' | 'commit'>): VerKey => [v.law_id, v.promulgation_date ?? '', v.mst ?? v.commit];

export const textHash = (s: string): string => createHash('sha256').update(s).digest('base64url').slice(0, 22);

const dbs = new WeakMap<LawStore, HistoryDb>();
export function historyOf(law: LawStore): HistoryDb {
  let h = dbs.get(law);
  if (!h) { h = new HistoryDb(law); dbs.set(law, h); }
  return h;
}
