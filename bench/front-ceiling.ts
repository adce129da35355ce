// The machine's ceiling for the status-poll goal (issue 19 item 2: p99 < 5 ms at 100 connections): a bare uWS
// server and a bare node:http server that answer every GET with a fixed status-sized JSON body and the same number
// of headers as sejong's keyed status answer, doing no other work, each in its own process, loaded by wrk -t1 -c100.
// Whatever latency these show is what the load generator, the loopback stack and the HTTP library cost on this
// machine before any handler runs. Usage: npm run bench -- front-ceiling [seconds=6] [connections=100] [rounds=2]
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import { load, table, hasWrk } from './lib/load.js';

const [seconds = 6, connections = 100, rounds = 2] = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number);

// about the size of a completed job's status answer, and its eight response headers
const body = JSON.stringify({ success: true, data: { jobId: 'j'.repeat(26), status: 'completed', progress: 100, createdAt: '2026-11-23T00:00:00.000Z', completedAt: '2026-11-23T00:00:01.000Z', resultUrl: '/api/v1/text-to-image/result/' + 'j'.repeat(26) } });
const headers: Array<[string, string]> = [
  ['content-type', 'application/json; charset=utf-8'], ['x-request-id', 'r'.repeat(21)], ['ratelimit-policy', '600;w=60'],
  ['ratelimit', 'limit=600, remaining=599, reset=60'], ['x-api-version', '3.6.0'], ['cache-control', 'no-store'],
  ['x-content-type-options', 'nosniff'], ['vary', 'authorization'],
];

const servers: Record<string, string> = {
  uws: `const uws = (await import('@trufflesuite/uws-js-unofficial')).default;
const body = Buffer.from(process.env.BODY); const hs = JSON.parse(process.env.HEADERS);
uws.App().get('/*', (res) => { res.cork(() => { res.writeStatus('200 OK'); for (const [k, v] of hs) res.writeHeader(k, v); res.end(body); }); })
  .listen('127.0.0.1', Number(process.env.PORT), (s) => { if (!s) process.exit(3); console.log('ready'); });`,
  'node:http': `const http = await import('node:http');
const body = Buffer.from(process.env.BODY); const hs = JSON.parse(process.env.HEADERS);
http.createServer((req, res) => { for (const [k, v] of hs) res.setHeader(k, v); res.end(body); })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));`,
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function startBare(kind: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--input-type=module', '-e', servers[kind]!], {
    env: { ...process.env, PORT: String(port), BODY: body, HEADERS: JSON.stringify(headers) }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(); });
    child.on('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, port };
}

if (!hasWrk()) { console.error('front-ceiling needs wrk (apt-get install wrk)'); process.exit(2); }
const rows: Array<Record<string, string | number>> = [];
for (let round = 1; round <= rounds; round++) {
  for (const kind of Object.keys(servers)) {
    const { child, port } = await startBare(kind);
    await load(`http://127.0.0.1:${port}/status`, { connections, seconds: 1 }); // warm-up, not reported
    const r = await load(`http://127.0.0.1:${port}/status`, { connections, seconds });
    child.kill();
    rows.push({ round, server: `bare ${kind}`, 'req/s': Math.round(r.rps), 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, 'mean ms (c/rps)': (connections / r.rps) * 1000, errors: r.errors + r.non2xx });
  }
}
console.log(`front-ceiling: wrk -t1 -c${connections} -d${seconds}s, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(table(rows));
