// Front-end benchmark: GET /health and GET /api/v1/text-to-image/status/{id} (a stored job) on sejong's uWS
// front end, side by side with the same route handlers mounted on node:http, at 100 connections.
// Usage: npm run bench -- http [seconds=10] [connections=100] [--shared]
//   --shared: the server in shared (fleet) mode on a PostgreSQL and a Redis started for the run (127.0.0.1)
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Ctx, RouteDef } from '../src/server/types.js';
import type { Services } from '../src/services.js';
import { load, table, hasWrk } from './lib/load.js';
import { serverModule, codeLabel } from './lib/built.js';

const { loadConfig } = await serverModule<typeof import('../src/config.js')>('config');
const { startServer } = await serverModule<typeof import('../src/server/start.js')>('server/start');
const { authenticate } = await serverModule<typeof import('../src/server/auth.js')>('server/auth');
const { answerOf, toApiError } = await serverModule<typeof import('../src/server/request-parts.js')>('server/request-parts');

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seconds = Number(positional[0] ?? 10);
const connections = Number(positional[1] ?? 100);
const shared = process.argv.includes('--shared');

/** The same routes and handlers, on node:http: match, authenticate, rate limit, handle, JSON. */
function nodeHttpPeer(services: Services, routes: readonly RouteDef[]): http.Server {
  const compiled = routes.filter((r) => r.method === 'GET' && r.handler).map((r) => {
    const names: string[] = [];
    const re = new RegExp('^' + r.path.replace(/:([A-Za-z_]+)/g, (_m, n: string) => (names.push(n), '([^/]+)')) + '$');
    return { r, re, names };
  });
  return http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const m = compiled.map((c) => ({ c, hit: c.re.exec(u.pathname) })).find((x) => x.hit);
    const send = (status: number, body: string, headers: Record<string, string>) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(body);
    };
    if (!m) return send(404, '{"success":false}', {});
    const params: Record<string, string> = {};
    m.c.names.forEach((n, i) => (params[n] = decodeURIComponent(m.hit![i + 1]!)));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const outHeaders: Record<string, string> = {};
    const ctx = {
      services, requestId: 'r', method: 'GET', path: u.pathname, params, query: Object.fromEntries(u.searchParams), rawQuery: u.searchParams,
      headers, body: undefined, files: {}, rawBody: Buffer.alloc(0), principal: { kind: 'anonymous' }, ip: '', logExtra: {}, aborted: () => false, log: services.log,
    } as unknown as Ctx;
    void (async () => {
      try {
        const who = authenticate(ctx, m.c.r, outHeaders);
        ctx.principal = who instanceof Promise ? await who : who;
        // the handler's answer as the uWS path sends it (answerOf: a Reply's status, type and ready-made body bytes)
        const out = answerOf(await m.c.r.handler!(ctx));
        res.writeHead(out.status, { ...out.headers, ...outHeaders });
        res.end(out.body);
      } catch (e) {
        const err = toApiError(e, services.log);
        send(err.status, JSON.stringify(err.toBody()), outHeaders);
      }
    })();
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-http-'));
const engines = shared ? await (await import('../test/helpers/engines.js')).sharedModeEnv() : undefined;
const config = loadConfig({ ...engines?.env, SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_ADMIN_KEY: 'sk_bench_admin_key_000000', SEJONG_RATE_LIMIT_PER_MINUTE: '10000000', SEJONG_RATE_LIMIT_PER_DAY: '1000000000', SEJONG_WORKERS: '1' });
const server = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
const { services } = server;
const { key, record } = await services.keys.create({ name: 'bench', now: Date.now() });
const { job } = await services.jobs.create({ family: 'txt2img', owner: record.id, ttlHours: 24, estimatedCost: 0.039, meta: { model: 'fam-b-2.5-flash-image' } });
await services.jobs.complete(job.id, { result: { processingTimeMs: 1234 }, blobs: { image: { bytes: Buffer.alloc(2048, 1), contentType: 'image/png' } } });

const { routes } = server;
const statusPath = `/api/v1/text-to-image/status/${job.id}`;
const hasStatus = routes.some((r) => r.path === '/api/v1/text-to-image/status/:job_id');
const peer = nodeHttpPeer(services, routes);
await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
const peerPort = (peer.address() as { port: number }).port;

const check = await fetch(`${server.url}${statusPath}`, { headers: { 'x-api-key': key } });
const checkPeer = await fetch(`http://127.0.0.1:${peerPort}${statusPath}`, { headers: { 'x-api-key': key } });
console.log(`status route ${hasStatus ? 'present' : 'MISSING'}: sejong ${check.status}, node:http ${checkPeer.status}; load tool: ${hasWrk() ? 'wrk' : 'autocannon'}; ${seconds}s per cell, ${connections} connections`);

const rows: Array<Record<string, string | number>> = [];
for (const [label, p, hdrs] of [['GET /health', '/health', {}], ['GET status (stored job)', statusPath, { 'x-api-key': key }]] as const) {
  const results: Record<string, Awaited<ReturnType<typeof load>>> = {};
  const cpuPerReq: Record<string, number> = {};
  for (const [name, base] of [['sejong (uWS)', server.url], ['node:http', `http://127.0.0.1:${peerPort}`]] as const) {
    await load(base + p, { connections, seconds: 1, headers: hdrs }); // warm-up
    // CPU time of this process (both servers live here, wrk does not) per answered request: unlike req/s it does not
    // depend on how much of the two cores wrk and the machine's other processes leave to the server
    const cpu0 = process.cpuUsage();
    results[name] = await load(base + p, { connections, seconds, headers: hdrs });
    const cpu = process.cpuUsage(cpu0);
    const r = results[name]!;
    cpuPerReq[name] = (cpu.user + cpu.system) / Math.max(1, r.rps * seconds);
    rows.push({ endpoint: label, server: name, 'req/s': Math.round(r.rps), 'p50 ms': r.p50ms, 'p99 ms': r.p99ms, 'CPU µs/req': Math.round(cpuPerReq[name]!), errors: r.errors + r.non2xx, 'RSS MB': Math.round(process.memoryUsage().rss / 1048576), load: os.loadavg()[0]!.toFixed(1) });
  }
  const ratio = results['sejong (uWS)']!.rps / results['node:http']!.rps;
  const cpuRatio = cpuPerReq['node:http']! / cpuPerReq['sejong (uWS)']!;
  rows.push({ endpoint: label, server: 'ratio sejong/node:http', 'req/s': `${ratio.toFixed(2)}x`, 'p50 ms': '', 'p99 ms': '', 'CPU µs/req': `${cpuRatio.toFixed(2)}x`, errors: '', 'RSS MB': '', load: '' });
}
console.log(`\n${new Date().toISOString()} ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}; server code: ${codeLabel()}; storage: ${shared ? 'shared (PostgreSQL + Redis)' : 'embedded (LMDB)'}\n`);
console.log(table(rows));
peer.close();
await server.close();
await engines?.redis.remove();
fs.rmSync(dataDir, { recursive: true, force: true });
