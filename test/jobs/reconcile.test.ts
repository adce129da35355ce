// "Never left processing": the queues' reconciler (src/jobs/reconcile.ts) settles jobs no node could settle, once the
// engines answer again. The long outage runs on the injected clock (no sleeps): a run waits for the unreachable
// engine past its budget, BullMQ gives up on the attempt while the engine is still down (so recording the failure
// fails too) and the job stays processing until the reconciler fails it with BullMQ's reason. Also: a job Redis lost
// is queued again (bounded), an orphan and a dead node's request job are failed, two nodes reconciling at once settle
// each job once; embedded: a job whose outcome could not be written is failed, a running one is left.
import t from 'tap';
import { defineRunner, type JobInput } from '../../src/jobs/runners.js';
import type { JobEngine, JobRecord } from '../../src/jobs/engine.js';
import { BullJobQueue } from '../../src/jobs/queue-bullmq.js';
import { LocalJobQueue } from '../../src/jobs/queue-local.js';
import { reconcileAction } from '../../src/jobs/reconcile.js';
import { connectQueueRedis } from '../../src/shared/redis.js';
import { engineBusy } from '../../src/shared/errors.js';
import { enginesMissing, startRedis } from '../helpers/engines.js';
import { openJobs, type JobsHarness } from '../helpers/jobs.js';
import type { ManualClock } from '../../src/clock.js';

interface Node { clock: ManualClock; outageMs: number }

/** the engine is unreachable for the whole run: each try moves the clock on by outageMs, then fails with the 503 */
const outage = defineRunner<JobInput<Record<string, never>, never>, Node>('test-rec-outage', async (_input, ctx) => {
  ctx.services.clock.advance(ctx.services.outageMs);
  throw engineBusy('PostgreSQL');
});
const echo = defineRunner<JobInput<{ v: number }, never>, Node>('test-rec-echo', async (input) => ({ result: { v: input.json.v } }));
const hangs: Array<() => void> = [];
const hang = defineRunner<JobInput<Record<string, never>, never>, Node>('test-rec-hang', async () => {
  await new Promise<void>((r) => hangs.push(r));
  return { result: {} };
});

const STALE = 120_000;
const missing = enginesMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await sleep(50);
  }
}

async function shared(t: any, attempts = 1) {
  const h = await openJobs('shared');
  const redis = await startRedis();
  const queues: BullJobQueue<Node>[] = [];
  const node = async (name: string, jobs: JobEngine = h.jobs) => {
    const q = await BullJobQueue.open<Node>({ jobs, services: { clock: h.clock, outageMs: 6 * 60_000 } }, {
      pg: h.pg!, connect: () => connectQueueRedis(redis.url, 5000), node: name, concurrency: 2, attempts,
      lockMs: 1000, stalledMs: 300, timeoutMs: 5000, clock: h.clock, reconcileEveryMs: 3600_000, staleMs: STALE,
    });
    queues.push(q);
    return q;
  };
  t.teardown(async () => {
    hangs.splice(0).forEach((r) => r());
    for (const q of queues) await q.close({ drain: false });
    await h.jobs.drain(1000);
    await h.close();
    void redis.remove();
  });
  const input = async (id: string) => (await h.pg!.query('select runner, requeues from job_inputs where job_id = $1', [id])).rows[0] as { runner: string; requeues: number } | undefined;
  /** the BullMQ job of an id is removed (Redis lost it) */
  const lose = async (q: BullJobQueue<Node>, id: string) => {
    const bj = await (q as unknown as { findJob(id: string): Promise<{ remove(): Promise<void> } | undefined> }).findJob(id);
    await bj!.remove();
  };
  return { h, node, input, lose };
}

const get = async (h: JobsHarness, id: string): Promise<JobRecord> => (await h.jobs.get(id))!;

