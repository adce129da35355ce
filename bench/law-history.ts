// `npm run bench -- law-history <legalize-kr git dir> [--limit N]`: history import (time, peak RSS; the first N
// commits when --limit is given, rate extrapolated to the whole history), store size of all versions vs the current
// text only, as-of-date get_article latency, diff of two versions of 민법 (its own full-history import).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Store } from '../src/store/env.js';
import type { LawStore } from '../src/law/store.js';
import { openLaw } from '../src/law/open.js';
import { GitImporter } from '../src/law/history/git-import.js';
import { HISTORY_FORMAT, historyOf } from '../src/law/history/db.js';
import { diffArticles, versionInForce } from '../src/law/history/versions.js';
import { getArticle } from '../src/law/tools.js';

const args = process.argv.slice(2);
const repo = args.find((a) => !a.startsWith('-'));
const li = args.indexOf('--limit');
const limit = li >= 0 ? Number(args[li + 1]) : undefined;
const fi = args.indexOf('--from');
const from = fi >= 0 ? Number(args[fi + 1]) : 0; // start after the first N commits (a later, denser stretch of the history)
if (!repo) { console.error('usage: npm run bench -- law-history <legalize-kr git dir> [--limit N] [--from N]'); process.exit(2); }

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!; };
const total = Number(execFileSync('git', ['-C', repo, 'rev-list', '--count', 'HEAD'], { encoding: 'utf8' }).trim()); // (4 of 83,883 do not touch kr/)

async function fresh(): Promise<{ dir: string; store: Store; law: LawStore }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-hist-'));
  const store = new Store(dir);
  const law = openLaw(store);
  law.reload();
  return { dir, store, law };
}

