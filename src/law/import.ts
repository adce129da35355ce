// `sejong law import`: detects which part of the corpus a path is (statute tree, admin-rule tree, history, changelog,
// law.go.kr API responses; directories or .tar.gz archives) and loads it into the LawStore. Re-import is idempotent.
import fs from 'node:fs';
import path from 'node:path';
import { readTar } from './tar.js';
import { parseAdmrulMd, parseAnnexMd, parseLawXml, parseStatuteMd, parseSubject, splitFrontmatter, type DocRec, type TableRec } from './parse.js';
import { normDate } from './normalize.js';
import type { ChangeEntry, LawStore, Revision, VersionRec } from './store.js';
import { iso } from '../clock.js';

export interface ImportStats {
  statutes: number;
  admin_rules: number;
  annexes: number;
  articles: number;
  versions: number;
  revisions: number;
  changelog_entries: number;
  xml_laws: number;
  skipped: number;
  errors: string[];
  index?: { docs: number; terms: number; postings: number; ms: number };
  ms: number;
}

export type Progress = (label: string, done: number, total?: number) => void;

const newStats = (): ImportStats => ({ statutes: 0, admin_rules: 0, annexes: 0, articles: 0, versions: 0, revisions: 0, changelog_entries: 0, xml_laws: 0, skipped: 0, errors: [], ms: 0 });

interface FileItem { rel: string; read: () => Buffer | Promise<Buffer> }

/** The path below a `kr/` segment ("kr/민법/법률.md"), or null. */
function krPath(p: string): string | null {
  const norm = p.split(path.sep).join('/');
  const i = norm.lastIndexOf('/kr/');
  if (norm.startsWith('kr/')) return norm;
  return i >= 0 ? norm.slice(i + 1) : null;
}

const VERSION_FILE = /^(\d{8})-[0-9a-f]{10}\.md$/;
const ANNEX_FILE = /^(별표|별지|기타)\d+(?:(?:의|-)\d+)?\.md$/;

export class Importer {
  stats = newStats();
  private annexes = new Map<string, TableRec[]>(); // rule dir (kr/…) → annex records
  private ruleDirs = new Map<string, string>(); // rule dir → admrul id
  private histPaths = new Map<string, string>();
  private rulePaths = new Map<string, string>(); // admrul id → its path, within this import // "민법/법률" → law id (from history versions)
  private pending: Array<{ kind: 'histIndex' | 'changelog' | 'lsHistory'; data: unknown; file: string }> = [];
  private xmls: Array<{ mst: string; text: string }> = [];
  /** writes queued for the next transaction (bounded, so no LMDB transaction grows too big) */
  private queue: Array<() => void> = [];
  private queuedBytes = 0;

  private enqueue(bytes: number, fn: () => void): void {
    this.queue.push(fn);
    this.queuedBytes += bytes;
  }

  private async commit(force = false): Promise<void> {
    if (!this.queue.length || (!force && this.queuedBytes < 16 * 1024 * 1024 && this.queue.length < 400)) return;
    const q = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    await this.law.store.transaction(() => { for (const f of q) f(); });
  }

  /** now: the clock of the info record's import time (the server passes its injected clock) */
  constructor(private readonly law: LawStore, private readonly progress: Progress = () => {}, private readonly now: () => number = Date.now) {}

  /** Import every path (files, directories, .tar/.tar.gz), then finalise (history, changelog, search index). */
  async run(paths: string[]): Promise<ImportStats> {
    const t0 = performance.now();
    this.law.catalogueChanging(); // documents are also put directly below (annexes, XML versions, revision types)
    for (const p of paths) {
      const st = fs.statSync(p);
      if (st.isDirectory()) await this.importDir(p);
      else if (/\.(tar|tar\.gz|tgz)$/.test(p)) await this.importTar(p);
      else await this.importFile({ rel: p, read: () => fs.readFileSync(p) });
    }
    await this.finish();
    this.stats.ms = Math.round(performance.now() - t0);
    return this.stats;
  }

