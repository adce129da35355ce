// The JobQueue contract, run against both queues: in-process (embedded) and BullMQ over a private Redis with inputs
// sealed in a private PostgreSQL (shared). Shared mode also: a job submitted by one node runs on another, a node killed
// mid-job leaves its job to another node (stalled recovery), and a job is failed with a reason after N attempts.
// Here the "nodes" share one job engine (the job records of a fleet are shared: fleet-jobs' PostgreSQL engine).
import t from 'tap';
import crypto from 'node:crypto';
import type { JobEngine, JobRecord } from '../../src/jobs/engine.js';
import { ApiError } from '../../src/domain/errors.js';
import { defineRunner, runnerNamed, type JobInput } from '../../src/jobs/runners.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { LocalJobQueue } from '../../src/jobs/queue-local.js';
import { BullJobQueue } from '../../src/jobs/queue-bullmq.js';
import { connectQueueRedis } from '../../src/shared/redis.js';
import { enginesMissing, startRedis } from '../helpers/engines.js';
import { openJobs, type JobsHarness } from '../helpers/jobs.js';

interface Node {
  name: string;
}

/** echoes its input: the JSON, a hash of each byte buffer, the node and the attempt */
const echo = defineRunner<JobInput<{ text: string; n: number }, 'a' | 'b'>, Node>('test-echo', async (input, ctx) => {
  await ctx.progress(0.5, { half: true });
  const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
  return {
    result: { text: input.json.text, n: input.json.n, a: sha(input.bytes.a), b: sha(input.bytes.b), node: ctx.services.name, attempt: ctx.attempt },
    blobs: { out: { bytes: Buffer.concat([input.bytes.a, input.bytes.b]), contentType: 'application/octet-stream' } },
  };
});

const refuse = defineRunner<JobInput<{ field: string }, never>, Node>('test-refuse', async (input) => {
  throw new ApiError('INVALID_REQUEST', `Expected something else for ${input.json.field}`, { field: input.json.field });
});

/** hangs on attempts listed in `hangOn` (until released), completes on the others */
const hangs: Array<() => void> = [];
const flaky = defineRunner<JobInput<{ hangOn: number[] }, never>, Node>('test-flaky', async (input, ctx) => {
  if (input.json.hangOn.includes(ctx.attempt)) await new Promise<void>((r) => hangs.push(r));
  return { result: { node: ctx.services.name, attempt: ctx.attempt } };
});
const releaseHangs = () => hangs.splice(0).forEach((r) => r());

// the compiler checks a submit's input against its runner's input type
export function typeChecks(q: JobQueue<Node>): void {
  // @ts-expect-error the JSON lacks n
  void q.submit(echo, 'x', { json: { text: 'a' }, bytes: { a: Buffer.alloc(1), b: Buffer.alloc(1) } });
  // @ts-expect-error a byte buffer is missing
  void q.submit(echo, 'x', { json: { text: 'a', n: 1 }, bytes: { a: Buffer.alloc(1) } });
  // @ts-expect-error a JSON member of another type
  void q.submit(echo, 'x', { json: { text: 'a', n: '1' }, bytes: { a: Buffer.alloc(1), b: Buffer.alloc(1) } });
  // @ts-expect-error bytes are Buffers, not strings
  void q.submit(echo, 'x', { json: { text: 'a', n: 1 }, bytes: { a: 'text', b: Buffer.alloc(1) } });
}

