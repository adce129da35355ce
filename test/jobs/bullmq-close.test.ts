// Closing BullMQ workers is bounded (src/jobs/bullmq-close.ts): a worker whose Redis never answers (BullMQ's
// close would wait for ever, taskforcesh/bullmq#4656) is ended by force and reported as such; a worker on a live
// Redis closes by itself. And the node's own close after Redis went away and came back finishes (the fleet-keys hang).
import t from 'tap';
import { Redis } from 'ioredis';
import { Queue, Worker } from 'bullmq';
import { closeQueue, closeWorker, keepDuplicates, settlesWithin } from '../../src/jobs/bullmq-close.js';
import { enginesMissing, freePort, startRedis } from '../helpers/engines.js';

t.test('settlesWithin', async (t) => {
  t.equal(await settlesWithin(Promise.resolve(1), 1000), true, 'a settled promise');
  t.equal(await settlesWithin(Promise.reject(new Error('x')), 1000), true, 'a rejected one counts as settled');
  t.equal(await settlesWithin(new Promise(() => undefined), 50), false, 'one that never settles');
});

t.test('a worker whose Redis never answers is closed by force', async (t) => {
  const port = await freePort(); // nothing listens there
  const conn = () => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: null, lazyConnect: false, retryStrategy: () => 200 }).on('error', () => undefined);
  const mine = [conn(), conn()];
  t.teardown(() => mine.forEach((c) => c.disconnect()));
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const made: Redis[] = [];
  const w = new Worker('never', async () => 'x', { connection: keepDuplicates(mine[0]!, made), autorun: true });
  w.on('error', () => undefined);
  const q = new Queue('never', { connection: mine[1]! });
  q.on('error', () => undefined);
  await new Promise((r) => setTimeout(r, 300));
  t.equal(await closeWorker(w, false, 500, made), false, 'the close did not finish by itself: the connections were dropped');
  t.ok(made.length >= 1, 'BullMQ made its blocking connection from ours');
  t.equal(await closeQueue(q, 500), true, 'a queue with nothing pending closes');
  for (const c of mine) c.disconnect();
  // the connections' own short timers end by themselves; a re-arming one (a lock renewal) never would. Were one
  // left, it would also keep this test file from ending (tap's timeout)
  for (let i = 0; i < 100 && timers() > before; i++) await new Promise((r) => setTimeout(r, 30));
  t.equal(timers(), before, 'no timer of the worker is left running (its lock renewal, its stalled check)');
});

t.test('a worker on a live Redis closes by itself', { skip: enginesMissing() }, async (t) => {
  const redis = await startRedis();
  t.teardown(() => redis.remove());
  const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  const q = new Queue('live', { connection: conn });
  let ran = 0;
  const w = new Worker('live', async (j) => { ran++; return j.data.n * 2; }, { connection: conn });
  await q.add('x', { n: 21 });
  for (let i = 0; i < 200 && ran === 0; i++) await new Promise((r) => setTimeout(r, 25));
  t.equal(ran, 1, 'the job ran');
  t.equal(await closeWorker(w, false, 5000), true);
  t.equal(await closeQueue(q, 5000), true);
  conn.disconnect();
});
