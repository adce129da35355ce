import t, { type Test } from 'tap';
import { openJobs, MODES, modeSkip, type Mode } from '../helpers/jobs.js';
import type { Principal } from '../../src/domain/principal.js';

const ctxFor = (principal: Principal): Principal => principal;

// every test runs against both repositories (embedded LMDB and shared PostgreSQL): the rules are the engine's
for (const mode of MODES) {
  t.test(mode, { skip: modeSkip(mode) }, async (t) => {
    await suite(t, mode);
  });
}

async function suite(t: Test, mode: Mode) {
const open = () => openJobs(mode);
t.test('ids, access keys, families, owners', async (t) => {
  const { jobs, close } = await open();
  t.teardown(close);
  const { job, accessKey } = await jobs.create({ family: 'txt2img', owner: 'key_a', ttlHours: 1 });
  t.match(job.id, /^txt2img_20261122_[0-9a-z]{12}$/);
  t.equal(Buffer.from(accessKey, 'base64url').length, 32, 'access key is 32 random bytes');
  t.notOk(JSON.stringify(await jobs.get(job.id)).includes(accessKey), 'only the hash is stored');
  const { job: e } = await jobs.create({ family: 'ekyc_enhance' });
  t.match(e.id, /^ekyc-enhance-20261122-[0-9a-z]{12}$/);

  t.equal((await jobs.read(ctxFor({ kind: 'key', keyId: 'key_a' }), job.id, 'txt2img')).id, job.id, 'owner reads');
  t.equal((await jobs.read(ctxFor({ kind: 'token', token: accessKey }), job.id, 'txt2img')).id, job.id, 'access key reads');
  await t.rejects(jobs.read(ctxFor({ kind: 'key', keyId: 'key_a' }), job.id, 'caric'), { code: 'JOB_NOT_FOUND', status: 404 }, 'other family → 404');
  await t.rejects(jobs.read(ctxFor({ kind: 'key', keyId: 'key_b' }), job.id, 'txt2img'), { code: 'JOB_NOT_FOUND' }, 'other owner → 404');
  await t.rejects(jobs.read(ctxFor({ kind: 'token', token: 'nope' }), job.id, 'txt2img'), { code: 'INVALID_API_KEY', status: 401 });
  await t.rejects(jobs.read(ctxFor({ kind: 'key', keyId: 'key_a' }), 'txt2img_20261122_unknown', 'txt2img'), { code: 'JOB_NOT_FOUND' });
  t.equal((await jobs.readByAccessKey(accessKey, 'txt2img', 'key')).id, job.id);
  await t.rejects(jobs.readByAccessKey(accessKey, 'studio_skin', 'key'), { code: 'JOB_NOT_FOUND' });
});

t.test('complete, progress, expiry → 410 with tombstone, sweep deletes blobs', async (t) => {
  const { jobs, clock, blobs, close } = await open();
  t.teardown(close);
  const owner = ctxFor({ kind: 'key', keyId: 'k' });
  const { job } = await jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1, estimatedCost: 0.04 });
  await jobs.progress(job.id, 0.5);
  await jobs.progress(job.id, 0.2);
  t.equal((await jobs.get(job.id))!.progress, 0.5, 'progress never goes back');
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  await jobs.complete(job.id, { result: { w: 1 }, blobs: { image: { bytes: png, contentType: 'image/png' } } });
  const done = await jobs.read(owner, job.id, 'txt2img');
  t.equal(done.status, 'completed');
  t.equal(done.progress, 1);
  t.equal(done.actualCost, 0.04, 'actual cost defaults to the estimate');
  t.same((await jobs.blob(done)).bytes, png);
  t.equal(done.expiresAt, clock.now() + 3600_000);

  clock.advance(3600_000 - 1);
  t.equal((await jobs.read(owner, job.id, 'txt2img')).status, 'completed', 'still valid 1 ms before expiry');
  clock.advance(1);
  await t.rejects(jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 }, 'expired → 410 before the sweep');
  const sw = await jobs.sweep();
  t.equal(sw.expired, 1);
  t.equal(await blobs.get(`${job.id}/image`), undefined, 'blob deleted');
  await t.rejects(jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED' }, 'tombstone still answers 410, not 404');
  clock.advance(86400_000 + 1);
  const sw2 = await jobs.sweep();
  t.equal(sw2.forgotten, 1, 'tombstone forgotten after its retention');
  await t.rejects(jobs.read(owner, job.id, 'txt2img'), { code: 'JOB_NOT_FOUND' });
});

