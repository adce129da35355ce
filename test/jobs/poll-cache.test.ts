// The status poll of a finished job is answered from the node's memory: no repository read and no cipher after the
// first read (also on another node of a fleet), while a job still processing is read fresh on every poll, expiry
// answers 410 from the cache, and a wrong caller is refused as before (401 wrong access key, 404 other owner).
import t, { type Test } from 'tap';
import { openJobs, MODES, modeSkip, type JobsHarness, type Mode } from '../helpers/jobs.js';
import type { Principal } from '../../src/domain/principal.js';
import { sha256 } from '../../src/jobs/ids.js';

const owner: Principal = { kind: 'key', keyId: 'k' };

/** counts of repository reads and unseal calls on one engine (spies on the instances; production code untouched) */
function spy(h: JobsHarness): { reads: () => number; unseals: () => number } {
  let reads = 0;
  let unseals = 0;
  const repo = h.jobs.repo;
  const get = repo.get.bind(repo);
  repo.get = (id) => ((reads++), get(id));
  const sealer = h.jobs.sealer;
  const unsealValue = sealer.unsealValue.bind(sealer);
  sealer.unsealValue = ((v: unknown) => ((unseals++), unsealValue(v))) as typeof sealer.unsealValue;
  return { reads: () => reads, unseals: () => unseals };
}

for (const mode of MODES) {
  t.test(mode, { skip: modeSkip(mode) }, async (t) => {
    await suite(t, mode);
  });
}

async function suite(t: Test, mode: Mode) {
  t.test('a processing job is read fresh on every poll; once finished, polls cost no read and no unseal', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job, accessKey } = await h.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
    const s = spy(h);
    t.equal((await h.jobs.read(owner, job.id, 'txt2img')).status, 'processing');
    await h.jobs.progress(job.id, 0.4);
    t.equal((await h.jobs.read(owner, job.id, 'txt2img')).progress, 0.4, 'a progress change is seen');
    t.equal(s.reads(), 2, 'each poll of a processing job read the repository');
    await h.jobs.complete(job.id, { result: { width: 512, name: '홍길동' }, blobs: { image: { bytes: Buffer.from('png'), contentType: 'image/png' } } });
    const readsAfterComplete = s.reads();
    const unsealsAfterComplete = s.unseals();
    for (let i = 0; i < 5; i++) {
      const j = await h.jobs.read(owner, job.id, 'txt2img');
      t.equal(j.status, 'completed');
      t.same(j.result, { width: 512, name: '홍길동' }, 'the result, unsealed');
      t.equal(j.sealedResult, undefined, 'callers never see the sealed bytes');
    }
    const tokenHolder: Principal = { kind: 'token', token: accessKey, tokenHash: sha256(accessKey) };
    t.equal((await h.jobs.read(tokenHolder, job.id, 'txt2img')).status, 'completed', 'the access key (digest from the auth step) reads');
    t.equal((await h.jobs.read({ kind: 'token', token: accessKey }, job.id, 'txt2img')).status, 'completed', 'the access key without a digest reads');
    t.equal(s.reads() - readsAfterComplete, 0, 'no repository read for 7 polls of the finished job (this node finished it)');
    t.equal(s.unseals() - unsealsAfterComplete, 0, 'no unseal for 7 polls');
  });

  t.test('a caller changing the record it got does not change the next answer', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job } = await h.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
    await h.jobs.complete(job.id, { result: { width: 512 } });
    const a = await h.jobs.read(owner, job.id, 'txt2img');
    a.status = 'failed';
    a.expiresAt = 0;
    const b = await h.jobs.read(owner, job.id, 'txt2img');
    t.equal(b.status, 'completed');
    t.ok(b.expiresAt! > h.clock.now());
  });

  t.test('wrong callers of a cached finished job: 401 for a wrong access key, 404 for another owner or family', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job, accessKey } = await h.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
    await h.jobs.complete(job.id, { result: {} });
    t.equal((await h.jobs.read(owner, job.id, 'txt2img')).status, 'completed', 'cached now');
    await t.rejects(h.jobs.read({ kind: 'token', token: 'wrong-key' }, job.id, 'txt2img'), { code: 'INVALID_API_KEY', status: 401 });
    const other = accessKey.slice(0, -1) + (accessKey.endsWith('A') ? 'B' : 'A');
    await t.rejects(h.jobs.read({ kind: 'token', token: other, tokenHash: sha256(other) }, job.id, 'txt2img'), { code: 'INVALID_API_KEY', status: 401 }, 'one character off');
    await t.rejects(h.jobs.read({ kind: 'token', token: other, tokenHash: sha256(accessKey).slice(0, 40) }, job.id, 'txt2img'), { code: 'INVALID_API_KEY' }, 'a truncated digest never matches');
    await t.rejects(h.jobs.read({ kind: 'key', keyId: 'someone-else' }, job.id, 'txt2img'), { code: 'JOB_NOT_FOUND', status: 404 });
    await t.rejects(h.jobs.read(owner, job.id, 'caric'), { code: 'JOB_NOT_FOUND', status: 404 }, 'other family');
    await t.rejects(h.jobs.read({ kind: 'anonymous' }, job.id, 'txt2img'), { code: 'INVALID_API_KEY', status: 401 });
  });

  t.test('expiry of a cached finished job answers 410 IMAGE_EXPIRED, before and after the sweep', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job } = await h.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
    await h.jobs.complete(job.id, { result: { w: 1 }, blobs: { image: { bytes: Buffer.from('png'), contentType: 'image/png' } } });
    t.equal((await h.jobs.read(owner, job.id, 'txt2img')).status, 'completed');
    h.clock.advance(3600_000 - 1);
    t.equal((await h.jobs.read(owner, job.id, 'txt2img')).status, 'completed', '1 ms before expiry');
    h.clock.advance(1);
    await t.rejects(h.jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 });
    await h.jobs.sweep();
    await t.rejects(h.jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 }, 'tombstone');
  });

  t.test('peekFinished: the cached record, synchronously, only where read() would answer it', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job, accessKey } = await h.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
    t.equal(h.jobs.peekFinished(owner, job.id, 'txt2img'), undefined, 'a processing job: nothing (read() answers it fresh)');
    await h.jobs.complete(job.id, { result: { width: 512 } });
    const j = h.jobs.peekFinished(owner, job.id, 'txt2img');
    t.equal(j?.status, 'completed', 'the finished job, without a promise');
    t.same(j?.result, { width: 512 }, 'its result, unsealed');
    t.equal(h.jobs.peekFinished({ kind: 'token', token: accessKey, tokenHash: sha256(accessKey) }, job.id, 'txt2img')?.id, job.id, 'the access key reads it');
    t.equal(h.jobs.peekFinished({ kind: 'admin', keyId: 'a' }, job.id, 'txt2img')?.id, job.id, 'the admin reads it');
    t.equal(h.jobs.peekFinished({ kind: 'key', keyId: 'other' }, job.id, 'txt2img'), undefined, 'another key: nothing (read() answers 404)');
    t.equal(h.jobs.peekFinished({ kind: 'token', token: 'wrong', tokenHash: sha256('wrong') }, job.id, 'txt2img'), undefined, 'a wrong access key: nothing (read() answers 401)');
    t.equal(h.jobs.peekFinished({ kind: 'anonymous' }, job.id, 'txt2img'), undefined, 'no caller: nothing');
    t.equal(h.jobs.peekFinished(owner, job.id, 'caric'), undefined, 'another family: nothing');
    t.equal(h.jobs.peekFinished(owner, 'txt2img_nope', 'txt2img'), undefined, 'an unknown id: nothing');
    h.clock.advance(3600_000);
    t.equal(h.jobs.peekFinished(owner, job.id, 'txt2img'), undefined, 'expired: nothing (read() answers 410)');
    await t.rejects(h.jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED' });
  });

  t.test('a failed job is cached too and keeps its error', async (t) => {
    const h = await openJobs(mode);
    t.teardown(h.close);
    const { job } = await h.jobs.create({ family: 'caric', owner: 'k', ttlHours: 1 });
    await h.jobs.fail(job.id, 'PROVIDER_ERROR', 'upstream said no', 'prompt');
    const s = spy(h);
    for (let i = 0; i < 3; i++) t.same((await h.jobs.read(owner, job.id, 'caric')).error, { code: 'PROVIDER_ERROR', message: 'upstream said no', field: 'prompt' });
    t.equal(s.reads(), 0, 'no repository read');
  });
}

