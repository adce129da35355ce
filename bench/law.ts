// Legal-information benchmark: full-corpus import time, store open time, search_laws latency p50/p99 over ≥500
// varied queries (names, abbreviations, fragments, article phrases, "law + 제N조", ministries) in-process and through
// MCP (SDK SSE client against a running server), get_article latency, memory.
// Usage: npm run bench -- law [--data DIR (reuse an imported store, skip the import)] [--queries 600] [--no-mcp] [--append]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { loadConfig } from '../src/config.js';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { Importer } from '../src/law/import.js';
import { ABBREVIATIONS } from '../src/law/search.js';
import { getArticle, searchLaws } from '../src/law/tools.js';
import { startServer } from '../src/server/start.js';
import { shared } from '../test/helpers/shared.js';

const FULL = [shared('law-corpus', 'full', 'statutes.tar.gz'), shared('law-corpus', 'full', 'admrul.tar.gz')];
const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const nQueries = Number(arg('--queries') ?? 600);
const withMcp = !process.argv.includes('--no-mcp');
const append = process.argv.includes('--append');
let dataDir = arg('--data');

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(x < 10 ? 2 : 1) : '-');
const mb = (x: number) => `${Math.round(x / 1048576)} MB`;
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;

const rows: Array<[string, string, string]> = [];
const load0 = os.loadavg()[0]!;

let importLine = 'reused store';
if (!dataDir) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-bench-'));
  const created = dataDir;
  process.once('exit', () => fs.rmSync(created, { recursive: true, force: true }));
  const store = new Store(dataDir);
  const law = openLaw(store);
  law.reload();
  const c0 = process.cpuUsage();
  const st = await new Importer(law, (l, d, t) => { if (process.stderr.isTTY) process.stderr.write(`\r${l} ${d}${t ? '/' + t : ''}   `); }).run(FULL);
  const cpu = process.cpuUsage(c0);
  importLine = `${(st.ms / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (index ${(st.index!.ms / 1000).toFixed(1)} s): ${st.statutes} statutes, ${st.admin_rules} rules, ${st.articles} articles, ${st.index!.terms} terms, ${st.index!.postings} postings`;
  rows.push(['full import (statutes.tar.gz + admrul.tar.gz)', `${(st.ms / 1000).toFixed(1)} s`, importLine]);
  await store.close();
}

// open (what a server start does)
const t0 = performance.now();
const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
const openMs = performance.now() - t0;
rows.push(['store open + catalogue + index open', `${openMs.toFixed(0)} ms`, `${law.catalog.length} documents, ${law.search.N} indexed articles`]);
const mem0 = process.memoryUsage();

// ---- query set ----
const laws = law.catalog.filter((d) => d.entity_type === 'law' && !d.repealed && d.article_count > 3);
const all = law.catalog;
const queries: Array<{ kind: string; q: string }> = [];
const abbrs = Object.keys(ABBREVIATIONS);
const ministries = [...new Set(all.flatMap((d) => d.ministries))];
while (queries.length < nQueries) {
  const k = queries.length % 6;
  if (k === 0) queries.push({ kind: 'name', q: pick(all).name });
  else if (k === 1) queries.push({ kind: 'abbreviation', q: pick(abbrs) });
  else if (k === 2) { const n = pick(all).name.replace(/\s+/g, ''); const a = Math.floor(rnd() * Math.max(1, n.length - 6)); queries.push({ kind: 'fragment', q: n.slice(a, a + 4 + Math.floor(rnd() * 4)) }); }
  else if (k === 3) {
    const d = pick(laws);
    const toc = law.tocOf(d.id).filter((t) => !t.deleted);
    const words = (pick(toc)?.preview ?? d.name).replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter((w) => w.length >= 2);
    const a = Math.floor(rnd() * Math.max(1, words.length - 3));
    queries.push({ kind: 'article phrase', q: words.slice(a, a + 2 + Math.floor(rnd() * 2)).join(' ') || d.name });
  } else if (k === 4) { const d = pick(laws); const toc = law.tocOf(d.id); queries.push({ kind: 'law + article', q: `${d.name} 제${pick(toc).no.replace('-', '조의').replace(/^(\d+)$/, '$1')}조`.replace('조의', '조의').replace(/조의(\d+)조$/, '조의$1') }); }
  else queries.push({ kind: 'ministry', q: pick(ministries) });
}