/** waits (bounded) until the job has ended */
async function ended(jobs: JobEngine, id: string, ms = 60_000): Promise<JobRecord> {
  const until = Date.now() + ms;
  for (;;) {
    const j = (await jobs.get(id))!;
    if (j.status !== 'processing' || Date.now() > until) return j;
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Fleet {
  jobs: JobEngine;
  node(name: string, opts?: { attempts?: number }): Promise<JobQueue<Node>>;
  inputRows(): Promise<number>;
  storedInput(id: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

async function embeddedFleet(): Promise<Fleet> {
  const h = await openJobs('embedded');
  return {
    jobs: h.jobs,
    node: async (name) => new LocalJobQueue<Node>({ jobs: h.jobs, services: { name } }),
    inputRows: async () => 0,
    storedInput: async () => undefined,
    close: async () => { await h.jobs.drain(1000); await h.close(); },
  };
}

/** nodes of a fleet: each its own engine on the same PostgreSQL records (the first is the harness's) and queue */
async function sharedFleet(): Promise<Fleet> {
  const h = await openJobs('shared');
  const pg = h.pg!;
  const redis = await startRedis();
  const queues: Array<BullJobQueue<Node>> = [];
  const others: JobsHarness[] = [];
  return {
    jobs: h.jobs,
    async node(name, opts = {}) {
      const jobs = queues.length === 0 ? h.jobs : others[others.push(await h.another()) - 1]!.jobs;
      const q = await BullJobQueue.open<Node>({ jobs, services: { name } }, {
        pg, connect: () => connectQueueRedis(redis.url, 5000), node: name, concurrency: 4,
        attempts: opts.attempts ?? 3, lockMs: 1000, stalledMs: 300, timeoutMs: 5000,
      });
      queues.push(q);
      return q;
    },
    inputRows: async () => Number((await pg.query('select count(*) as n from job_inputs')).rows[0].n),
    storedInput: async (id) => (await pg.query('select sealed from job_inputs where job_id = $1', [id])).rows[0]?.sealed,
    async close() {
      hangs.splice(0); // runs still hanging are abandoned with their (dead) node
      for (const q of queues) await q.close({ drain: false });
      for (const o of [...others, h]) {
        await o.jobs.drain(1000);
        await o.close();
      }
      void redis.remove(); // SIGKILL now; the helper's child is unref'd, so its exit is not awaited
    },
  };
}

const missing = enginesMissing();
const MODES: Array<['embedded' | 'shared', () => Promise<Fleet>]> = [['embedded', embeddedFleet], ['shared', sharedFleet]];

/**
 * The job's input rows once a job has ended: the row is deleted right after the end (completion or failure) is
 * recorded, so a test that saw the end waits for the delete (bounded, ≤ 10 s), then counts (CI run of acfbac9 counted
 * 1 in the gap between the two writes).
 */
async function inputRowsAfterEnd(f: { inputRows(): Promise<number> }): Promise<number> {
  for (let i = 0; i < 400 && (await f.inputRows()) > 0; i++) await new Promise((r) => setTimeout(r, 25));
  return f.inputRows();
}

t.test('runners are registered by name', async (t) => {
  t.equal(runnerNamed('test-echo'), echo);
  t.equal(runnerNamed('no-such-runner'), undefined);
});

for (const [mode, open] of MODES) {
  t.test(`queue contract: ${mode}`, { skip: mode === 'shared' ? missing : undefined }, async (t) => {
    const f = await open();
    t.teardown(() => f.close());
    const q = await f.node('A');
    await q.start();
    t.equal(q.kind, mode === 'shared' ? 'bullmq' : 'local');

    const a = crypto.randomBytes(200_000);
    const b = Buffer.from('second buffer');
    const { job } = await f.jobs.create({ family: 'receipt' });
    await q.submit(echo, job.id, { json: { text: '한글 text', n: 42 }, bytes: { a, b } });
    if (mode === 'shared') {
      const stored = await f.storedInput(job.id);
      if (stored) t.equal(stored.includes(a.subarray(0, 64)), false, 'the stored input is sealed (no plain bytes)');
    }
    const done = await ended(f.jobs, job.id);
    t.equal(done.status, 'completed');
    t.same(done.result, {
      text: '한글 text', n: 42, node: 'A', attempt: 1,
      a: crypto.createHash('sha256').update(a).digest('hex'), b: crypto.createHash('sha256').update(b).digest('hex'),
    }, 'JSON and byte buffers arrive intact');
    t.equal(done.progress, 1);
    t.equal(done.meta.half, true, 'progress meta reported');
    t.same((await f.jobs.blob(done, 'out')).bytes, Buffer.concat([a, b]), 'blobs stored');

    const { job: bad } = await f.jobs.create({ family: 'receipt' });
    await q.submit(refuse, bad.id, { json: { field: 'imageUrl' }, bytes: {} });
    const failed = await ended(f.jobs, bad.id);
    t.equal(failed.status, 'failed');
    t.same(failed.error, { code: 'INVALID_REQUEST', message: 'Expected something else for imageUrl', field: 'imageUrl' }, 'an ApiError keeps its code and field');

    const { job: sync } = await f.jobs.create({ family: 'ekyc_enhance' });
    const here = await q.runHere(refuse, sync.id, { json: { field: 'image' }, bytes: {} });
    t.equal((here.thrown as ApiError).code, 'INVALID_REQUEST', 'runHere gives back what the runner threw');
    t.equal((await f.jobs.get(sync.id))!.status, 'failed', 'and the job is failed when it resolves');

    t.equal(await inputRowsAfterEnd(f), 0, 'no input row is left once the jobs ended');
  });
}

t.test('shared: a job submitted on node A runs on node B', { skip: missing }, async (t) => {
  const f = await sharedFleet();
  t.teardown(() => f.close());
  const a = await f.node('A'); // accepts requests, runs no worker (or its worker is closed)
  const b = await f.node('B');
  const { job } = await f.jobs.create({ family: 'receipt' });
  await a.submit(echo, job.id, { json: { text: 'x', n: 1 }, bytes: { a: Buffer.from('a'), b: Buffer.from('b') } });
  t.equal(await f.inputRows(), 1, 'the input is stored until the job ends');
  await b.start();
  const done = await ended(f.jobs, job.id);
  t.equal(done.status, 'completed');
  t.equal(done.result?.node, 'B');
  t.equal(await inputRowsAfterEnd(f), 0, 'the input row is gone once the job ended');
});

t.test('shared: a node killed mid-job → another node takes the job again and completes it', { skip: missing }, async (t) => {
  const f = await sharedFleet();
  t.teardown(() => f.close());
  const a = await f.node('A');
  await a.start();
  const { job } = await f.jobs.create({ family: 'receipt' });
  await a.submit(flaky, job.id, { json: { hangOn: [1] }, bytes: {} });
  while (hangs.length === 0) await new Promise((r) => setTimeout(r, 20)); // A is running it
  await a.close({ drain: false }); // A dies: its lock is no longer renewed
  const b = await f.node('B');
  await b.start();
  const done = await ended(f.jobs, job.id);
  t.equal(done.status, 'completed', 'completed by the other node');
  t.same(done.result, { node: 'B', attempt: 2 });
  releaseHangs(); // A's stranded run ends now: the engine completes only a processing job, so nothing changes
  await f.jobs.drain(10_000); // A's engine (the harness's): waits for that run
  t.same((await f.jobs.get(job.id))!.result, { node: 'B', attempt: 2 }, 'a second completion changes nothing');
  t.equal(await inputRowsAfterEnd(f), 0);
});

t.test('shared: a job whose every run dies with its node is failed with a reason after N attempts', { skip: missing }, async (t) => {
  const f = await sharedFleet();
  t.teardown(() => f.close());
  const { job } = await f.jobs.create({ family: 'receipt' });
  const first = await f.node('A', { attempts: 2 });
  await first.submit(flaky, job.id, { json: { hangOn: [1, 2, 3, 4] }, bytes: {} });
  let q = first;
  for (let i = 0; i < 2; i++) {
    await q.start();
    while (hangs.length <= i) await new Promise((r) => setTimeout(r, 20));
    await q.close({ drain: false });
    q = await f.node(`N${i}`, { attempts: 2 });
  }
  await q.start();
  const done = await ended(f.jobs, job.id);
  t.equal(done.status, 'failed', 'never left processing');
  t.equal(done.error?.code, 'INTERNAL_ERROR');
  t.match(done.error?.message, /given up after 2 attempts: each run stopped with its node/);
  t.equal(await inputRowsAfterEnd(f), 0, 'the input row is deleted when the job ends');
});

t.test('shared: a job left processing with nothing to run it is failed by a starting node; queued ones are not', { skip: missing }, async (t) => {
  const f = await sharedFleet();
  t.teardown(() => f.close());
  const a = (await f.node('A')) as BullJobQueue<Node>;
  const { job: orphan } = await f.jobs.create({ family: 'receipt' }); // its node died before queueing it
  const { job: queued } = await f.jobs.create({ family: 'receipt' });
  await a.submit(echo, queued.id, { json: { text: 'q', n: 1 }, bytes: { a: Buffer.from('a'), b: Buffer.from('b') } }); // no worker yet
  t.equal(await a.failOrphans(50), 1, 'one orphan');
  const o = (await f.jobs.get(orphan.id))!;
  t.equal(o.status, 'failed');
  t.match(o.error?.message, /stopped while this job was processing/);
  t.equal((await f.jobs.get(queued.id))!.status, 'processing', 'the queued job is left to the queue');
  await a.start();
  t.equal((await ended(f.jobs, queued.id)).status, 'completed');
});
