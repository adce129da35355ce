// Server RSS with the full corpus (issue #15: < 600 MB): starts `node bin/sejong.js serve` of one or more code trees,
// each on its own copy of a law import, sends every law-quality question through MCP search_laws (one Streamable
// HTTP session, the per-address MCP limit lifted so no call is refused) for some rounds, and prints the server's
// VmRSS / RssAnon / RssFile (/proc/PID/status) at start and after each round, and the peak of each round (sampled
// every second: the law map's file-backed part rises and falls between the points, rss21), with the server's CPU per call
// (utime + stime of the whole process, /proc/PID/stat) and the load average. Trees given with several --code run
// interleaved (A, B, A, B …) so they share the same load. Each tree runs its built dist/ when fresh (bin/sejong.js
// says on stderr when it falls back to tsx: build first). The server runs with its defaults (as `npm start`, with
// MALLOC_MMAP_THRESHOLD_=131072) but for the lifted MCP limit; more server environment: --env K=V (repeatable).
// Usage: npm run bench -- law-server-rss [--code DIR [--data DIR]]… [--rounds 2] [--reps 1] [--env K=V]…
//        [--variants] (rounds after the first send distinct variants: the question + the next one's first word)
//        [--with K=V]… after a --code: environment of that tree's server only
//        [--breakdown] (at each point also: every isolate's V8 heap from a diagnostic report, and the resident memory
//        by mapping kind from /proc/PID/smaps: law / main LMDB, binaries, malloc arenas, other anonymous maps)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { loadQuestions } from './law-quality/evaluate.js';
import { listeningPort } from './lib/listening.js';
import { classify } from './lib/smaps.js';
import { isolateHeaps, reportOptions } from './lib/node-report.js';
import { snapshot } from './lib/threads.js';

const argv = process.argv.slice(2);
const arg = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const args = (name: string) => argv.flatMap((a, i) => (a === name && argv[i + 1] !== undefined ? [argv[i + 1]!] : []));
const datas = args('--data').length ? args('--data') : ['/tmp/lawfull'];
const dataOf = (i: number) => datas[i] ?? datas[0]!; // --data per --code, in order (one: for every tree)
const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const codes = args('--code').length ? args('--code').map((c) => path.resolve(c)) : [here];
const rounds = Number(arg('--rounds') ?? 2);
const reps = Number(arg('--reps') ?? 1);
const variants = argv.includes('--variants');
const breakdown = argv.includes('--breakdown');
const reportDir = `/tmp/law-server-rss-${process.pid}-reports`;
if (breakdown) fs.mkdirSync(reportDir, { recursive: true });
/** --with K=V after a --code: server environment of that tree only (A/B of a setting in one run) */
const withOf = (i: number): Record<string, string> => {
  const out: Record<string, string> = {};
  let c = -1;
  argv.forEach((a, j) => {
    if (a === '--code') c++;
    if (a === '--with' && c === i && argv[j + 1]) { const kv = argv[j + 1]!; out[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1); }
  });
  return out;
};
const extraEnv = Object.fromEntries(args('--env').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
for (const d of datas) if (!fs.existsSync(path.join(d, 'data.mdb'))) { console.error(`no LMDB store at ${d} (import the full corpus first)`); process.exit(2); }

const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const TICK = 100; // /proc/PID/stat: utime and stime in clock ticks (USER_HZ 100 on Linux)

function memory(pid: number): { rss: number; anon: number; file: number } {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (k: string) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), anon: mb('RssAnon'), file: mb('RssFile') };
}
/** CPU ms of the whole server process (every thread) */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICK; // fields 14, 15 (utime, stime) counted from after "(comm) "
}

/** the highest VmRSS seen (with its anon / file) and the highest anon and file apart, sampled every `ms` until stopped */
function peakSampler(pid: number, ms = 1000) {
  let top = memory(pid), anon = top.anon, file = top.file, samples = 1;
  const take = () => { try { const m = memory(pid); samples++; if (m.rss > top.rss) top = m; anon = Math.max(anon, m.anon); file = Math.max(file, m.file); } catch { /* exited */ } };
  const timer = setInterval(take, ms);
  return { stop: () => { clearInterval(timer); take(); return { ...top, maxAnon: anon, maxFile: file, samples }; } };
}

/** a fresh copy of the import per code tree (the server writes its keys and logs into the same store) */
function copyOf(i: number): string {
  const dir = `/tmp/law-server-rss-${process.pid}-${i}`;
  execFileSync('cp', ['-a', dataOf(i), dir]); // with <data>/law, the law environment
  return dir;
}

/** CPU seconds of the law threads (named sejong-law by src/law/search-worker.ts) */
const lawCpu = (pid: number) => [...snapshot(pid).values()].filter((t) => t.comm === 'sejong-law').reduce((a, t) => a + t.cpu, 0);

interface Server { child: ChildProcess; pid: number; url: string }

