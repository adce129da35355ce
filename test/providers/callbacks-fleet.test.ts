// The callback outbox in shared mode: two Callbacks instances (two nodes) on one PostgreSQL database. Each
// callback is delivered once in normal operation; one registered on node A whose job finishes on node B is sent;
// a node killed mid-attempt leaves the callback to the other, which sends it after the lease with the same
// webhook-id, the same body and a valid signature. Both nodes sign with one secret, generated once.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Store } from '../../src/store/env.js';
import { LmdbBlobStore } from '../../src/store/blobs.js';
import { JobEngine } from '../../src/jobs/engine.js';
import { SafeFetcher } from '../../src/providers/fetch.js';
import { ManualClock } from '../../src/clock.js';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { Callbacks, verify, type CallbackJobs } from '../../src/providers/callbacks.js';
import { PgCallbackRepository } from '../../src/providers/callback-repo-pg.js';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';
import { startTestServer, formData } from '../helpers/server.js';
import { renderCard } from '../helpers/id-cards.js';

interface Hit { id: string; ts: string; sig: string; body: string; headers: Record<string, string> }

/** A receiver on 127.0.0.1; `hold` keeps the next requests unanswered until release(status). */
async function receiver() {
  const got: Hit[] = [];
  const held: http.ServerResponse[] = [];
  const ctl = { code: 200, hold: 0 };
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = req.headers as Record<string, string>;
      got.push({ id: h['webhook-id']!, ts: h['webhook-timestamp']!, sig: h['webhook-signature']!, body: Buffer.concat(chunks).toString('utf8'), headers: h });
      if (ctl.hold > 0) {
        ctl.hold--;
        held.push(res);
      } else res.writeHead(ctl.code).end();
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`,
    got,
    ctl,
    release(code: number) {
      for (const res of held.splice(0)) res.writeHead(code).end();
    },
    close: () => new Promise<void>((r) => { srv.closeAllConnections(); srv.close(() => r()); }),
  };
}

/** One node: its own pool and fetcher; jobs are shared (as in shared mode), but the completion events it hears
 * are its own (`hear` decides whether the engine's events reach this node). */
function node(name: string, pg: Pg, jobs: JobEngine, clock: ManualClock, hear: boolean) {
  const fetcher = new SafeFetcher({ allow: ['127.0.0.1'], timeoutMs: 5000, maxBytes: 1 << 20 });
  const view: CallbackJobs = { get: (id) => jobs.get(id), sealer: jobs.sealer, onFinished: (l) => (hear ? jobs.onFinished(l) : () => undefined) };
  const cb = new Callbacks(
    { repo: new PgCallbackRepository(pg), node: name, clock, fetcher, jobs: view, log: pino({ level: 'silent' }), config: { webhookSecret: '', callbackRetryHours: 1 } },
    { pollMs: 3_600_000, timeoutMs: 5000, leaseMs: 60_000 },
  );
  return { cb, fetcher, pg };
}

const missing = enginesMissing();

t.test('two nodes on one database', { skip: missing }, async (t) => {
  const dbUrl = await (await sharedPostgres()).database();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cbfleet-'));
  const store = new Store(dir);
  const clock = new ManualClock();
  const jobs = new JobEngine(store, new LmdbBlobStore(store), clock);
  const pgA = await Pg.connect(dbUrl, 5000);
  const pgB = await Pg.connect(dbUrl, 5000);
  await migrate(pgA);
  const rcv = await receiver();
  // node A hears no completion events: the jobs run elsewhere (node B, or a node that died)
  const A = node('node-a', pgA, jobs, clock, false);
  const B = node('node-b', pgB, jobs, clock, true);
  await Promise.all([A.cb.start(), B.cb.start()]);
  t.teardown(async () => {
    await Promise.allSettled([A.cb.stop(), B.cb.stop()]);
    await rcv.close();
    for (const n of [A, B]) await n.fetcher.close();
    await pgA.close();
    await pgB.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const secret = A.cb.secret;
  t.match(secret, /^whsec_/, 'a secret was generated');
  t.equal(B.cb.secret, secret, 'both nodes sign with the one stored secret');
  const both = async () => {
    await Promise.all([A.cb.tick(), B.cb.tick()]);
    await Promise.all([A.cb.idle(), B.cb.idle()]);
  };
  const newJob = async () => (await jobs.create({ family: 'ekyc_enhance' })).job;

  t.test('each callback delivered exactly once, whichever node registered it', async (t) => {
    const ids: string[] = [];
    const jobIds: string[] = [];
    for (let i = 0; i < 40; i++) {
      const job = await newJob();
      jobIds.push(job.id);
      const rec = await (i % 2 ? B : A).cb.register({ jobId: job.id, url: rcv.url, meta: { i }, type: 'ekyc.enhance' });
      ids.push(rec.id);
    }
    for (const [i, id] of jobIds.entries()) await jobs.complete(id, { result: { success: true, n: i } });
    for (let round = 0; round < 20 && rcv.got.length < 40; round++) {
      await both();
      await new Promise((r) => setTimeout(r, 10));
    }
    await both();
    t.equal(rcv.got.length, 40, '40 requests for 40 callbacks');
    t.same([...new Set(rcv.got.map((g) => g.id))].sort(), [...ids].sort(), 'each webhook-id once');
    t.equal(rcv.got.filter((g) => verify(secret, g.headers, g.body)).length, 40, 'every one signed with the shared secret');
    const bodies = rcv.got.map((g) => JSON.parse(g.body) as { jobId: string; status: string; callback_meta: { i: number }; result: { n: number } });
    t.same(bodies.map((b) => b.callback_meta.i).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i), 'callback_meta of each');
    t.ok(bodies.every((b) => b.status === 'completed' && b.result.n === jobIds.indexOf(b.jobId)), 'each body carries its own job');
    const states = await Promise.all(ids.map(async (id) => (await A.cb.get(id))!));
    t.same([...new Set(states.map((s) => `${s.state}/${s.attempts}`))], ['delivered/1'], 'all delivered at the first attempt');
    t.same(await A.cb.counts(), { waiting: 0, pending: 0, delivered: 40, failed: 0 }, 'fleet-wide counts from either node');
  });

  t.test('no node heard the completion: a tick arms the waiting callback of a finished job', async (t) => {
    rcv.got.length = 0;
    const job = await newJob();
    const rec = await A.cb.register({ jobId: job.id, url: rcv.url, type: 'ekyc.enhance' });
    // failed by a node whose listener nobody shares (e.g. crash recovery on a third node): bypass B's listener
    await B.cb.stop();
    await jobs.fail(job.id, 'INTERNAL_ERROR', 'the node running it stopped');
    await A.cb.tick();
    await A.cb.idle();
    t.equal(rcv.got.length, 1, 'delivered by node A on its tick');
    t.match(JSON.parse(rcv.got[0]!.body), { type: 'ekyc.enhance.failed', jobId: job.id, status: 'failed', error: { code: 'INTERNAL_ERROR' } });
    t.equal(rcv.got[0]!.id, rec.id);
    await B.cb.start();
  });

  t.test('node A killed mid-attempt: node B sends it after the lease, same webhook-id and body', async (t) => {
    rcv.got.length = 0;
    const C = node('node-c', await Pg.connect(dbUrl, 5000), jobs, clock, false);
    await C.cb.start();
    const job = await newJob();
    const rec = await C.cb.register({ jobId: job.id, url: rcv.url, meta: { order: 'A-17' }, type: 'ekyc.pipeline' });
    // B must not take it first: it hears nothing and does not tick until C has claimed it
    await B.cb.stop();
    await jobs.complete(job.id, { result: { success: true } });
    rcv.ctl.hold = 1;
    const inFlight = C.cb.tick();
    for (let i = 0; i < 200 && rcv.got.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    t.equal(rcv.got.length, 1, 'node C made the first attempt');
    t.match(await B.cb.get(rec.id), { state: 'pending', claimedBy: 'node-c', attempts: 0 }, 'claimed by node C');
    // the kill: node C loses its database and timers, and never records an outcome
    await C.pg.close();
    rcv.release(500);
    await inFlight.catch(() => undefined);
    await C.cb.idle();
    await B.cb.start();
    await B.cb.tick();
    await B.cb.idle();
    t.equal(rcv.got.length, 1, 'node B leaves it alone while the lease holds');
    clock.advance(60_000);
    await B.cb.tick();
    await B.cb.idle();
    t.equal(rcv.got.length, 2, 'node B sent it after the lease ran out');
    const [first, second] = rcv.got;
    t.equal(second!.id, first!.id, 'same webhook-id');
    t.equal(second!.id, rec.id);
    t.equal(second!.body, first!.body, 'same body, byte for byte');
    t.equal(verify(secret, second!.headers, second!.body), true, 'valid signature');
    t.not(second!.ts, first!.ts, 'signed at its own time');
    t.match(JSON.parse(second!.body), { type: 'ekyc.pipeline.completed', jobId: job.id, callback_meta: { order: 'A-17' } });
    t.match(await B.cb.get(rec.id), { state: 'delivered', attempts: 1, lastStatus: 200 }, "node C's unrecorded attempt is not counted");
    await C.cb.stop().catch(() => undefined);
    await C.fetcher.close();
  });
});

t.test('server level, shared mode: the node that accepted an enhance job dies mid-delivery, the other node delivers', { skip: missing }, async (t) => {
  const rcv = await receiver();
  t.teardown(() => rcv.close());
  const clock = new ManualClock();
  const env = { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_NODE_NAME: 'node-a' };
  const a = await startTestServer({ storage: 'shared', manualClock: clock, env });
  let aClosed = false;
  t.teardown(async () => { if (!aClosed) await a.close().catch(() => undefined); });
  // a fleet shares one sealing key: in shared mode it comes from PostgreSQL (or SEJONG_SEAL_KEY_FILE), not seal.key
  const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-nodeb-'));
  rcv.ctl.hold = 1; // the first attempt gets no answer until node A is gone
  const card = await renderCard('jumin', { seed: 5 });
  const r = await a.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'jumin', callback_url: rcv.url, callback_meta: '{"order":"F-1"}' }, { image: { data: card.image, type: 'image/png' } }) });
  t.equal(r.status, 202);
  const { jobId, accessKey } = (await r.json()) as { jobId: string; accessKey: string };
  for (let i = 0; i < 1200 && rcv.got.length < 1; i++) await new Promise((res) => setTimeout(res, 50));
  t.equal(rcv.got.length, 1, 'node A made the first attempt');
  // node B joins the fleet (same database and Redis, A's installation key)
  const b = await startTestServer({ storage: 'shared', sharedEnv: a.sharedEnv, manualClock: clock, dataDir: dirB, ownDir: true, env: { ...env, SEJONG_NODE_NAME: 'node-b' } });
  t.teardown(() => b.close());
  const status = async () => (await (await b.req(`/api/v1/ekyc/enhance/status/${jobId}`, { key: null, headers: { authorization: `Bearer ${accessKey}` } })).json()) as Record<string, any>;
  t.match(await status(), { status: 'completed', callback: { state: 'pending', attempts: 0 } }, 'node B sees the job and its callback in flight');
  // the kill: node A loses its database before recording the outcome, then goes away
  const engA = a.services.engines;
  if (engA.mode === 'shared') await engA.pg.close();
  rcv.release(500);
  await a.services.ext.callbacks!.idle();
  await a.close().catch(() => undefined);
  aClosed = true;
  const cbB = b.services.ext.callbacks!;
  await cbB.tick();
  await cbB.idle();
  t.equal(rcv.got.length, 1, 'node B waits for the lease');
  clock.advance(60_000);
  for (let i = 0; i < 100 && rcv.got.length < 2; i++) {
    await cbB.tick();
    await cbB.idle();
    await new Promise((res) => setTimeout(res, 20));
  }
  t.equal(rcv.got.length, 2, 'node B delivered it');
  const [first, second] = rcv.got;
  t.equal(second!.id, first!.id, 'same webhook-id');
  t.equal(second!.body, first!.body, 'same body');
  const secret = ((await (await b.req('/api/v1/ekyc/enhance/webhook-secret', { key: b.adminKey })).json()) as { secret: string }).secret;
  t.equal(secret, cbB.secret);
  t.equal(verify(secret, second!.headers, second!.body), true, 'signed with the fleet secret (generated by node A, read by node B)');
  t.match(JSON.parse(second!.body), { type: 'ekyc.enhance.completed', jobId, status: 'completed', callback_meta: { order: 'F-1' }, result: { success: true, jobId } });
  t.match(await status(), { callback: { state: 'delivered', attempts: 1, lastStatus: 200 } });
  const engB = b.services.engines;
  const rows = engB.mode === 'shared' ? (await engB.pg.query<{ value: Buffer }>("select value from installation where name = 'webhook-secret'")).rows : [];
  t.equal(rows[0]?.value.toString('utf8'), secret, 'the secret is kept in the installation table');
});