// 1. import
const a = await fresh();
if (from > 0) {
  const start = execFileSync('git', ['-C', repo, 'rev-list', '--reverse', 'HEAD'], { encoding: 'utf8', maxBuffer: 1 << 26 }).split('\n')[from - 1]!;
  a.law.sys.put('git', { last_commit: start, commits: from, versions: from, repo, updated_at: null, format: HISTORY_FORMAT });
  await a.law.flushed();
  console.log(`starting after commit ${from} (${start.slice(0, 10)})`);
}
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const st = await new GitImporter(a.law, () => {}, { limit }).run(repo);
const sec = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const rss = process.resourceUsage().maxRSS / 1024;
console.log(`import: ${st.commits} of ${total} commits, ${st.versions} versions in ${sec.toFixed(1)} s (${(st.commits / sec).toFixed(0)} commits/s; whole history ≈ ${((total / st.commits) * sec / 60).toFixed(1)} min); index ${st.index ? (st.index.ms / 1000).toFixed(1) : '-'} s; peak RSS ${rss.toFixed(0)} MB; CPU of this process ${(cpu.user / 1e6).toFixed(1)} s user + ${(cpu.system / 1e6).toFixed(1)} s sys (git processes not counted); load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);

// 2. sizes: distinct texts + version article lists + metadata vs the current (newest) version of each instrument alone
const h = historyOf(a.law);
const pages = (db: { getStats(): unknown }) => { const s = db.getStats() as { treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number; pageSize: number }; return (s.treeBranchPageCount + s.treeLeafPageCount + s.overflowPages) * s.pageSize; };
// on-disk pages of each db (no iteration)
const onDiskHist = pages(h.texts) + pages(h.lists) + pages(h.meta) + pages(h.enf);
const onDiskCur = pages(a.law.arts) + pages(a.law.toc) + pages(a.law.artno) + pages(a.law.docs);
console.log(`new article texts ${st.new_texts} (${(st.new_text_bytes / 1e6).toFixed(1)} MB raw); skipped ${st.skipped}; errors ${st.errors.length}${st.errors.length ? ` (${st.errors[0]})` : ''}`);
console.log(`on disk (LMDB pages): history dbs ${(onDiskHist / 1e6).toFixed(1)} MB (texts gat ${(pages(h.texts) / 1e6).toFixed(1)}, lists gvl ${(pages(h.lists) / 1e6).toFixed(1)}, meta gver ${(pages(h.meta) / 1e6).toFixed(1)}, genf ${(pages(h.enf) / 1e6).toFixed(1)}) vs current-text dbs (law.arts, toc, artno, docs) ${(onDiskCur / 1e6).toFixed(1)} MB = ${(onDiskHist / onDiskCur).toFixed(2)}×`);
console.log(`LMDB file ${(fs.statSync(path.join(a.dir, 'data.mdb')).size / 1e6).toFixed(0)} MB (page counts only: iterating every value in one read transaction hit MDB_TXN_FULL on the full history)`);

// 3. as-of-date get_article (a fresh read transaction: the one left from the import hit MDB_BAD_TXN on the full history)
await a.law.flushed();
(a.store.root as unknown as { resetReadTxn(): void }).resetReadTxn();
await new Promise((r) => setImmediate(r));
const counts = new Map<string, number>();
for (const k of h.meta.getKeys({})) { const id = (k as string[])[0]!; counts.set(id, (counts.get(id) ?? 0) + 1); }
const docs = a.law.catalog.filter((d) => d.entity_type === 'law' && (counts.get(d.id) ?? 0) > 1);
const lat: number[] = [];
let seed = 7;
const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
for (let i = 0; i < 2000 && docs.length; i++) {
  const d = docs[rnd(docs.length)]!;
  const vs = h.versions(d.id);
  const v = vs[rnd(vs.length)]!;
  const day = v.enforcement_date && v.enforcement_date < '99990101' ? v.enforcement_date : v.promulgation_date!;
  const toc = a.law.tocOf(d.id);
  const no = toc[rnd(Math.max(1, toc.length))]?.no ?? '1';
  const s = performance.now();
  try { getArticle({ law: a.law, now: Date.now() }, { law_id: d.id, article_no: no, date: day }); } catch { /* article absent in that version */ }
  lat.push(performance.now() - s);
  if (i % 100 === 99) await new Promise((r) => setImmediate(r));
}
if (lat.length) console.log(`as-of get_article (${lat.length} calls over ${docs.length} statutes): p50 ${pct(lat, 50).toFixed(2)} ms, p99 ${pct(lat, 99).toFixed(2)} ms`);
await a.store.close();
fs.rmSync(a.dir, { recursive: true, force: true });

// 4. 민법: every version, diff of the oldest and newest and of two consecutive versions
const b = await fresh();
const tb = performance.now();
const sb = await new GitImporter(b.law, () => {}, { paths: ['kr/민법/법률.md'], buildIndex: false }).run(repo);
const minbeop = b.law.resolveName('민법');
console.log(`민법 history import: ${sb.versions} versions in ${((performance.now() - tb) / 1000).toFixed(1)} s`);
if (minbeop) {
  const vs = versionInForce(b.law, minbeop, '99991231').versions;
  const pairs: Array<[number, number]> = [[0, vs.length - 1], [vs.length - 2, vs.length - 1]];
  for (const [i, j] of pairs) {
    const ts: number[] = [];
    let r = diffArticles([], []);
    for (let k = 0; k < 20; k++) { const s = performance.now(); r = diffArticles(vs[i]!.load(), vs[j]!.load()); ts.push(performance.now() - s); }
    console.log(`diff 민법 ${vs[i]!.promulgation_date} (${vs[i]!.mst}) → ${vs[j]!.promulgation_date} (${vs[j]!.mst}): ${JSON.stringify(r.summary)}; p50 ${pct(ts, 50).toFixed(1)} ms, max ${Math.max(...ts).toFixed(1)} ms (load both + compare)`);
  }
}
await b.store.close();
fs.rmSync(b.dir, { recursive: true, force: true });