  private async importDir(dir: string): Promise<void> {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (e.isFile()) files.push(f);
      }
    };
    walk(dir);
    files.sort();
    let n = 0;
    for (const f of files) {
      await this.importFile({ rel: f, read: () => fs.readFileSync(f) });
      await this.commit();
      this.progress('files', ++n, files.length); // cheap: the reporter prints only when a line is due
    }
    this.progress('files', n, files.length);
  }

  private async importTar(file: string): Promise<void> {
    let n = 0;
    const total = fs.statSync(file).size;
    for await (const e of readTar(file)) {
      await this.importFile({ rel: e.name, read: () => e.data });
      await this.commit();
      this.progress('entries', ++n, undefined);
    }
    void total;
    this.progress('entries', n, undefined);
  }

  private async importFile(f: FileItem): Promise<void> {
    const base = path.basename(f.rel);
    try {
      if (base.endsWith('.md')) {
        const kr = krPath(f.rel);
        const text = (await f.read()).toString('utf8');
        if (ANNEX_FILE.test(base)) {
          const dir = kr ? path.posix.dirname(kr) : path.dirname(f.rel);
          const t = parseAnnexMd(text, base);
          const list = this.annexes.get(dir);
          if (list) list.push(t);
          else this.annexes.set(dir, [t]);
          this.stats.annexes++;
          return;
        }
        const { fm } = splitFrontmatter(text);
        if (fm['법령ID'] !== undefined) {
          const vm = VERSION_FILE.exec(base);
          if (vm && kr) return this.importVersion(text, kr);
          return this.importStatute(text, kr);
        }
        if (fm['admRulSeq'] !== undefined || fm['행정규칙구분'] !== undefined) return this.importRule(text, kr);
        this.stats.skipped++;
        return;
      }
      if (base.endsWith('.xml')) {
        const text = (await f.read()).toString('utf8');
        if (!text.includes('<법령')) { this.stats.skipped++; return; }
        this.xmls.push({ mst: base.replace(/\.xml$/, ''), text });
        return;
      }
      if (base.endsWith('.json')) {
        const data = JSON.parse((await f.read()).toString('utf8')) as unknown;
        if (Array.isArray(data)) {
          if (data.length && typeof data[0] === 'object' && data[0] && '법령일련번호' in (data[0] as object)) this.pending.push({ kind: 'lsHistory', data, file: f.rel });
          else if (data.length === 0 || (typeof data[0] === 'object' && data[0] && 'subject' in (data[0] as object))) this.pending.push({ kind: 'changelog', data, file: f.rel });
          else this.stats.skipped++;
        } else if (data && typeof data === 'object') {
          const first = Object.values(data as object)[0];
          if (Array.isArray(first)) this.pending.push({ kind: 'histIndex', data, file: f.rel });
          else this.stats.skipped++;
        }
        return;
      }
      this.stats.skipped++;
    } catch (e) {
      this.stats.errors.push(`${f.rel}: ${(e as Error).message}`);
    }
  }

  private importStatute(text: string, kr: string | null): void {
    const p = parseStatuteMd(text, kr);
    if (!/^\d+$/.test(p.doc.id)) { this.stats.errors.push(`${kr}: no 법령ID`); return; }
    const old = this.law.docs.get(p.doc.id);
    // duplicate titles from changed ids are separate docs; same id twice: keep the latest 공포일자
    if (old && old.source === 'md' && (old.promulgation_date ?? '') > (p.doc.promulgation_date ?? '')) { this.stats.skipped++; return; }
    if (old) mergeExtras(p.doc, old);
    this.enqueue(text.length * 2, () => this.law.putDoc(p.doc, p.articles, []));
    this.stats.statutes++;
    this.stats.articles += p.articles.length;
  }

  private importRule(text: string, kr: string | null): void {
    const p = parseAdmrulMd(text, kr);
    if (!p.doc.id) { this.stats.errors.push(`${kr}: no admRulSeq`); return; }
    // regulate-kr has 41 admRulSeq values shared by two different rules: the later one (in path order) gets "-2"
    const seq0 = p.doc.id;
    for (let k = 2; ; k++) {
      const holder = this.rulePaths.get(p.doc.id) ?? this.law.docs.get(p.doc.id)?.path;
      if (!holder || holder === p.doc.path) break;
      p.doc.id = `${seq0}-${k}`;
    }
    this.rulePaths.set(p.doc.id, p.doc.path ?? '');
    const old = this.law.docs.get(p.doc.id);
    if (old) p.doc.tables = old.tables;
    this.enqueue(text.length * 2, () => this.law.putDoc(p.doc, p.articles, []));
    if (kr) this.ruleDirs.set(path.posix.dirname(kr), p.doc.id);
    this.stats.admin_rules++;
    this.stats.articles += p.articles.length;
  }

  private importVersion(text: string, kr: string): void {
    const p = parseStatuteMd(text, null);
    const statPath = path.posix.dirname(kr).replace(/^kr\//, ''); // 민법/법률
    this.histPaths.set(statPath, p.doc.id);
    const rec: VersionRec = {
      law_id: p.doc.id, law_name: p.doc.name, promulgation_date: p.doc.promulgation_date, enforcement_date: p.doc.enforcement_date,
      mst: p.doc.mst, revision_type: null, articles: p.articles.map((a) => ({ no: a.no, title: a.title, content: a.content })),
    };
    this.enqueue(text.length * 2, () => this.law.vers.put([p.doc.id, `${p.doc.promulgation_date}-${p.doc.mst}`], rec));
    this.stats.versions++;
  }

  /** After the files: XML versions, rule annexes, history and changelog files, revision types; then stamp and index. */
  private async finish(): Promise<void> {
    const law = this.law;
    await this.commit(true);
    await law.flushed();
    this.applyXmls();
    this.attachAnnexes();
    await law.flushed();
    law.reload();
    this.applyPending();
    this.currentRevisionTypes();
    await law.flushed();
    law.reload();
    await this.stampAndIndex();
  }

  /** The XML versions, oldest first, so the newest of an id ends up current. */
  private applyXmls(): void {
    const law = this.law;
    const parsed = this.xmls.map((x) => ({ mst: x.mst, p: parseLawXml(x.text) }));
    parsed.sort((a, b) => (a.p.doc.promulgation_date ?? '').localeCompare(b.p.doc.promulgation_date ?? '') || Number(a.mst) - Number(b.mst));
    for (const { mst, p } of parsed) {
      p.doc.mst = mst;
      const id = p.doc.id;
      law.vers.put([id, `${p.doc.promulgation_date}-${mst}`], {
        law_id: id, law_name: p.doc.name, promulgation_date: p.doc.promulgation_date, enforcement_date: p.doc.enforcement_date, mst,
        revision_type: p.doc.revision_type, articles: p.articles.map((a) => ({ no: a.no, title: a.title, content: a.content })),
      });
      this.addRevisions(id, [{ promulgation_date: p.doc.promulgation_date, promulgation_no: p.doc.promulgation_no, enforcement_date: p.doc.enforcement_date, mst, revision_type: p.doc.revision_type, law_name: p.doc.name, law_type: p.doc.law_type, has_text: true }]);
      const old = law.docs.get(id);
      if (old && old.mst === mst) {
        // same version as the Markdown: add annex bodies, abbreviation, revision type, per-article enforcement dates
        old.abbreviation = p.doc.abbreviation;
        if (p.doc.revision_type) { old.revision_type = p.doc.revision_type; old.revision_inferred = false; }
        old.tables = mergeTableRefs(old.tables, p.doc.tables);
        for (const t of p.tables) law.tables.put([id, `${t.kind}:${t.table_no}`], t);
        law.docs.put(id, old);
      } else if (!old || (old.promulgation_date ?? '') <= (p.doc.promulgation_date ?? '')) {
        if (old) mergeExtras(p.doc, old);
        law.putDoc(p.doc, p.articles, p.tables);
      }
      this.stats.xml_laws++;
    }
  }

  /** Annexes of admin rules onto their rule. */
  private attachAnnexes(): void {
    const law = this.law;
    for (const [dir, list] of this.annexes) {
      const id = this.ruleDirs.get(dir) ?? law.byPath.get(dir.replace(/^kr\//, '') + '/고시')?.id;
      const doc = id ? law.docs.get(id) : undefined;
      if (!doc) { this.stats.errors.push(`${dir}: annexes without a rule`); continue; }
      for (const t of list) law.tables.put([doc.id, `${t.kind}:${t.table_no}`], t);
      doc.tables = mergeTableRefs(doc.tables, list.map(({ text: _x, tables: _t, ...ref }) => ref));
      law.docs.put(doc.id, doc);
    }
  }

  /** History indexes, lsHistory lists and changelogs, read once the catalogue knows every document. */
  private applyPending(): void {
    const law = this.law;
    const pathId = (p: string): string | undefined => this.histPaths.get(p) ?? law.byPath.get(p)?.id;
    for (const item of this.pending) {
      if (item.kind === 'histIndex') this.applyHistIndex(item.data, pathId);
      else if (item.kind === 'lsHistory') this.applyLsHistory(item.data);
      else this.applyChangelog(item.data);
    }
  }

  private applyHistIndex(data: unknown, pathId: (p: string) => string | undefined): void {
    for (const [file, entries] of Object.entries(data as Record<string, Array<Record<string, string | null>>>)) {
      const id = pathId(file.replace(/^kr\//, '').replace(/\.md$/, ''));
      if (!id) { this.stats.skipped++; continue; }
      const revs: Revision[] = entries.map((e) => {
        const s = parseSubject(e.subject ?? '');
        return { promulgation_date: normDate(e['공포일자'] ?? e.date), promulgation_no: e['공포번호'] ?? null, enforcement_date: normDate(e['시행일자']), mst: e['법령MST'] ?? null, revision_type: s.revision_type, law_name: s.name, law_type: s.law_type, has_text: Boolean(e.file) };
      });
      this.addRevisions(id, revs);
    }
  }

  private applyLsHistory(data: unknown): void {
    const law = this.law;
    const list = data as Array<Record<string, string>>;
    const doc = law.resolveName(list[0]?.['법령명한글'] ?? '');
    if (!doc) { this.stats.skipped++; return; }
    this.addRevisions(doc.id, list.map((e) => ({ promulgation_date: normDate(e['공포일자']), promulgation_no: e['공포번호'] ?? null, enforcement_date: normDate(e['시행일자']), mst: e['법령일련번호'] ?? null, revision_type: e['제개정구분명'] ?? null, law_name: e['법령명한글'] ?? null, law_type: e['법령구분'] ?? null, has_text: false })));
  }

  private applyChangelog(data: unknown): void {
    const law = this.law;
    const byDate = new Map<string, ChangeEntry[]>();
    for (const e of data as Array<Record<string, unknown>>) {
      const files = (e.files as string[] | undefined) ?? [];
      const f = files.find((x) => x.startsWith('kr/'));
      const s = parseSubject(String(e.subject ?? ''));
      if (!f || !s.name) continue;
      const date = normDate(e.date);
      if (!date) continue;
      const p = f.replace(/^kr\//, '').replace(/\.md$/, '');
      const doc = law.byPath.get(p) ?? (s.name ? law.resolveName(s.name) : undefined);
      const ce: ChangeEntry = { date, law_id: doc?.id ?? null, law_name: s.name, law_type: s.law_type, revision_type: s.revision_type, ministry: (e['소관부처'] as string) ?? null, promulgation_no: (e['공포번호'] as string) ?? null, mst: (e['법령MST'] as string) ?? null, path: p, entity_type: 'law', source: 'changelog' };
      const l = byDate.get(date);
      if (l) l.push(ce);
      else byDate.set(date, [ce]);
      if (doc && ce.mst && doc.mst === ce.mst && ce.revision_type && doc.revision_type !== ce.revision_type) { doc.revision_type = ce.revision_type; doc.revision_inferred = false; law.docs.put(doc.id, doc); }
    }
    for (const [date, list] of byDate) { addChanges(law, date, list); this.stats.changelog_entries += list.length; }
  }

  /** Current versions count as revisions too; the revision type of the current doc from the history. */
  private currentRevisionTypes(): void {
    const law = this.law;
    for (const d of law.catalog) {
      if (d.entity_type !== 'law') continue;
      const revs = law.hist.get(d.id);
      if (!revs) continue;
      const cur = revs.find((r) => r.mst && r.mst === d.mst);
      if (cur?.revision_type && (d.revision_type !== cur.revision_type || d.revision_inferred)) { d.revision_type = cur.revision_type; d.revision_inferred = false; law.docs.put(d.id, d); }
    }
  }

  /** The info record's import time and corpus date, then the search index over the new catalogue. */
  private async stampAndIndex(): Promise<void> {
    const law = this.law;
    law.updateInfo({ imported_at: iso(this.now()), corpus_date: law.newestPromulgation() });
    await law.flushed();
    this.progress('index', 0, law.catalog.length);
    this.stats.index = await law.rebuildIndex((d, t) => this.progress('index', d, t));
    this.progress('index', law.catalog.length, law.catalog.length);
    law.reload();
  }

  private addRevisions(id: string, revs: Revision[]): void {
    const old = this.law.hist.get(id) ?? [];
    const key = (r: Revision) => r.mst ?? `${r.promulgation_date}-${r.promulgation_no}`;
    const map = new Map(old.map((r) => [key(r), r]));
    for (const r of revs) {
      const prev = map.get(key(r));
      map.set(key(r), prev ? { ...prev, ...Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null && v !== undefined)), has_text: prev.has_text || r.has_text } as Revision : r);
    }
    // a stored version text makes has_text true
    for (const k of this.law.vers.getKeys({ start: [id, ''], end: [id, '\uffff'] })) {
      const mst = String((k as [string, string])[1]).split('-')[1];
      const r = mst ? map.get(mst) : undefined;
      if (r) r.has_text = true;
    }
    const list = [...map.values()].sort((a, b) => (b.promulgation_date ?? '').localeCompare(a.promulgation_date ?? '') || Number(b.mst ?? 0) - Number(a.mst ?? 0));
    this.law.hist.put(id, list);
    this.stats.revisions += revs.length;
  }
}

export function addChanges(law: LawStore, date: string, list: ChangeEntry[]): void {
  const old = law.chg.get(date) ?? [];
  const key = (c: ChangeEntry) => `${c.path ?? c.law_id}|${c.mst ?? ''}|${c.revision_type ?? ''}`;
  const map = new Map(old.map((c) => [key(c), c]));
  for (const c of list) map.set(key(c), c);
  law.chg.put(date, [...map.values()]);
}

function mergeTableRefs(a: DocRec['tables'], b: DocRec['tables']): DocRec['tables'] {
  const m = new Map(a.map((t) => [`${t.kind}:${t.table_no}`, t]));
  for (const t of b) {
    const k = `${t.kind}:${t.table_no}`;
    const o = m.get(k);
    m.set(k, o ? { ...o, ...t, has_body: Boolean(o.has_body || t.has_body), title: t.title || o.title } : t);
  }
  return [...m.values()];
}

/** Keep what a previous import added (annex bodies, abbreviation, revision type) when the same version comes again. */
function mergeExtras(doc: DocRec, old: DocRec): void {
  if (old.mst === doc.mst || old.promulgation_date === doc.promulgation_date) {
    doc.abbreviation ??= old.abbreviation;
    if (old.revision_type && !old.revision_inferred && (doc.revision_inferred || !doc.revision_type)) { doc.revision_type = old.revision_type; doc.revision_inferred = false; }
    doc.tables = mergeTableRefs(doc.tables, old.tables.filter((t) => t.has_body));
  }
}
