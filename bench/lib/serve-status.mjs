// For bench/status-ab.sh: the server of checkout ROOT (its built dist/) with a key and a completed txt2img job;
// writes {url, key} to OUT, runs until SIGTERM. Usage: ROOT=<checkout> OUT=<file.json> node bench/lib/serve-status.mjs
// Shared (fleet) mode: DATABASE_URL and REDIS_URL set (bench/lib/shared-engines.ts); at SIGTERM it prints the rate
// limiter's Redis round trips (when the limiter counts them) to stderr. KNOCKOUT: see below.
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path'; import { createRequire } from 'node:module';
const root = process.env.ROOT; const pino = createRequire(root + '/package.json')('pino');
const { loadConfig } = await import(root + '/dist/config.js');
const { startServer } = await import(root + '/dist/server/start.js');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-status-ab-'));
const shared = process.env.DATABASE_URL ? { SEJONG_DATABASE_URL: process.env.DATABASE_URL, SEJONG_REDIS_URL: process.env.REDIS_URL } : {};
const config = loadConfig({ ...shared, SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_ADMIN_KEY: 'sk_bench_admin_key_000000', SEJONG_RATE_LIMIT_PER_MINUTE: '10000000', SEJONG_RATE_LIMIT_PER_DAY: '1000000000', SEJONG_WORKERS: '1' });
const server = await startServer(config, { log: pino({ level: 'silent' }), printSecret: () => undefined });
const { services } = server;
const { key, record } = await services.keys.create({ name: 'bench', now: Date.now() });
const { job } = await services.jobs.create({ family: 'txt2img', owner: record.id, ttlHours: 24, estimatedCost: 0.039, meta: { model: 'fam-b-2.5-flash-image' } });
await services.jobs.complete(job.id, { result: { processingTimeMs: 1234 }, blobs: { image: { bytes: Buffer.alloc(2048, 1), contentType: 'image/png' } } });
// KNOCKOUT (bench/status-survivors.sh): one piece of the poll's work left out, to see what the scavenges copy
const knock = process.env.KNOCKOUT;
if (knock === 'request-log') services.requestLog.add = () => undefined;
if (knock === 'metrics' && services.metrics) services.metrics.observe = () => undefined;
if (knock === 'rate-limit-persist') services.limiter.persist = () => undefined;
if (knock === 'rate-limit') { const r0 = services.limiter.hit('knockout', 1e9, 1e10, Date.now()); services.limiter.hit = () => r0; }
fs.writeFileSync(process.env.OUT, JSON.stringify({ url: `${server.url}/api/v1/text-to-image/status/${job.id}`, key }));
process.on('SIGTERM', async () => {
  const trips = services.limiter.roundTrips;
  if (trips !== undefined) process.stderr.write(`${path.basename(root)}: ${trips} rate-limit round trips to Redis\n`);
  await server.close(); fs.rmSync(dataDir, { recursive: true, force: true }); process.exit(0); });