t.test('shared: an engine outage outlasting the run\'s wait, still on when the attempt gives up: failed with a reason by the reconciler once the engine is back', { skip: missing }, async (t) => {
  const { h, node, input } = await shared(t, 1);
  const q = await node('A');
  // PostgreSQL "down" for the engine's writes: the give-up's jobs.fail fails as the real one would
  let down = true;
  const fail = h.jobs.fail.bind(h.jobs);
  h.jobs.fail = async (...a: Parameters<JobEngine['fail']>) => {
    if (down) throw engineBusy('PostgreSQL');
    return fail(...a);
  };
  const { job } = await h.jobs.create({ family: 'receipt' });
  await q.submit(outage, job.id, { json: {}, bytes: {} });
  await q.start();
  const state = await until(async () => (await (q as any).findJob(job.id))?.getState(), (s) => s === 'failed');
  t.equal(state, 'failed', 'BullMQ gave up on the attempt (one run: the engine wait ran out on the clock)');
  t.equal((await get(h, job.id)).status, 'processing', 'recording that failed too: the job is still processing');
  t.ok(await input(job.id), 'its input is still stored');

  down = false; // the engine is back
  t.same(await q.reconcile(), { requeued: 0, failed: 1 }, 'the reconciler fails it');
  const j = await get(h, job.id);
  t.equal(j.status, 'failed');
  t.equal(j.error?.code, 'INTERNAL_ERROR');
  t.match(j.error?.message, /^The job was given up after 1 attempt: PostgreSQL is not reachable from this node; retry shortly; please submit it again$/);
  t.equal(await input(job.id), undefined, 'its input is deleted');
  t.same(await q.reconcile(), { requeued: 0, failed: 0 }, 'a second pass has nothing to do');
});

t.test('shared: a job Redis lost is queued again while requeues are left, then failed with a reason', { skip: missing }, async (t) => {
  const { h, node, input, lose } = await shared(t, 2);
  const q = await node('A'); // no worker yet
  const { job } = await h.jobs.create({ family: 'receipt' });
  await q.submit(echo, job.id, { json: { v: 7 }, bytes: {} });
  await lose(q, job.id);
  t.same(await q.reconcile(), { requeued: 0, failed: 0 }, 'within the grace period: left (it may be being queued)');
  h.clock.advance(STALE + 1);
  t.same(await q.reconcile(), { requeued: 1, failed: 0 }, 'stale, its input stored, no queued job: queued again');
  t.equal((await input(job.id))?.requeues, 1);
  await q.start();
  const done = await until(() => get(h, job.id), (j) => j.status !== 'processing');
  t.same([done.status, done.result], ['completed', { v: 7 }], 'and run');

  const { job: lost } = await h.jobs.create({ family: 'receipt' });
  await q.stopTaking({ drain: true }); // keep it queued
  await q.submit(echo, lost.id, { json: { v: 1 }, bytes: {} });
  h.clock.advance(STALE + 1);
  for (let i = 0; i < 2; i++) {
    await lose(q, lost.id);
    t.same(await q.reconcile(), { requeued: 1, failed: 0 }, `lost ${i + 1}: queued again`);
  }
  await lose(q, lost.id);
  t.same(await q.reconcile(), { requeued: 0, failed: 1 }, 'lost a third time: no requeue left');
  const f = await get(h, lost.id);
  t.same([f.status, f.error?.message], ['failed', 'The job was lost from the work queue (Redis) 3 times; please submit it again']);
  t.equal(await input(lost.id), undefined);
});

t.test('shared: orphans and a gone node\'s request jobs are failed; queued, running and a live node\'s jobs are left; two nodes at once settle each once', { skip: missing }, async (t) => {
  const { h, node } = await shared(t, 3);
  const other = await h.another();
  t.teardown(() => other.close());
  const a = await node('A'); // takes no work
  const b = await node('B', other.jobs);
  await b.start();
  await (await node('C', other.jobs)).start(); // a live node that runs no reconciler here
  const { job: orphan } = await h.jobs.create({ family: 'receipt' }); // its node died before queueing it
  const { job: queued } = await h.jobs.create({ family: 'receipt' });
  await a.submit(echo, queued.id, { json: { v: 1 }, bytes: {} });
  const { job: running } = await h.jobs.create({ family: 'receipt' });
  await a.submit(hang, running.id, { json: {}, bytes: {} });
  const { job: gone } = await h.jobs.create({ family: 'receipt' });
  const { job: live } = await h.jobs.create({ family: 'receipt' });
  await h.pg!.query("insert into job_inputs (job_id, runner, sealed) values ($1, 'local:ghost', ''), ($2, 'local:C', '')", [gone.id, live.id]);
  await until(async () => hangs.length, (n) => n > 0);
  h.clock.advance(STALE + 1);
  other.clock.advance(STALE + 1);
  const passes = await Promise.all([a.reconcile(), b.reconcile(), a.reconcile()]);
  t.equal(passes.reduce((n, p) => n + p.failed, 0), 2, 'two jobs failed over three passes at once');
  t.match((await get(h, orphan.id)).error?.message, /never queued, or its node stopped/);
  t.match((await get(h, gone.id)).error?.message, /on node ghost ended while the storage was unreachable, or the node stopped/);
  t.equal((await get(h, live.id)).status, 'processing', 'a live node\'s request job is left to that node');
  t.equal((await get(h, running.id)).status, 'processing', 'a running job is left');
  t.equal((await until(() => get(h, queued.id), (j) => j.status !== 'processing')).status, 'completed', 'the queued job ran');
});

