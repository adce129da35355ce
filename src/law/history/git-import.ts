// `sejong law import --git <repo>`: every version of every file under kr/ of a legalize-kr git repository.
// Each commit is one promulgated version of one instrument; versions go to law.gver/law.gart (article texts once
// per distinct text of each statute article in law.gat, see db.ts), revisions to law.hist, changelog entries to law.chg, enforcement dates to law.genf.
// Re-running reads only the commits after the last one imported. Current documents are replaced by the newest version.
import { execFileSync } from 'node:child_process';
import { parseStatuteMd, parseSubject } from '../parse.js';
import { normDate } from '../normalize.js';
import { addChanges, type Progress } from '../import.js';
import type { ChangeEntry, LawStore, Revision } from '../store.js';
import { CatFile, bodyFields, gitHead } from './git.js';
import { HISTORY_FORMAT, encodeNos, historyOf, keyOf, type GitVersionMeta } from './db.js';
import { ChainWriter } from './writer.js';
import { readInWorker } from './reader-thread.js';
import type { ReadBatch, ReadFile } from './reader.js';
import { iso } from '../../clock.js';

export interface GitImportStats {
  from: string | null;
  to: string;
  commits: number;
  versions: number;
  skipped: number;
  new_texts: number;
  new_text_bytes: number;
  docs_updated: number;
  errors: string[];
  index?: { docs: number; terms: number; postings: number; ms: number };
  ms: number;
}

const BATCH = 200;

export class GitImporter {
  private readonly h;
  private stats: GitImportStats = { from: null, to: '', commits: 0, versions: 0, skipped: 0, new_texts: 0, new_text_bytes: 0, docs_updated: 0, errors: [], ms: 0 };
  private revs = new Map<string, Revision[]>();
  private changes = new Map<string, ChangeEntry[]>();
  /** path (without kr/ and .md) → newest version seen in this run */
  private latest = new Map<string, GitVersionMeta>();
  private readonly w;

  constructor(private readonly law: LawStore, private readonly progress: Progress = () => {}, private readonly opts: { limit?: number; buildIndex?: boolean; /** only these paths (benchmarks; the last commit is then not recorded) */ paths?: string[]; /** the clock of the recorded import times (the server's injected clock) */ now?: () => number } = {}) {
    this.h = historyOf(law);
    this.w = new ChainWriter(this.h);
  }

  async run(repo: string): Promise<GitImportStats> {
    const t0 = performance.now();
    const head = gitHead(repo);
    let since = this.h.state().last_commit;
    if (since && this.h.state().format !== HISTORY_FORMAT) { await this.clearOldFormat(); since = null; }
    if (since && !hasCommit(repo, since)) { this.stats.errors.push(`last imported commit ${since} is not in ${repo}: reading the whole history again`); since = null; }
    this.stats.from = since;
    this.stats.to = head;
    if (since === head) { this.stats.ms = Math.round(performance.now() - t0); return this.stats; }
    const total = this.opts.paths ? 0 : countCommits(repo, since, head);
    let last = since;
    for await (const b of readInWorker({ repo, since, head, limit: this.opts.limit, paths: this.opts.paths, batch: BATCH })) {
      await this.batch(b);
      last = b.commits[b.commits.length - 1]?.commit ?? last;
      this.progress('commits', this.stats.commits, total);
    }
    if (!this.opts.limit) last = head;
    const cat = new CatFile(repo);
    try {
      await this.finish(cat);
    } finally {
      cat.close();
    }
    const st = this.h.state();
    this.stats.new_texts = this.w.newTexts;
    this.stats.new_text_bytes = this.w.newBytes;
    if (!this.opts.paths) this.law.sys.put('git', { last_commit: last, commits: st.commits + this.stats.commits, versions: st.versions + this.stats.versions, repo, updated_at: this.stamp(), format: HISTORY_FORMAT });
    await this.law.flushed();
    if (this.stats.docs_updated && this.opts.buildIndex !== false) {
      this.law.reload();
      this.stats.index = await this.law.rebuildIndex((d, t) => this.progress('index', d, t));
    }
    this.law.reload();
    this.stats.ms = Math.round(performance.now() - t0);
    return this.stats;
  }

  /** now as an ISO time, on the injected clock when one was given */
  private stamp(): string {
    return iso((this.opts.now ?? Date.now)())!;
  }

  private async batch(b: ReadBatch): Promise<void> {
    this.stats.commits += b.commits.length;
    this.stats.skipped += b.skipped;
    const buf = Buffer.from(b.buf.buffer, b.buf.byteOffset, b.buf.byteLength);
    await this.law.store.transaction(() => {
      for (const f of b.files) {
        const c = b.commits[f.ci]!;
        if (f.error) { this.stats.errors.push(`${c.commit.slice(0, 10)} ${f.path}: ${f.error}`); continue; }
        try { this.version(c, f, buf); } catch (e) { this.stats.errors.push(`${c.commit.slice(0, 10)} ${f.path}: ${(e as Error).message}`); }
      }
    });
  }

  /** A store written in an earlier format: emptied, and the whole history read again. */
  private async clearOldFormat(): Promise<void> {
    this.stats.errors.push(`the history store format changed (now ${HISTORY_FORMAT}): reading the whole history again`);
    const s = this.law.store;
    await s.transaction(() => {
      for (const name of ['law.gart', 'law.gtxt']) s.db(name).clearSync();
      for (const db of [this.h.meta, this.h.lists, this.h.texts, this.h.enf]) db.clearSync();
    });
  }