t.test('run(): errors fail the job with a code; a crash-left job is failed on restart (embedded)', async (t) => {
  const o = await open();
  const { job } = await o.jobs.create({ family: 'analyze', owner: 'k' });
  await o.jobs.run(job.id, async () => {
    throw Object.assign(new Error('boom'), {});
  });
  const failed = (await o.jobs.get(job.id))!;
  t.equal(failed.status, 'failed');
  t.equal(failed.error!.code, 'INTERNAL_ERROR');
  await t.rejects(o.jobs.blob(failed), { code: 'JOB_FAILED' });

  const { job: stuck } = await o.jobs.create({ family: 'receipt', owner: 'k' });
  o.clock.advance(60_000);
  t.same(await o.jobs.processingIds(30_000), [stuck.id], 'processing ids older than 30 s (for the queue)');
  t.same(await o.jobs.processingIds(120_000), [], 'none older than 2 min');
  if (mode === 'shared') {
    await o.close();
    return; // shared mode: a starting node does not fail other nodes' jobs (start.ts); the queue recovers them
  }
  await o.close(); // "crash": the job stays processing on disk
  const again = await openJobs(mode, { dir: o.dir });
  t.teardown(again.close);
  t.equal((await again.jobs.get(stuck.id))!.status, 'processing');
  t.equal(await again.jobs.recoverInterrupted(), 1);
  const rec = (await again.jobs.get(stuck.id))!;
  t.equal(rec.status, 'failed', 'marked failed, never left hanging');
  t.match(rec.error!.message, /server stopped/);
});

t.test('list: filter and cursor pagination', async (t) => {
  const { jobs, clock, close } = await open();
  t.teardown(close);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    clock.advance(1000);
    const { job } = await jobs.create({ family: i % 2 ? 'caric' : 'txt2img', owner: 'k' });
    ids.push(job.id);
  }
  await jobs.create({ family: 'txt2img', owner: 'other' });
  const p1 = await jobs.list('k', { limit: 2 });
  t.same(p1.jobs.map((j) => j.id), [ids[4], ids[3]], 'newest first');
  t.ok(p1.nextCursor);
  const p2 = await jobs.list('k', { limit: 2, cursor: p1.nextCursor });
  t.same(p2.jobs.map((j) => j.id), [ids[2], ids[1]]);
  const p3 = await jobs.list('k', { limit: 2, cursor: p2.nextCursor });
  t.same(p3.jobs.map((j) => j.id), [ids[0]]);
  t.equal(p3.nextCursor, undefined);
  t.same((await jobs.list('k', { limit: 10, family: 'caric' })).jobs.map((j) => j.id), [ids[3], ids[1]]);
  await t.rejects(jobs.list('k', { limit: 1, cursor: 'garbage' }), { code: 'INVALID_REQUEST', field: 'cursor' });
});

t.test('the access key can be recovered for result URLs, and only by this installation', async (t) => {
  const a = await open();
  const b = await open();
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const { job, accessKey } = await a.jobs.create({ family: 'studio_skin', owner: 'k' });
  t.equal(a.jobs.accessKeyOf((await a.jobs.get(job.id))!), accessKey);
  t.notOk(JSON.stringify(await a.jobs.get(job.id)).includes(accessKey), 'not stored in clear');
  t.equal(b.jobs.accessKeyOf((await a.jobs.get(job.id))!), undefined, 'another installation\'s key cannot open it');
});
}