t.test('embedded: a job whose outcome could not be written is failed once stale; a running one is left', async (t) => {
  const h = await openJobs('embedded');
  t.teardown(async () => {
    hangs.splice(0).forEach((r) => r());
    await h.jobs.drain(1000);
    await h.close();
  });
  const q = new LocalJobQueue<Node>({ jobs: h.jobs, services: { clock: h.clock, outageMs: 0 } }, { staleMs: STALE });
  const { complete, fail } = { complete: h.jobs.complete.bind(h.jobs), fail: h.jobs.fail.bind(h.jobs) };
  h.jobs.complete = async () => { throw new Error('MDB_MAP_FULL: the store is full'); };
  h.jobs.fail = async () => { throw new Error('MDB_MAP_FULL: the store is full'); };
  const { job } = await h.jobs.create({ family: 'receipt' });
  await q.submit(echo, job.id, { json: { v: 1 }, bytes: {} });
  await until(async () => h.jobs.isRunning(job.id), (r) => !r);
  h.jobs.complete = complete;
  h.jobs.fail = fail;
  const { job: running } = await h.jobs.create({ family: 'receipt' });
  await q.submit(hang, running.id, { json: {}, bytes: {} });
  t.equal((await get(h, job.id)).status, 'processing', 'the outcome was not written');
  t.same(await q.reconcile(), { requeued: 0, failed: 0 }, 'not stale yet');
  h.clock.advance(STALE + 1);
  t.same(await q.reconcile(), { requeued: 0, failed: 1 });
  t.match((await get(h, job.id)).error?.message, /stopped without a recorded outcome/);
  t.equal((await get(h, running.id)).status, 'processing', 'the running job is left');
});

t.test('reconcileAction: the decision table', async (t) => {
  const base = { stale: true, runningHere: false, maxRequeues: 2, liveNodes: new Set(['A', 'B']), node: 'A' };
  t.same(reconcileAction({ ...base, runningHere: true, queued: { state: 'failed' } }), { do: 'leave' }, 'running here');
  t.same(reconcileAction({ ...base, stale: false, queued: { state: 'failed', failedReason: 'x', attemptsMade: 3 } }), { do: 'fail', message: 'The job was given up after 3 attempts: x; please submit it again' }, 'BullMQ gave up: no grace needed');
  t.same(reconcileAction({ ...base, queued: { state: 'pending' } }), { do: 'leave' }, 'queued');
  t.same(reconcileAction({ ...base, stale: false }), { do: 'leave' }, 'fresh');
  t.same(reconcileAction({ ...base, input: { runner: 'receipt', requeues: 1 } }), { do: 'requeue' });
  t.equal(reconcileAction({ ...base, input: { runner: 'receipt', requeues: 2 } }).do, 'fail');
  t.same(reconcileAction({ ...base, input: { runner: 'local:B', requeues: 0 } }), { do: 'leave' }, 'a live node\'s request');
  t.equal(reconcileAction({ ...base, input: { runner: 'local:A', requeues: 0 } }).do, 'fail', 'this node\'s request, not running here');
  t.equal(reconcileAction({ ...base, input: { runner: 'local:C', requeues: 0 } }).do, 'fail', 'a gone node\'s request');
  t.equal(reconcileAction({ stale: true, runningHere: false, maxRequeues: 0 }).do, 'fail', 'embedded');
});