async function start(code: string, dir: string, own: Record<string, string>): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072', SEJONG_DATA_DIR: dir, SEJONG_PORT: '0', SEJONG_HOST: '127.0.0.1', SEJONG_LOG_LEVEL: 'info', SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '1000000', SEJONG_ADMIN_KEY: 'law-server-rss-admin-key-0123456789', ...extraEnv, ...own };
  if (breakdown) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${reportOptions(reportDir)}`.trim();
  const child = spawn(process.execPath, [path.join(code, 'bin/sejong.js'), 'serve'], { cwd: code, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await listeningPort(child, 300_000);
  child.stdout!.resume();
  return { child, pid: child.pid!, url: `http://127.0.0.1:${port}` };
}

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function session(url: string): Promise<string> {
  const r = await fetch(url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'law-server-rss', version: '0' } } }) });
  await r.arrayBuffer();
  const sid = r.headers.get('mcp-session-id');
  if (!sid) throw new Error(`initialize answered ${r.status} without a session`);
  await (await fetch(url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).arrayBuffer();
  return sid;
}

const qs = loadQuestions();

/** one round: every question (round > 0 with --variants: a distinct variant) through search_laws; answers the failures */
async function round(s: Server, sid: string, r: number): Promise<number> {
  let failed = 0;
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i]!;
    const extra = variants && r > 0 ? ' ' + (qs[(i + r) % qs.length]!.query.split(/\s+/)[0] ?? '') : '';
    const body = { jsonrpc: '2.0', id: r * qs.length + i + 1, method: 'tools/call', params: { name: 'search_laws', arguments: { query: q.query + extra, type: q.type, ministry: q.ministry, limit: 10 } } };
    const res = await fetch(s.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"result"') || text.includes('"isError":true')) failed++;
  }
  return failed;
}

const stop = (s: Server) => new Promise<void>((resolve) => { if (s.child.exitCode !== null) return resolve(); s.child.once('exit', () => resolve()); s.child.kill('SIGTERM'); });
const row = (label: string, m: { rss: number; anon: number; file: number }, extra = '') => `| ${label} | ${m.rss} | ${m.anon} | ${m.file} | ${extra} |`;

/** with --breakdown: each isolate's heap (MB) and the resident memory by mapping kind (MB) */
async function details(s: Server, dir: string): Promise<void> {
  if (!breakdown) return;
  const heaps = await isolateHeaps(s.pid, reportDir);
  const threads = fs.readdirSync(`/proc/${s.pid}/task`).length;
  console.log(`\n  isolates (thread 0 = main; workers by creation order), ${threads} OS threads:\n\n  | thread | V8 committed | used | young committed | external |\n  |---|---|---|---|---|`);
  for (const h of heaps) console.log(`  | ${h.threadId} | ${h.committed} | ${h.used} | ${h.young} | ${h.external} |`);
  const sum = heaps.reduce((a, h) => a + h.committed, 0);
  console.log(`  | all | ${sum.toFixed(1)} | ${heaps.reduce((a, h) => a + h.used, 0).toFixed(1)} | ${heaps.reduce((a, h) => a + h.young, 0).toFixed(1)} | ${heaps.reduce((a, h) => a + h.external, 0).toFixed(1)} |`);
  const maps = classify(s.pid, path.join(dir, 'law') + '/');
  console.log(`\n  | mapping kind | resident MB | maps | reserved MB |\n  |---|---|---|---|`);
  for (const [k, v] of Object.entries(maps).sort((a, b) => b[1].rss - a[1].rss)) console.log(`  | ${k} | ${(v.rss / 1024).toFixed(1)} | ${v.maps} | ${(v.size / 1024).toFixed(0)} |`);
  console.log('');
}

const dirs = codes.map((_, i) => copyOf(i));
console.log(`\n### law-server-rss ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, node ${process.version}, data ${datas.join(', ')} (copies), ${qs.length} questions × ${rounds} rounds${variants ? ' (variants after the first)' : ''}, env ${JSON.stringify(extraEnv)}, load ${load()}`);
try {
  for (let rep = 0; rep < reps; rep++) {
    for (let c = 0; c < codes.length; c++) {
      const code = codes[c]!;
      // (a tree unpacked by git archive has no repository: no revision to print)
      let rev = 'no git';
      try { rev = execFileSync('git', ['-C', code, 'rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim(); } catch { /* not a git checkout */ }
      const s = await start(code, dirs[c]!, withOf(c));
      try {
        await new Promise((r) => setTimeout(r, 2000)); // start-up settles (the law store opens at start)
        console.log(`\n${code} (${rev}) ${JSON.stringify(withOf(c))} on ${dataOf(c)}, rep ${rep + 1}, pid ${s.pid}, load ${load()}\n\n| point | VmRSS MB | anon | file | server CPU |\n|---|---|---|---|---|`);
        console.log(row('start', memory(s.pid)));
        await details(s, dirs[c]!);
        const sid = await session(s.url);
        for (let r = 0; r < rounds; r++) {
          const c0 = cpuMs(s.pid), t0 = lawCpu(s.pid), peak = peakSampler(s.pid);
          const failed = await round(s, sid, r);
          const ms = cpuMs(s.pid) - c0, lawMs = (lawCpu(s.pid) - t0) * 1000, p = peak.stop();
          console.log(row(`after ${(r + 1) * qs.length} calls`, memory(s.pid), `${(ms / qs.length).toFixed(2)} ms/call (law threads ${(lawMs / qs.length).toFixed(2)})${failed ? `, ${failed} failed` : ''}, load ${load()}`));
          console.log(row(`peak in round ${r + 1}`, p, `${p.samples} samples 1 s apart; highest anon ${p.maxAnon}, highest file ${p.maxFile}`));
          await details(s, dirs[c]!);
        }
      } finally {
        await stop(s);
      }
    }
  }
} finally {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  if (breakdown) fs.rmSync(reportDir, { recursive: true, force: true });
}
