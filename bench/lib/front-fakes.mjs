// The front path driven in process (no sockets): sejong's uWS handlers of a checkout's built dist/, registered through
// a stand-in uWS App and called with stand-in requests and responses, 100 in flight. Used by bench/front-path-ab.mjs
// (CPU per request, A/B) and bench/front-path-alloc.mjs (bytes allocated per request).
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path'; import { createRequire } from 'node:module';
const inflight = 100;
class FakeRequest { constructor(url, headers, params) { this.url = url; this.headers = headers; this.params = params; }
  getHeader(k) { return this.headers[k] ?? ''; } forEach(cb) { for (const k in this.headers) cb(k, this.headers[k]); }
  getUrl() { return this.url; } getQuery() { return undefined; } getParameter(i) { return this.params[i]; } getMethod() { return 'get'; } getCaseSensitiveMethod() { return 'GET'; } }
const ADDRESS = new TextEncoder().encode('127.0.0.1').buffer;
class FakeResponse { constructor(onEnd) { this.onEnd = onEnd; this.status = ''; }
  onAborted() { return this; } onData() { return this; } getRemoteAddressAsText() { return ADDRESS.slice(0); } cork(fn) { fn(); return this; }
  writeStatus(s) { this.status = s; return this; } writeHeader() { return this; } write() { return true; } end() { this.onEnd(this.status); return this; } }
export async function drive(handler, url, headers, params, n) {
  const statuses = new Map(); let pending = 0; let wake;
  const onEnd = (s) => { statuses.set(s, (statuses.get(s) ?? 0) + 1); if (--pending === 0) wake?.(); };
  for (let done = 0; done < n; done += inflight) {
    const batch = Math.min(inflight, n - done); const all = new Promise((r) => (wake = r)); pending = batch;
    for (let i = 0; i < batch; i++) handler(new FakeResponse(onEnd), new FakeRequest(url, headers, params));
    await all; await new Promise((r) => setImmediate(r));
  }
  return statuses;
}
export async function setup(root, which) {
const req = createRequire(root + '/package.json');
const pino = req('pino'); const uws = req('@trufflesuite/uws-js-unofficial');
const { loadConfig } = await import(root + '/dist/config.js');
const { startServer } = await import(root + '/dist/server/start.js');
const { HttpServer } = await import(root + '/dist/server/app.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-front-ab-'));
const config = loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_ADMIN_KEY: 'sk_bench_admin_key_000000', SEJONG_RATE_LIMIT_PER_MINUTE: '10000000', SEJONG_RATE_LIMIT_PER_DAY: '1000000000', SEJONG_WORKERS: '1' });
const server = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
const { services, routes } = server;
const { key, record } = await services.keys.create({ name: 'bench', now: Date.now() });
const { job } = await services.jobs.create({ family: 'txt2img', owner: record.id, ttlHours: 24, estimatedCost: 0.039, meta: { model: 'fam-b-2.5-flash-image' } });
await services.jobs.complete(job.id, { result: { processingTimeMs: 1234 }, blobs: { image: { bytes: Buffer.alloc(2048, 1), contentType: 'image/png' } } });
const handlers = new Map(); const realApp = uws.App;
uws.App = () => { const on = (m) => (p, h) => handlers.set(`${m} ${p}`, h); return { get: on('GET'), post: on('POST'), put: on('PUT'), patch: on('PATCH'), del: on('DELETE'), any: on('ANY') }; };
new HttpServer(services, [...routes]); uws.App = realApp;
const wrkHeaders = { host: '127.0.0.1:8080' };
const c = which === 'health' ? { h: handlers.get('GET /health'), url: '/health', headers: wrkHeaders, params: [] }
  : { h: handlers.get('GET /api/v1/text-to-image/status/:job_id'), url: `/api/v1/text-to-image/status/${job.id}`, headers: { ...wrkHeaders, 'x-api-key': key }, params: [job.id] };
await drive(c.h, c.url, c.headers, c.params, 20000);
return { c, server, dataDir };
}
