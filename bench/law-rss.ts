// Memory of one law thread under many distinct searches, in-process: opens the full import as a law worker does (its
// own LMDB env, the same options as the server's Store unless told otherwise), runs search_laws through the tool
// table (runTool, as the MCP law worker does) over every law-quality question, then over as many distinct variants
// (each question with the first word of the next one appended), and prints VmRSS / RssAnon / RssFile, the V8 heap
// after a full GC, and the bytes each cache holds (found by clearing it and collecting again) at each checkpoint.
// Usage: nice -n 19 node --expose-gc --import tsx bench/law-rss.ts --data DIR [--rounds 2] [--no-remap] [--no-read-ahead]
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { open, type RootDatabase, type Database, type DatabaseOptions } from 'lmdb';
import type { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import * as tools from '../src/law/tools.js';
import { loadQuestions } from './law-quality/evaluate.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const has = (name: string) => process.argv.includes(name);
const dataDir = arg('--data');
if (!dataDir) { console.error('Usage: law-rss --data DIR [--rounds R] [--no-remap] [--no-read-ahead]'); process.exit(2); }
const rounds = Number(arg('--rounds') ?? 2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) { console.error('run with node --expose-gc'); process.exit(2); }

/** the Store surface LawStore reads through (as search-worker.ts ThreadStore), with the map options under test */
class BenchStore {
  readonly root: RootDatabase;
  private readonly dbs = new Map<string, Database<any, any>>();
  constructor(readonly path: string) {
    // noReadAhead (MDB_NORDAHEAD: madvise MADV_RANDOM over the map) is an lmdb-js option its types do not list
    this.root = open({ path, maxDbs: 64, mapSize: 2 * 1024 ** 3, noMemInit: true, remapChunks: !has('--no-remap'), noReadAhead: has('--no-read-ahead') } as Parameters<typeof open>[0] & { noReadAhead: boolean });
  }
  db(name: string, opts: Omit<DatabaseOptions, 'name'> = {}): Database<any, any> {
    let db = this.dbs.get(name);
    if (!db) { db = this.root.openDB({ name, encoding: 'msgpack', ...opts } as DatabaseOptions & { name: string }); this.dbs.set(name, db); }
    return db;
  }
}

const mb = (x: number) => Math.round(x / 1048576);
function status(): string {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024);
  return `VmRSS ${kb('VmRSS')} MB (anon ${kb('RssAnon')}, file ${kb('RssFile')})`;
}
function heap(): string {
  gc!(); gc!();
  const h = v8.getHeapStatistics(), m = process.memoryUsage();
  return `heap used ${mb(h.used_heap_size)} MB of ${mb(h.total_heap_size)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)})`;
}

const law = openLaw(new BenchStore(dataDir) as unknown as Store);
console.log(`law-rss ${dataDir} remapChunks ${!has('--no-remap')} noReadAhead ${has('--no-read-ahead')}, load ${os.loadavg()[0]!.toFixed(2)}`);
console.log(`  opened:   ${status()}; ${heap()}`);
law.reload();
void law.search.N;
console.log(`  reloaded: ${status()}; ${heap()}`);

const qs = loadQuestions();
const now = Date.UTC(2026, 5, 8);
const t0 = process.cpuUsage();
let calls = 0;
for (let r = 0; r < rounds; r++) {
  qs.forEach((q, i) => {
    // round 0: the questions; later rounds: distinct variants (another question's first word appended)
    const extra = r === 0 ? '' : ' ' + (qs[(i + r) % qs.length]!.query.split(/\s+/)[0] ?? '');
    tools.runTool('search_laws', { law, now }, { query: q.query + extra, type: q.type, ministry: q.ministry, limit: 10 });
    calls++;
  });
  const u = process.cpuUsage(t0);
  console.log(`  after ${calls} searches: ${status()}; ${heap()}; CPU ${((u.user + u.system) / 1000 / calls).toFixed(2)} ms per call`);
}

// what each cache holds: clear it, collect, and see what the heap gives back
const s = law.search as unknown as Record<string, Map<unknown, unknown> | number>;
const before = () => { gc!(); gc!(); return v8.getHeapStatistics().used_heap_size; };
const drop = (label: string, fn: () => void) => { const b = before(); fn(); const a = before(); console.log(`  ${label}: ${mb(b - a)} MB`); };
type Sized = { size: number; bytes?: number; clear(): void };
const st = law as unknown as { tocCache: Sized };
// (the caches live in search/postings.ts, title-sets.ts and article-bodies.ts since session 13; older trees: on the index)
const inner = (o: unknown, k: string): Sized => ((o as Record<string, unknown>)[k] ?? o) as Sized;
const cache = (s.postings ? inner(s.postings, 'cache') : s.cache) as unknown as Sized, titles = inner(s.titles, 'titles');
const results = (tools as { searchCacheOf?: (l: unknown) => Sized }).searchCacheOf?.(law);
const est = (c: Sized) => (c.bytes === undefined ? '' : ` (estimated ${mb(c.bytes)} MB)`);
console.log(`  caches: posting ${cache.size}${est(cache)}, titles ${titles.size}${est(titles)}, toc ${st.tocCache.size}${est(st.tocCache)}` + (results ? `, results ${results.size}${est(results)}` : ''));
if (results) drop('search_laws result cache', () => results.clear());
drop('toc cache', () => st.tocCache.clear());
drop('title cache', () => titles.clear());
// the article texts of the article choice (speed20; absent in older trees)
const bodies = s.bodies ? inner(s.bodies, 'cache') : undefined;
if (bodies) drop(`article text cache (${bodies.size} texts${est(bodies)})`, () => bodies.clear());
drop('posting cache', () => cache.clear());
console.log(`  after clearing: ${status()}; ${heap()}`);
