// The law server's start with the full corpus: `node bin/sejong.js serve` of one or more code trees (interleaved A, B,
// A, B … so they share the load), each on its own data dir; per start the wall time to the listening line, the
// process's CPU then (utime + stime, /proc/PID/stat), and the law threads' CPU (threads named sejong-law) to the
// answer of the first search_laws call through MCP — the law thread loads the catalogue and opens the index for it.
// Prints the load average with every row. Each tree runs its dist/ when fresh (build first).
// Usage: npm run bench -- law-start --code DIR --data DIR [--code DIR --data DIR]… [--reps 3]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listeningPort } from './lib/listening.js';
import { snapshot } from './lib/threads.js';

const argv = process.argv.slice(2);
const args = (name: string) => argv.flatMap((a, i) => (a === name && argv[i + 1] !== undefined ? [argv[i + 1]!] : []));
const codes = args('--code').map((c) => path.resolve(c)), datas = args('--data');
const reps = Number(args('--reps')[0] ?? 3);
if (!codes.length || datas.length !== codes.length) { console.error('Usage: law-start --code DIR --data DIR [--code DIR --data DIR]… [--reps 3]'); process.exit(2); }
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const tick = 100; // USER_HZ on Linux
const cpuMs = (pid: number) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 1000 / tick; };
const lawCpuMs = (pid: number) => [...snapshot(pid).values()].filter((t) => t.comm === 'sejong-law').reduce((a, t) => a + t.cpu, 0) * 1000;
const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function call(url: string, sid: string | null, body: object): Promise<Response> {
  const headers: Record<string, string> = { ...H, ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' } : {}) };
  return fetch(url + '/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
}

async function once(code: string, data: string): Promise<string> {
  const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072', SEJONG_DATA_DIR: data, SEJONG_PORT: '0', SEJONG_HOST: '127.0.0.1', SEJONG_LOG_LEVEL: 'info' };
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(code, 'bin/sejong.js'), 'serve'], { cwd: code, env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await listeningPort(child, 300_000);
    child.stdout!.resume();
    const listenMs = performance.now() - t0, listenCpu = cpuMs(child.pid!);
    const url = `http://127.0.0.1:${port}`;
    const init = await call(url, null, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'law-start', version: '0' } } });
    await init.arrayBuffer();
    const sid = init.headers.get('mcp-session-id')!;
    await (await call(url, sid, { jsonrpc: '2.0', method: 'notifications/initialized' })).arrayBuffer();
    const t1 = performance.now();
    const text = await (await call(url, sid, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_laws', arguments: { query: '공수처법', limit: 5 } } })).text();
    const firstMs = performance.now() - t1;
    const ok = text.includes('고위공직자범죄수사처') ? 'found' : 'NOT FOUND';
    return `| ${Math.round(listenMs)} | ${Math.round(listenCpu)} | ${Math.round(firstMs)} | ${Math.round(lawCpuMs(child.pid!))} | ${Math.round(cpuMs(child.pid!))} | 공수처법 ${ok} | ${load()} |`;
  } finally {
    await new Promise<void>((r) => { if (child.exitCode !== null) return r(); child.once('exit', () => r()); child.kill('SIGTERM'); });
  }
}

console.log(`\n### law-start ${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} cores, load ${load()}\n`);
console.log('| tree | to listening ms | CPU then ms | first search_laws ms | law threads CPU ms | process CPU ms | answer | load |\n|---|---|---|---|---|---|---|---|');
for (let rep = 0; rep < reps; rep++) for (let c = 0; c < codes.length; c++) console.log(`| ${codes[c]} ${await once(codes[c]!, datas[c]!)}`);
