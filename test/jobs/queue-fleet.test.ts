// Two sejong nodes on one PostgreSQL + Redis (shared mode): a job accepted by node A runs on node B when A's worker is
// gone; a node killed mid-job leaves the job to the other node (stalled recovery); a job whose runs keep dying is
// failed with a reason after the attempt limit. Every job ends completed or failed, and reads the same on both nodes.
import t from 'tap';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';
import { enginesMissing } from '../helpers/engines.js';
import { receiptScene } from '../helpers/images.js';
import { defineRunner, type JobInput } from '../../src/jobs/runners.js';
import type { Services } from '../../src/services.js';
import type { BullJobQueue } from '../../src/jobs/queue-bullmq.js';

const hangs: Array<() => void> = [];
/** hangs on its first run (the node "dies" there), completes on the next */
const stubborn = defineRunner<JobInput<{ hangOn: number[] }, never>, Services>('test-fleet-stubborn', async (input, ctx) => {
  if (input.json.hangOn.includes(ctx.attempt)) await new Promise<void>((r) => hangs.push(r));
  return { result: { node: ctx.services.engines.mode === 'shared' ? ctx.services.engines.node : 'local', attempt: ctx.attempt } };
});

// the jobs here run stub runners under the receipt family: their results are not receipt answers, so the check of
// answers against the routes' response schemas (on in test servers) is off for these nodes
const FAST = { SEJONG_QUEUE_LOCK_MS: '1000', SEJONG_QUEUE_STALLED_MS: '300', SEJONG_VALIDATE_RESPONSES: '0' };

async function fleet(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}): Promise<[TestServer, () => Promise<TestServer>]> {
  const a = await startTestServer({ storage: 'shared', env: { ...FAST, SEJONG_NODE_NAME: 'node-a', ...env } });
  const started: TestServer[] = [a];
  t.teardown(async () => {
    hangs.splice(0).forEach((r) => r());
    for (const s of started.reverse()) await s.close();
  });
  const nodeB = async () => {
    const b = await startTestServer({ storage: 'shared', sharedEnv: a.sharedEnv, env: { ...FAST, SEJONG_NODE_NAME: 'node-b', ...env } });
    started.push(b);
    return b;
  };
  return [a, nodeB];
}

/** the nodes share job records and the installation sealer (else the fleet is not wired yet: skip) */
async function notAFleet(a: TestServer, b: TestServer): Promise<string | undefined> {
  const { job } = await a.services.jobs.create({ family: 'receipt' });
  if (!(await b.services.jobs.get(job.id))) return 'job records are per node here (the PostgreSQL job engine is not wired)';
  if (b.services.jobs.sealer.unseal(a.services.jobs.sealer.seal('x')) !== 'x') return 'each node has its own sealing key (the installation secret is not shared yet)';
  await a.services.jobs.fail(job.id, 'INTERNAL_ERROR', 'probe');
  return undefined;
}

async function ended(s: TestServer, id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 1200; i++) {
    const j = (await s.services.jobs.get(id))!;
    if (j.status !== 'processing') return j;
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await s.services.jobs.get(id))!;
}

const missing = enginesMissing();

t.test('a receipt job accepted by node A runs on node B once A\'s worker is closed; both nodes read it', { skip: missing }, async (t) => {
  const [a, nodeB] = await fleet(t);
  const b = await nodeB();
  const why = await notAFleet(a, b);
  t.equal(why, undefined, 'the two nodes share job records and the sealing key');
  if (why) return;
  await (a.services.queue as BullJobQueue<Services>).stopTaking(); // A accepts requests but runs no job
  const scene = await receiptScene({ angle: -10 });
  const r = await a.req('/api/v1/receipt/optimize', { method: 'POST', body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) });
  t.equal(r.status, 200);
  const c = (await r.json()) as { jobId: string; accessKey: string };
  await ended(b, c.jobId);
  for (const node of [a, b]) {
    const st = (await (await node.req(`/api/v1/receipt/status/${c.jobId}`, { key: a.apiKey })).json()) as any;
    t.equal(st.status, 'completed', 'completed, seen from either node');
    t.equal(st.details.dpi, 300);
    const img = await node.req(`/api/v1/receipt/image/${c.jobId}?key=${encodeURIComponent(c.accessKey)}`, { key: null });
    t.equal(img.status, 200, 'the image is readable from either node');
  }
});

t.test('node A killed mid-job: node B takes the job again and completes it', { skip: missing }, async (t) => {
  const [a, nodeB] = await fleet(t);
  const b = await nodeB();
  const why = await notAFleet(a, b);
  t.equal(why, undefined, 'the two nodes share job records and the sealing key');
  if (why) return;
  await b.services.queue.close(); // only A runs jobs at first
  const { job } = await a.services.jobs.create({ family: 'receipt', owner: a.apiKeyId });
  await a.services.queue.submit(stubborn, job.id, { json: { hangOn: [1] }, bytes: {} });
  while (hangs.length === 0) await new Promise((r) => setTimeout(r, 20));
  await a.services.queue.close({ drain: false }); // A dies mid-job: its lock lapses
  await b.services.queue.start(); // B's worker (a restarted node, or one that was busy)
  const j = await ended(b, job.id);
  t.equal(j.status, 'completed');
  t.same(j.result, { node: 'node-b', attempt: 2 });
  const st = (await (await a.req(`/api/v1/receipt/status/${job.id}`)).json()) as any;
  t.equal(st.status, 'completed', 'node A reads the completion');
});

t.test('a job whose every run dies is failed with a reason after SEJONG_QUEUE_ATTEMPTS', { skip: missing }, async (t) => {
  const [a, nodeB] = await fleet(t, { SEJONG_QUEUE_ATTEMPTS: '1' });
  const b = await nodeB();
  const why = await notAFleet(a, b);
  t.equal(why, undefined, 'the two nodes share job records and the sealing key');
  if (why) return;
  await b.services.queue.close();
  const { job } = await a.services.jobs.create({ family: 'receipt', owner: a.apiKeyId });
  await a.services.queue.submit(stubborn, job.id, { json: { hangOn: [1, 2, 3] }, bytes: {} });
  while (hangs.length === 0) await new Promise((r) => setTimeout(r, 20));
  await a.services.queue.close({ drain: false });
  await b.services.queue.start();
  const j = await ended(b, job.id);
  t.equal(j.status, 'failed', 'never left processing');
  const st = (await (await b.req(`/api/v1/receipt/status/${job.id}`, { key: a.apiKey })).json()) as any;
  t.equal(st.status, 'failed');
  t.equal(st.error.code, 'INTERNAL_ERROR');
  t.match(st.error.message, /given up after 1 attempt: each run stopped with its node/);
});

t.test('single node in shared mode: the job runs through the queue and its input row is deleted', { skip: missing }, async (t) => {
  const [a] = await fleet(t);
  t.equal(a.services.queue.kind, 'bullmq');
  const { job } = await a.services.jobs.create({ family: 'receipt', owner: a.apiKeyId });
  await a.services.queue.submit(stubborn, job.id, { json: { hangOn: [] }, bytes: {} });
  const j = await ended(a, job.id);
  t.equal(j.status, 'completed');
  t.same(j.result, { node: 'node-a', attempt: 1 });
  const engines = a.services.engines;
  if (engines.mode !== 'shared') throw new Error('shared mode expected');
  const rows = await engines.pg.query('select count(*)::int as n from job_inputs');
  t.equal(rows.rows[0].n, 0, 'no input row left');
});