  private version(c: ReadBatch['commits'][number], file: ReadFile, buf: Buffer): void {
    const d = file.doc!;
    if (!/^\d+$/.test(d.id)) { this.stats.skipped++; return; }
    const f = bodyFields(c.body);
    const s = parseSubject(c.subject);
    const path = file.path.replace(/^kr\//, '').replace(/\.md$/, '');
    const nos = file.nos!, ds = file.ds!, lens = file.lens!;
    const meta: GitVersionMeta = {
      law_id: d.id, law_name: d.name, law_type: d.law_type || s.law_type, path, mst: f['법령MST'] || d.mst,
      promulgation_date: normDate(f['공포일자']) ?? d.promulgation_date, promulgation_no: f['공포번호'] || d.promulgation_no,
      enforcement_date: d.enforcement_date, revision_type: s.revision_type, ministry: f['소관부처'] || d.ministries.join(', ') || null,
      commit: c.commit, article_count: nos.length,
    };
    let off = file.off!;
    const ns = nos.map((no, i) => {
      const at = off, tl = lens[2 * i]!, len = lens[2 * i + 1]!;
      off += len;
      return this.w.ref(d.id, no, ds[i]!, () => [buf.toString('utf8', at, at + tl), buf.toString('utf8', at + tl, at + len)]);
    });
    const key = keyOf(meta);
    this.h.meta.put(key, meta);
    this.h.lists.put(key, [encodeNos(nos), ns]);
    if (meta.enforcement_date) this.h.enf.put([meta.enforcement_date, meta.law_id, key[2]], meta.promulgation_date ?? '');
    const rev: Revision = { promulgation_date: meta.promulgation_date, promulgation_no: meta.promulgation_no, enforcement_date: meta.enforcement_date, mst: meta.mst, revision_type: meta.revision_type, law_name: meta.law_name, law_type: meta.law_type, has_text: true };
    const rl = this.revs.get(d.id);
    if (rl) rl.push(rev); else this.revs.set(d.id, [rev]);
    if (meta.promulgation_date) {
      const ce: ChangeEntry = { date: meta.promulgation_date, law_id: d.id, law_name: s.name ?? d.name, law_type: meta.law_type, revision_type: meta.revision_type, ministry: meta.ministry, promulgation_no: meta.promulgation_no, mst: meta.mst, path, entity_type: 'law', source: 'git' };
      const cl = this.changes.get(meta.promulgation_date);
      if (cl) cl.push(ce); else this.changes.set(meta.promulgation_date, [ce]);
    }
    this.latest.set(path, meta);
    this.stats.versions++;
  }

  /** Revisions, changelog, and the current text of every instrument whose newest version is newer than the stored one. */
  private async finish(cat: CatFile): Promise<void> {
    const law = this.law;
    const updates: GitVersionMeta[] = [];
    for (const v of this.latest.values()) {
      const doc = law.docs.get(v.law_id);
      if (!doc || (doc.mst !== v.mst && (doc.promulgation_date ?? '') <= (v.promulgation_date ?? ''))) updates.push(v);
    }
    const texts = await Promise.all(updates.map((v) => cat.blob(`${v.commit}:kr/${v.path}.md`)));
    await law.store.transaction(() => {
      for (const [id, list] of this.revs) mergeRevisions(law, id, list);
      for (const [date, list] of this.changes) addChanges(law, date, list);
      updates.forEach((v, i) => {
        const b = texts[i];
        if (!b) return;
        const p = parseStatuteMd(b.toString('utf8'), `kr/${v.path}.md`);
        if (v.revision_type) { p.doc.revision_type = v.revision_type; p.doc.revision_inferred = false; }
        const old = law.docs.get(v.law_id);
        if (old) { p.doc.abbreviation ??= old.abbreviation; }
        law.putDoc(p.doc, p.articles, []);
        this.stats.docs_updated++;
      });
      if (updates.length) {
        const info = law.info();
        const newest = updates.map((v) => v.promulgation_date ?? '').sort().pop() ?? '';
        law.updateInfo({ imported_at: this.stamp(), corpus_date: (info.corpus_date ?? '') > newest ? info.corpus_date : newest });
      }
    });
  }
}

export function mergeRevisions(law: LawStore, id: string, revs: Revision[]): void {
  const key = (r: Revision) => r.mst ?? `${r.promulgation_date}-${r.promulgation_no}`;
  const map = new Map((law.hist.get(id) ?? []).map((r) => [key(r), r]));
  for (const r of revs) {
    const prev = map.get(key(r));
    map.set(key(r), prev ? { ...prev, ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined)), has_text: true } as Revision : r);
  }
  const list = [...map.values()].sort((a, b) => (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? '') || Number(b.mst ?? 0) - Number(a.mst ?? 0));
  law.hist.put(id, list);
}

function hasCommit(repo: string, c: string): boolean {
  try { execFileSync('git', ['-C', repo, 'cat-file', '-e', `${c}^{commit}`], { stdio: 'ignore' }); return true; } catch { return false; }
}

function countCommits(repo: string, since: string | null, head: string): number {
  // all commits, not only those touching kr/ (a path-limited count walks every tree: 18 s on the full history)
  try { return Number(execFileSync('git', ['-C', repo, 'rev-list', '--count', since ? `${since}..${head}` : head], { encoding: 'utf8' }).trim()); } catch { return 0; }
}