t.test('fleet: another node sees state changes fresh and caches the completed job after one read', { skip: modeSkip('shared') }, async (t) => {
  const a = await openJobs('shared');
  const b = await a.another();
  t.teardown(async () => {
    await b.close();
    await a.close();
  });
  const { job, accessKey } = await a.jobs.create({ family: 'txt2img', owner: 'k', ttlHours: 1 });
  const s = spy(b);
  t.equal((await b.jobs.read(owner, job.id, 'txt2img')).status, 'processing', 'node b: processing');
  await a.jobs.progress(job.id, 0.6);
  t.equal((await b.jobs.read(owner, job.id, 'txt2img')).progress, 0.6, 'node b sees node a\'s progress');
  await a.jobs.complete(job.id, { result: { width: 64 }, blobs: { image: { bytes: Buffer.from('png'), contentType: 'image/png' } } });
  t.equal((await b.jobs.read(owner, job.id, 'txt2img')).status, 'completed', 'node b sees the completion at its next poll');
  const reads = s.reads();
  const unseals = s.unseals();
  t.equal(reads, 3, 'three polls, three reads (two while processing, one to learn it finished)');
  for (let i = 0; i < 5; i++) t.same((await b.jobs.read({ kind: 'token', token: accessKey }, job.id, 'txt2img')).result, { width: 64 });
  t.equal(s.reads() - reads, 0, 'node b: no database read for 5 more polls of the completed job');
  t.equal(s.unseals() - unseals, 0, 'and no unseal');
  await t.rejects(b.jobs.read({ kind: 'token', token: 'wrong' }, job.id, 'txt2img'), { code: 'INVALID_API_KEY', status: 401 }, 'node b: wrong key');
  b.clock.advance(3600_000);
  await t.rejects(b.jobs.read(owner, job.id, 'txt2img'), { code: 'IMAGE_EXPIRED', status: 410 }, 'node b: expired from its cache');
});
