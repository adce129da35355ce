// The front end's own cost per request, without sockets: sejong's uWS handlers driven by in-process stand-ins for
// uWS's HttpRequest/HttpResponse, so the figure is the JavaScript of the request path alone (the part the socket
// benchmark bench/http.ts cannot separate from uWS, the kernel and wrk). CPU µs per request of this thread, for
// GET /health and the keyed status poll of a stored job; `--cpu-prof` on the node command line gives the per-step
// breakdown.
// Usage: node --import tsx bench/front-path.ts [requests=200000] [in-flight=100]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import uws from '@trufflesuite/uws-js-unofficial';
import { table } from './lib/load.js';
import { serverModule, codeLabel } from './lib/built.js';

const { loadConfig } = await serverModule<typeof import('../src/config.js')>('config');
const { startServer } = await serverModule<typeof import('../src/server/start.js')>('server/start');
const { HttpServer } = await serverModule<typeof import('../src/server/app.js')>('server/app');

type Handler = (res: unknown, req: unknown) => void;

const requests = Number(process.argv[2] ?? 200_000);
const inflight = Number(process.argv[3] ?? 100);

/** A uWS app that only records its handlers (the HttpServer under test registers into it). */
function recordingApp(handlers: Map<string, Handler>): unknown {
  const on = (method: string) => (pattern: string, h: Handler) => handlers.set(`${method} ${pattern}`, h);
  return { get: on('GET'), post: on('POST'), put: on('PUT'), patch: on('PATCH'), del: on('DELETE'), any: on('ANY') };
}

/** One request as uWS hands it over: headers, URL, query, path parameters. (Classes, not closures: the stand-ins
 * must cost next to nothing per request, and tsx wraps every closure in a naming helper.) */
class FakeRequest {
  constructor(private readonly url: string, private readonly headers: Record<string, string>, private readonly params: string[]) {}
  getHeader(k: string): string { return this.headers[k] ?? ''; }
  forEach(cb: (k: string, v: string) => void): void { for (const k in this.headers) cb(k, this.headers[k]!); }
  getUrl(): string { return this.url; }
  getQuery(): string | undefined { return undefined; }
  getParameter(i: number): string | undefined { return this.params[i]; }
  getMethod(): string { return 'get'; }
  getCaseSensitiveMethod(): string { return 'GET'; }
}

const ADDRESS = new TextEncoder().encode('127.0.0.1').buffer;

/** The response side: reports each answer's status line to onEnd. */
class FakeResponse {
  private status = '';
  constructor(private readonly onEnd: (status: string) => void) {}
  onAborted(): this { return this; }
  onData(): this { return this; }
  getRemoteAddressAsText(): ArrayBuffer { return ADDRESS.slice(0); }
  cork(fn: () => void): this { fn(); return this; }
  writeStatus(s: string): this { this.status = s; return this; }
  writeHeader(): this { return this; }
  write(): boolean { return true; }
  end(): this { this.onEnd(this.status); return this; }
}

async function drive(handler: Handler, url: string, headers: Record<string, string>, params: string[], n: number): Promise<{ us: number; statuses: Map<string, number> }> {
  const statuses = new Map<string, number>();
  let pending = 0;
  let wake: (() => void) | undefined;
  const onEnd = (s: string) => {
    statuses.set(s, (statuses.get(s) ?? 0) + 1);
    if (--pending === 0) wake?.();
  };
  const c0 = process.cpuUsage();
  for (let done = 0; done < n; done += inflight) {
    const batch = Math.min(inflight, n - done);
    const all = new Promise<void>((r) => (wake = r));
    pending = batch;
    for (let i = 0; i < batch; i++) handler(new FakeResponse(onEnd), new FakeRequest(url, headers, params));
    await all;
    await new Promise((r) => setImmediate(r)); // a turn of the event loop, as between socket reads: timers, LMDB commits
  }
  const c = process.cpuUsage(c0);
  return { us: (c.user + c.system) / n, statuses };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-front-'));
const config = loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_ADMIN_KEY: 'sk_bench_admin_key_000000', SEJONG_RATE_LIMIT_PER_MINUTE: '10000000', SEJONG_RATE_LIMIT_PER_DAY: '1000000000', SEJONG_WORKERS: '1' });
const server = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
const { services, routes } = server;
const { key, record } = await services.keys.create({ name: 'bench', now: Date.now() });
const { job } = await services.jobs.create({ family: 'txt2img', owner: record.id, ttlHours: 24, estimatedCost: 0.039, meta: { model: 'fam-b-2.5-flash-image' } });
await services.jobs.complete(job.id, { result: { processingTimeMs: 1234 }, blobs: { image: { bytes: Buffer.alloc(2048, 1), contentType: 'image/png' } } });

const handlers = new Map<string, Handler>();
const realApp = uws.App;
(uws as { App: unknown }).App = () => recordingApp(handlers);
new HttpServer(services, [...routes]);
(uws as { App: unknown }).App = realApp;

const wrkHeaders = { host: '127.0.0.1:8080' };
const cases = [
  { name: 'GET /health', handler: handlers.get('GET /health')!, url: '/health', headers: wrkHeaders, params: [] as string[] },
  { name: 'GET status (stored job)', handler: handlers.get('GET /api/v1/text-to-image/status/:job_id')!, url: `/api/v1/text-to-image/status/${job.id}`, headers: { ...wrkHeaders, 'x-api-key': key }, params: [job.id] },
];
const rows: Array<Record<string, string | number>> = [];
for (const c of cases) {
  await drive(c.handler, c.url, c.headers, c.params, Math.min(20_000, requests)); // warm-up (JIT)
  const r = await drive(c.handler, c.url, c.headers, c.params, requests);
  rows.push({ request: c.name, requests, 'in flight': inflight, 'CPU µs/req': r.us.toFixed(2), answers: [...r.statuses].map(([s, k]) => `${s} ×${k}`).join(', '), load: os.loadavg()[0]!.toFixed(1) });
}
console.log(`front-path: sejong's uWS handlers without sockets; ${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}; server code: ${codeLabel()}\n`);
console.log(table(rows));
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
