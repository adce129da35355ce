// /health latency under an MCP tool-call flood: 2,000 search_laws calls at concurrency 50 over Streamable HTTP
// (loopback), while a prober requests GET /health every 10 ms. The server runs in a child process (so the bench's
// own client work does not share its event loop), once per configuration:
//   main-thread          : SEJONG_LAW_WORKERS=0, no MCP rate limit (everything on the event loop)
//   law-worker, protocol on main : SEJONG_LAW_WORKERS=1 SEJONG_MCP_THREAD=main (search in the law worker, the MCP SDK
//                          on the event loop: the design before mcp20)
//   law-worker, protocol in worker : SEJONG_LAW_WORKERS=1 (the default: the session's protocol and tools in its worker)
//   default              : SEJONG_LAW_WORKERS=1, default rate limit (20/s, burst 100 per address: most of the flood gets 429)
//   2 law workers        : SEJONG_LAW_WORKERS=2, protocol in worker (sessions spread over the two threads)
// `--only A|B` runs the configurations whose label contains A or B; `--only law-worker` runs the two law-worker rows back to back (the A/B of where the protocol runs).
// Usage: npm run bench -- mcp-flood [--data DIR (an imported law store; default the test sample)] [--calls 2000] [--conc 50]
//   [--only TEXT (the configurations whose label contains it)] [--cpu-prof DIR (profile the server processes)]
//   [--base TREE (another checkout, built: each configuration runs its server too, base first: an A/B in one run)]
//   [--repeat N (each configuration N times, alternating base / this tree)]
// The server runs the built dist/ when it is fresh (bench/lib/built.ts), else the sources through tsx.
// /health is probed from this process (which also drives the flood) and from a separate prober process
// (bench/lib/prober.ts, the server's answer time without the load generator's event loop); the server's own
// event-loop delay during the flood comes from bench/mcp-flood-eld.ts preloaded into it; RSS after the flood.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshot } from './lib/threads.js';
import { startProber } from './lib/prober.js';
import pino from 'pino';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };
const f2 = (x: number) => x.toFixed(2);

