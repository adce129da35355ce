// Two engines (two nodes of a fleet) over one PostgreSQL database: a completion and a failure racing on the two
// nodes end with exactly one winner; two sweepers at once tombstone (and later forget) each job exactly once;
// expiry answers 410 on every node, also on the node that cached the finished record.
import t from 'tap';
import { openJobs, modeSkip } from '../helpers/jobs.js';
import type { Principal } from '../../src/domain/principal.js';

const owner: Principal = { kind: 'key', keyId: 'k' };

t.test('two nodes on one database', { skip: modeSkip('shared') }, async (t) => {
  const a = await openJobs('shared');
  const b = await a.another();
  t.teardown(async () => {
    await b.close();
    await a.close();
  });

  t.test('complete on one node and fail on the other: exactly one wins', async (t) => {
    const finishedA: string[] = [];
    const finishedB: string[] = [];
    a.jobs.onFinished((j) => finishedA.push(`${j.id}:${j.status}`));
    b.jobs.onFinished((j) => finishedB.push(`${j.id}:${j.status}`));
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await a.jobs.create({ family: 'receipt', owner: 'k' })).job.id);
    const outcomes = await Promise.all(ids.map(async (id, i) => {
      const png = { image: { bytes: Buffer.from(`img-${i}`), contentType: 'image/png' } };
      // alternate who starts first, so both orders race
      const [x, y] = await Promise.all(i % 2
        ? [a.jobs.complete(id, { result: { n: i }, blobs: png }), b.jobs.fail(id, 'INTERNAL_ERROR', 'node b gave up')]
        : [b.jobs.fail(id, 'INTERNAL_ERROR', 'node b gave up'), a.jobs.complete(id, { result: { n: i }, blobs: png })]);
      return { id, x: x!.status, y: y!.status, stored: (await b.jobs.get(id))!.status };
    }));
    for (const o of outcomes) {
      t.equal(o.x, o.stored, `${o.id}: both callers see the winner's state`);
      t.equal(o.y, o.stored);
    }
    const all = [...finishedA, ...finishedB];
    t.equal(all.length, ids.length, 'one finished event per job, fleet-wide');
    t.equal(new Set(all.map((s) => s.split(':')[0])).size, ids.length, 'no job finished twice');
    const completed = outcomes.filter((o) => o.stored === 'completed');
    t.same(finishedA.map((s) => s.split(':')[1]).filter((s) => s !== 'completed'), [], 'node a only completes');
    t.same(finishedB.map((s) => s.split(':')[1]).filter((s) => s !== 'failed'), [], 'node b only fails');
    for (const o of completed) t.equal((await b.jobs.blob((await b.jobs.read(owner, o.id, 'receipt')))).contentType, 'image/png', 'a completed result reads on the other node');
  });

  t.test('progress is monotonic across nodes and stops at the finish', async (t) => {
    const { job } = await a.jobs.create({ family: 'analyze', owner: 'k' });
    await Promise.all([a.jobs.progress(job.id, 0.7), b.jobs.progress(job.id, 0.3), b.jobs.progress(job.id, 0.5)]);
    t.equal((await b.jobs.get(job.id))!.progress, 0.7, 'the highest value stays');
    await b.jobs.complete(job.id, { result: {} });
    await a.jobs.progress(job.id, 0.9);
    const j = (await a.jobs.get(job.id))!;
    t.equal(j.status, 'completed');
    t.equal(j.progress, 1, 'a late progress does not touch a finished job');
  });

  t.test('two sweepers at once: each job tombstoned once, forgotten once; expiry holds on every node', async (t) => {
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      const { job } = await a.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
      await a.jobs.complete(job.id, { result: { i }, blobs: { image: { bytes: Buffer.from(`p${i}`), contentType: 'image/png' } } });
      ids.push(job.id);
    }
    const probe = ids[0]!;
    t.equal((await b.jobs.read(owner, probe, 'txt2img')).status, 'completed', 'node b reads (and caches) the finished job');
    a.clock.advance(3600_000);
    b.clock.advance(3600_000);
    await t.rejects(b.jobs.read(owner, probe, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 }, 'expired on node b from its cache, before any sweep');
    await t.rejects(a.jobs.read(owner, probe, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 }, 'and on node a');
    const [sa, sb] = await Promise.all([a.jobs.sweep(), b.jobs.sweep()]);
    t.equal(sa.expired + sb.expired, 150, `each job tombstoned once (a ${sa.expired}, b ${sb.expired})`);
    t.equal(sa.forgotten + sb.forgotten, 0);
    t.equal(await a.blobs.get(`${probe}/image`), undefined, 'blobs deleted');
    await t.rejects(b.jobs.read(owner, probe, 'txt2img'), { code: 'IMAGE_EXPIRED' }, 'a tombstone still answers 410 on node b');
    a.clock.advance(86400_000 + 1);
    b.clock.advance(86400_000 + 1);
    const [fa, fb] = await Promise.all([a.jobs.sweep(), b.jobs.sweep()]);
    t.equal(fa.forgotten + fb.forgotten, 150, `each tombstone forgotten once (a ${fa.forgotten}, b ${fb.forgotten})`);
    await t.rejects(b.jobs.read(owner, probe, 'txt2img'), { code: 'JOB_NOT_FOUND', status: 404 }, 'forgotten: 404 on node b too');
  });

  t.test('a processing job of another node is listed for the queue, never failed by a starting node', async (t) => {
    const { job } = await a.jobs.create({ family: 'caric', owner: 'k' });
    b.clock.advance(10 * 60_000);
    t.ok((await b.jobs.processingIds(5 * 60_000)).includes(job.id), 'older than 5 min on node b\'s clock');
    t.equal((await b.jobs.get(job.id))!.status, 'processing');
  });
});
