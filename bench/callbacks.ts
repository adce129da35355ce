// Callback outbox benchmark: N finished jobs with a callback each, delivered to a local receiver (200 at once) by
// 1 node in LMDB mode, then by 1 and by 2 Callbacks nodes on one PostgreSQL database (claims with SKIP LOCKED).
// The jobs finish before the nodes start. Reports callbacks/s from the nodes' start to the last delivery, duplicates (requests beyond one per webhook-id)
// and each node's share. Everything runs in this process (2 cores shared); the receiver answers immediately.
// Run: npm run bench -- callbacks [--n 1000] [--poll 50]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Store } from '../src/store/env.js';
import { Sealer } from '../src/jobs/sealed-keys.js';
import { LmdbBlobStore } from '../src/store/blobs.js';
import { JobEngine } from '../src/jobs/engine.js';
import { SafeFetcher } from '../src/providers/fetch.js';
import { systemClock } from '../src/clock.js';
import { Pg } from '../src/shared/pg.js';
import { migrate } from '../src/shared/migrate.js';
import { Callbacks, type CallbackJobs } from '../src/providers/callbacks.js';
import { LmdbCallbackRepository, type CallbackRepository } from '../src/providers/callback-repo.js';
import { PgCallbackRepository } from '../src/providers/callback-repo-pg.js';
import { sharedPostgres } from '../test/helpers/engines.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('n', 1000);
const POLL = arg('poll', 50);

const got = new Map<string, number>();
const srv = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['webhook-id']);
    got.set(id, (got.get(id) ?? 0) + 1);
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/h`;

async function run(label: string, repos: CallbackRepository[], store: Store): Promise<string[]> {
  got.clear();
  const jobs = new JobEngine(store, new LmdbBlobStore(store), systemClock);
  const log = pino({ level: 'silent' });
  const fetchers = repos.map(() => new SafeFetcher({ allow: ['127.0.0.1'], timeoutMs: 5000, maxBytes: 1 << 20 }));
  // only node 0 hears completions: the other nodes find armed callbacks by claiming
  const sent = repos.map(() => 0);
  const nodes = repos.map((repo, i) => {
    const f = fetchers[i]!;
    const counting = { fetch: (u: string, o: Parameters<SafeFetcher['fetch']>[1]) => (sent[i]++, f.fetch(u, o)) } as unknown as SafeFetcher;
    const view: CallbackJobs = { get: (id) => jobs.get(id), sealer: jobs.sealer, onFinished: (l) => (i === 0 ? jobs.onFinished(l) : () => undefined) };
    return new Callbacks({ repo, node: `node-${i}`, clock: systemClock, fetcher: counting, jobs: view, log, config: { webhookSecret: 'whsec_YmVuY2g=', callbackRetryHours: 1 } }, { pollMs: POLL });
  });
  // the jobs finish before the nodes start: the run measures the outbox alone (arming on ticks, claims, sends)
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const { job } = await jobs.create({ family: 'ekyc_enhance' });
    ids.push(job.id);
    await nodes[i % nodes.length]!.register({ jobId: job.id, url, type: 'ekyc.enhance' });
  }
  for (const id of ids) await jobs.complete(id, { result: { success: true } });
  const t0 = performance.now();
  await Promise.all(nodes.map((n) => n.start()));
  while (got.size < N) await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 4 * POLL)); // late duplicates would show here
  await Promise.all(nodes.map((n) => n.stop()));
  for (const f of fetchers) await f.close();
  const dup = [...got.values()].reduce((a, n) => a + n - 1, 0);
  return [label, String(nodes.length), String(N), String(Math.round(ms)), String(Math.round((N / ms) * 1000)), String(dup), sent.join(' / ')];
}

const rows: string[][] = [];
{
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bcb-'));
  const store = new Store(dir);
  const repo = new LmdbCallbackRepository(store, new Sealer(store));
  await repo.init();
  rows.push(await run('LMDB', [repo], store));
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
for (const k of [1, 2]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bcb-'));
  const store = new Store(dir);
  const dbUrl = await (await sharedPostgres()).database();
  const pools = await Promise.all(Array.from({ length: k }, () => Pg.connect(dbUrl, 5000)));
  await migrate(pools[0]!);
  rows.push(await run('PostgreSQL', pools.map((p) => new PgCallbackRepository(p)), store));
  for (const p of pools) await p.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`callbacks: ${N} per run, receiver 200 at once, poll ${POLL} ms, ${os.cpus().length} cores, node ${process.version}`);
console.log('| outbox     | nodes | callbacks | ms to all delivered | callbacks/s | duplicates | attempts per node |');
console.log('|------------|-------|-----------|---------------------|-------------|------------|-------------------|');
for (const r of rows) console.log(`| ${r[0]!.padEnd(10)} | ${r.slice(1).map((c) => c.padStart(5)).join(' | ')} |`);
srv.close();
process.exit(0);