// ---- in-process search ----
const ctx = { law, now: Date.now() };
for (const { q } of queries.slice(0, 50)) searchLaws(ctx, { query: q }); // warm-up
const wall: number[] = [], cpu: number[] = [];
const byKind = new Map<string, number[]>();
for (const { kind, q } of queries) {
  law.version++; // no result cache
  const c = process.cpuUsage();
  const s = performance.now();
  searchLaws(ctx, { query: q });
  const ms = performance.now() - s;
  const u = process.cpuUsage(c);
  wall.push(ms);
  cpu.push((u.user + u.system) / 1000);
  const l = byKind.get(kind) ?? [];
  l.push(ms);
  byKind.set(kind, l);
}
rows.push([`search_laws in-process (${queries.length} queries, no cache) p50 / p99`, `${f1(pct(wall, 50))} / ${f1(pct(wall, 99))} ms`, `CPU time p50 / p99 ${f1(pct(cpu, 50))} / ${f1(pct(cpu, 99))} ms`]);
for (const [k, l] of byKind) rows.push([`  ${k} (${l.length}) p50 / p99`, `${f1(pct(l, 50))} / ${f1(pct(l, 99))} ms`, '']);
// second pass: postings cached in memory (a running server's steady state), result cache still off
const wall2: number[] = [], cpu2: number[] = [];
for (const { q } of queries) {
  law.version++;
  const c = process.cpuUsage();
  const s = performance.now();
  searchLaws(ctx, { query: q });
  wall2.push(performance.now() - s);
  const u = process.cpuUsage(c);
  cpu2.push((u.user + u.system) / 1000);
}
// noise-reduced: each query's minimum over 3 more runs (the machine is shared; this is the compute cost)
const mins: number[] = [];
for (const { q } of queries) {
  let m = Infinity;
  for (let r = 0; r < 3; r++) {
    law.version++;
    const s = performance.now();
    searchLaws(ctx, { query: q });
    m = Math.min(m, performance.now() - s);
  }
  mins.push(m);
}
rows.push([`search_laws in-process, per-query minimum of 3 runs p50 / p90 / p99`, `${f1(pct(mins, 50))} / ${f1(pct(mins, 90))} / ${f1(pct(mins, 99))} ms`, 'removes scheduling noise of the shared machine']);
rows.push([`search_laws in-process, second pass (postings cached) p50 / p99`, `${f1(pct(wall2, 50))} / ${f1(pct(wall2, 99))} ms`, `CPU time p50 / p99 ${f1(pct(cpu2, 50))} / ${f1(pct(cpu2, 99))} ms`]);

// ---- in-process get_article ----
const artWall: number[] = [];
for (let i = 0; i < 1000; i++) {
  const d = pick(laws);
  const toc = law.tocOf(d.id);
  const no = pick(toc).no;
  const s = performance.now();
  getArticle(ctx, { law_id: d.id, article_no: no });
  artWall.push(performance.now() - s);
}
rows.push(['get_article in-process (1000 random) p50 / p99', `${f1(pct(artWall, 50))} / ${f1(pct(artWall, 99))} ms`, '']);
const mem1 = process.memoryUsage();
rows.push(['memory after open / after queries (rss)', `${mb(mem0.rss)} / ${mb(mem1.rss)}`, `heap used ${mb(mem1.heapUsed)}; LMDB pages are memory-mapped (file ${mb(fs.statSync(path.join(dataDir, 'data.mdb')).size)})`]);
await store.close();

// ---- through MCP (SDK SSE client against a running server) ----
if (withMcp) {
  const config = loadConfig({ ...process.env, SEJONG_HOST: '127.0.0.1', SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_LOG_LEVEL: 'silent', SEJONG_WORKERS: '1', SEJONG_LAW_IMPORT: '' });
  const srv = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
  const client = new Client({ name: 'bench', version: '1' });
  const tc = performance.now();
  await client.connect(new SSEClientTransport(new URL(srv.url + '/mcp/sse')));
  rows.push(['MCP SSE connect + initialize', `${(performance.now() - tc).toFixed(1)} ms`, '']);
  const mcpWall: number[] = [];
  for (const { q } of queries.slice(0, 30)) await client.callTool({ name: 'search_laws', arguments: { query: q } });
  for (const { q } of queries) {
    const s = performance.now();
    await client.callTool({ name: 'search_laws', arguments: { query: q + ' ' } }); // trailing space: bypasses the result cache key
    mcpWall.push(performance.now() - s);
  }
  rows.push([`search_laws through MCP SSE (${queries.length}) p50 / p99`, `${f1(pct(mcpWall, 50))} / ${f1(pct(mcpWall, 99))} ms`, 'one client, sequential calls, JSON text results of 20 entries']);
  const lawIds = laws.map((d) => d.id);
  const mcpArt: number[] = [];
  for (let i = 0; i < 300; i++) {
    const s = performance.now();
    await client.callTool({ name: 'get_article', arguments: { law_id: pick(lawIds), article_no: '1' } });
    mcpArt.push(performance.now() - s);
  }
  rows.push(['get_article through MCP SSE (300) p50 / p99', `${f1(pct(mcpArt, 50))} / ${f1(pct(mcpArt, 99))} ms`, '']);
  rows.push(['server rss with the full corpus', mb(process.memoryUsage().rss), '']);
  await client.close();
  await srv.close();
}

const load1 = os.loadavg()[0]!;
const head = `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores ${os.cpus()[0]?.model.trim()}, node ${process.version}, load average ${load0.toFixed(1)} → ${load1.toFixed(1)}`;
const w0 = Math.max(...rows.map((r) => r[0].length)), w1 = Math.max(...rows.map((r) => r[1].length));
const table = [`| measure${' '.repeat(w0 - 7)} | value${' '.repeat(w1 - 5)} | note |`, `|${'-'.repeat(w0 + 2)}|${'-'.repeat(w1 + 2)}|------|`, ...rows.map((r) => `| ${r[0].padEnd(w0)} | ${r[1].padEnd(w1)} | ${r[2]} |`)].join('\n');
console.log(head);
console.log(table);
if (append) {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'RESULTS.md');
  const intro = fs.readFileSync(file, 'utf8').includes('\n## law\n') ? '' : '\n## law\n\n`npm run bench -- law [--data DIR] [--append]` (bench/law.ts): full-corpus import (both .tar.gz), store open, search_laws over varied queries (names, abbreviations, name fragments, article phrases, "law + 제N조", ministries) in-process without the result cache and through MCP (SDK SSE client, running server), get_article, memory.\n';
  fs.appendFileSync(file, `${intro}\n### law run ${head}\n\n${table}\n`);
}