if (process.argv.includes('--serve')) {
  // child: one server on a copy of the data dir, prints its port
  const { serverModule } = await import('./lib/built.js');
  const { loadConfig } = await serverModule<typeof import('../src/config.js')>('config');
  const { startServer } = await serverModule<typeof import('../src/server/start.js')>('server/start');
  const config = loadConfig({ ...process.env, SEJONG_PORT: '0', SEJONG_HOST: '127.0.0.1', SEJONG_LOG_LEVEL: 'silent', SEJONG_WORKERS: '1' });
  const srv = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
  process.send!({ url: srv.url });
  process.on('message', async () => { await srv.close(); process.exit(0); });
} else {
  const calls = Number(arg('--calls') ?? 2000), conc = Number(arg('--conc') ?? 50);
  let data = arg('--data');
  if (!data) data = await (await import('../test/law/fixture.js')).sampleDataDir();
  const WORDS = ['근로', '임금', '해고', '휴가', '계약', '손해배상', '개인정보', '주택', '임대차', '소득세', '부가가치세', '건축', '도로', '음주운전', '사기', '횡령', '상속', '이혼', '법인', '회사', '환경', '폐기물', '의료', '약사', '식품', '학교', '교원', '군인', '공무원', '선거', '정보공개', '전자금융', '보험', '은행', '증권', '특허', '저작권', '상표', '관세', '국세'];
  const queries = Array.from({ length: calls }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} 제${1 + (i % 97)}조`);

  const only = arg('--only');
  const self = fileURLToPath(import.meta.url);
  const eldPreload = path.join(path.dirname(self), 'mcp-flood-eld.mjs');
  async function run(label: string, env: Record<string, string>, tree?: string) {
    if (only && !only.split('|').some((o) => label.includes(o))) return undefined;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-flood-'));
    for (const f of fs.readdirSync(data!)) if (f !== 'ready' && f !== 'lock.mdb' && !f.endsWith('.txt')) fs.cpSync(path.join(data!, f), path.join(dir, f), { recursive: true, filter: (p) => path.basename(p) !== 'lock.mdb' }); // law/: the law env
    const eldFile = path.join(dir, 'eld.jsonl');
    const script = tree ? path.join(path.resolve(tree), 'bench', 'mcp-flood.ts') : self;
    const child: ChildProcess = fork(script, ['--serve'], { cwd: tree ? path.resolve(tree) : process.cwd(), execArgv: ['--import', 'tsx', '--import', eldPreload, ...(arg('--cpu-prof') ? ['--cpu-prof', `--cpu-prof-dir=${arg('--cpu-prof')}`] : [])], env: { ...process.env, SEJONG_DATA_DIR: dir, SEJONG_MCP_SESSIONS_PER_CLIENT: '1000', SEJONG_BENCH_ELD_FILE: eldFile, ...env } });
    const url = await new Promise<string>((res) => child.once('message', (m: any) => res(m.url)));
    const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const health = async () => { const t0 = performance.now(); await (await fetch(url + '/health')).arrayBuffer(); return performance.now() - t0; };
    const quiet: number[] = [];
    for (let i = 0; i < 200; i++) quiet.push(await health());
    // one session per concurrent caller
    const sids: string[] = [];
    for (let i = 0; i < conc; i++) {
      const r = await fetch(url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'flood', version: '0' } } }) });
      sids.push(r.headers.get('mcp-session-id') ?? '');
    }
    // calibration: the main thread's CPU per plain GET /health at the flood's concurrency (uWS, the front end, the
    // kernel's loopback: the floor any request pays on this machine at this load)
    const mainCpu = () => (snapshot(child.pid!).get(child.pid!)?.cpu ?? 0) * 1000; // ms
    const h0 = mainCpu();
    let hn = 0;
    await Promise.all(Array.from({ length: conc }, async () => { while (hn < calls) { hn++; await (await fetch(url + '/health')).arrayBuffer(); } }));
    const healthCpu = (mainCpu() - h0) / calls;
    const during: number[] = [];
    const prober = await startProber(url + '/health', 20);
    // the main thread's time on a CPU, waiting for one (runnable, not running), and its slices (schedstat, ns)
    const sched = () => fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    const sc0 = sched();
    const eldMark = () => { process.kill(child.pid!, 'SIGUSR2'); };
    eldMark(); // a new histogram from here
    let flooding = true;
    const inProc = (async () => { while (flooding) { during.push(await health()); await new Promise((r) => setTimeout(r, 10)); } })();
    const statuses = new Map<number, number>();
    const callMs: number[] = [];
    let bytes = 0;
    let next = 0;
    // the server's main thread CPU (utime + stime of its task, clock ticks of 10 ms) around the flood
    const allCpu = () => [...snapshot(child.pid!).values()].reduce((a, x) => a + x.cpu, 0) * 1000; // ms, every thread
    // the main thread's user and system (kernel: socket writes, loopback delivery, wake-ups) CPU, ms
    const userSys = () => { const st = fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/stat`, 'utf8'); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); return [Number(f[11]) * 10, Number(f[12]) * 10]; };
    const us0 = userSys();
    const cpu0 = mainCpu(), all0 = allCpu();
    const t0 = performance.now();
    await Promise.all(sids.map(async (sid) => {
      while (next < calls) {
        const i = next++;
        const c0 = performance.now();
        const r = await fetch(url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify({ jsonrpc: '2.0', id: i + 2, method: 'tools/call', params: { name: 'search_laws', arguments: { query: queries[i], limit: 10 } } }) });
        bytes += (await r.arrayBuffer()).byteLength;
        callMs.push(performance.now() - c0);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }));
    const wall = performance.now() - t0;
    const cpuPerCall = (mainCpu() - cpu0) / calls;
    const allPerCall = (allCpu() - all0) / calls;
    const us1 = userSys();
    const split = `${f2((us1[0]! - us0[0]!) / calls)} / ${f2((us1[1]! - us0[1]!) / calls)}`;
    eldMark();
    const sc1 = sched();
    flooding = false;
    await inProc;
    const apart = await prober.stop();
    const lawThreads = lawPolicies(child.pid!);
    const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024; // MB
    await new Promise((r) => setTimeout(r, 200));
    const elds = fs.existsSync(eldFile) ? fs.readFileSync(eldFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { p50: number; p99: number; max: number }) : [];
    const eld = elds[1] ?? { p50: NaN, p99: NaN, max: NaN };
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dir, { recursive: true, force: true });
    return { label: (tree ? 'base: ' : '') + label + (lawThreads ? ` [law threads: ${lawThreads}]` : ''), load: os.loadavg()[0]!, quiet50: pct(quiet, 50), during50: pct(during, 50), during99: pct(during, 99), probes: during.length, apart50: pct(apart, 50), apart99: pct(apart, 99), apartMax: Math.max(...apart), eld, rss, runqMs: (sc1[1]! - sc0[1]!) / 1e6, runMs: (sc1[0]! - sc0[0]!) / 1e6, slices: sc1[2]! - sc0[2]!,
      netPerCall: cpuPerCall - ((during.length + apart.length) * healthCpu) / calls, wall, calls50: pct(callMs, 50), cpuPerCall, split, allPerCall, healthCpu, statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' '), kb: bytes / calls / 1024 };
  }

  // the law threads' niceness and CPUs as the kernel has them (stat field 19, status Cpus_allowed_list): what a row ran with
  function lawPolicies(pid: number): string {
    const out: string[] = [];
    for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        if (fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim() !== 'sejong-law') continue;
        const st = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
        const cpus = /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync(`/proc/${pid}/task/${t}/status`, 'utf8'))?.[1];
        out.push(`nice ${f[16]} cpus ${cpus}`);
      } catch { /* the thread ended */ }
    }
    return out.join(', ');
  }
  const unlimited = { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000' };
  const configs: Array<[string, Record<string, string>]> = [
    ['main-thread (SEJONG_LAW_WORKERS=0, no rate limit)', { SEJONG_LAW_WORKERS: '0', ...unlimited }],
    ['law-worker, protocol on main (SEJONG_MCP_THREAD=main, no rate limit)', { SEJONG_LAW_WORKERS: '1', SEJONG_MCP_THREAD: 'main', ...unlimited }],
    ['law-worker, protocol in worker (SEJONG_LAW_WORKERS=1, no rate limit)', { SEJONG_LAW_WORKERS: '1', SEJONG_MCP_THREAD: 'worker', ...unlimited }],
    ['law-worker at the event loop\'s priority, protocol in worker (SEJONG_LAW_WORKER_NICE=0, no rate limit)', { SEJONG_LAW_WORKERS: '1', SEJONG_MCP_THREAD: 'worker', SEJONG_LAW_WORKER_NICE: '0', ...unlimited }],
    ['2 law workers, protocol in worker (no rate limit)', { SEJONG_LAW_WORKERS: '2', SEJONG_MCP_THREAD: 'worker', ...unlimited }],
    ['default (1 law worker, 20/s burst 100 per address)', { SEJONG_LAW_WORKERS: '1' }],
    ['law-worker off the first CPU, protocol in worker (SEJONG_LAW_CPUS=spare-one, no rate limit)', { SEJONG_LAW_WORKERS: '1', SEJONG_MCP_THREAD: 'worker', SEJONG_LAW_CPUS: 'spare-one', ...unlimited }],
  ];
  const base = arg('--base');
  const rows = [];
  for (let k = 0; k < Number(arg('--repeat') ?? 1); k++) {
    for (const [label, env] of configs) {
      if (base) rows.push(await run(label, env, base));
      rows.push(await run(label, env));
    }
  }
  console.log(`\n### mcp-flood run ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}, ${calls} search_laws calls at concurrency ${conc}, data ${arg('--data') ? 'given store' : 'test sample'}; server code: ${(await import('./lib/built.js')).codeLabel()}\n`);
  console.log('| configuration | /health p50 quiet | /health p50 / p99 during flood (this process) | /health p50 / p99 / max (separate prober) | server event-loop delay p50 / p99 / max | probes | flood wall time | call p50 | server main-thread CPU per call (user / sys) | main-thread CPU per plain /health (same conc) | main-thread CPU per call net of the probes | main thread on CPU / waiting for a CPU (runqueue) during the flood, mean wait per slice | whole server CPU per call | RSS after | answers (mean KB) | load (1 min) after |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) if (r) console.log(`| ${r.label} | ${f2(r.quiet50)} ms | ${f2(r.during50)} / ${f2(r.during99)} ms | ${f2(r.apart50)} / ${f2(r.apart99)} / ${f2(r.apartMax)} ms | ${f2(r.eld.p50)} / ${f2(r.eld.p99)} / ${f2(r.eld.max)} ms | ${r.probes} | ${(r.wall / 1000).toFixed(1)} s | ${f2(r.calls50)} ms | ${f2(r.cpuPerCall)} ms (${r.split}) | ${f2(r.healthCpu)} ms | ${f2(r.netPerCall)} ms | ${r.runMs.toFixed(0)} / ${r.runqMs.toFixed(0)} ms, ${f2(r.runqMs / Math.max(1, r.slices))} ms | ${f2(r.allPerCall)} ms | ${r.rss.toFixed(0)} MB | ${r.statuses} (${r.kb.toFixed(1)} KB) | ${r.load.toFixed(1)} |`);
}
