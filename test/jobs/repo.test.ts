// The repository contract, run against both implementations (embedded LMDB, shared PostgreSQL): job records,
// result blobs and e-KYC verification records behave the same whichever mode runs.
import t, { type Test } from 'tap';
import { openJobs, MODES, modeSkip, type Mode } from '../helpers/jobs.js';
import type { JobRecord } from '../../src/jobs/record.js';
import { LmdbVerificationStore, type VerificationRecord, type VerificationStore } from '../../src/store/verifications.js';
import { PgVerificationStore } from '../../src/store/verifications-pg.js';

const rec = (id: string, over: Partial<JobRecord> = {}): JobRecord => ({
  id, family: 'txt2img', owner: 'k', accessKeyHash: `hash-${id}`, status: 'processing', progress: 0,
  createdAt: 1000, updatedAt: 1000, ttlMs: 3600_000, meta: { a: 1 }, ...over,
});

for (const mode of MODES) t.test(mode, { skip: modeSkip(mode) }, (t) => contract(t, mode));

async function contract(t: Test, mode: Mode) {
  const h = await openJobs(mode);
  t.teardown(h.close);
  const { repo, blobs } = h;

  t.test('insert, get, by access key; a missing record', async (t) => {
    const j = rec('txt2img_20261122_aaaaaaaaaaa1', { sealedResult: Buffer.from([1, 2, 3]) });
    await repo.insert(j);
    const got = (await repo.get(j.id))!;
    t.same({ ...got, sealedResult: Buffer.from(got.sealedResult!) }, j, 'the record as stored (bytes kept)');
    t.equal((await repo.getByAccessKeyHash(j.accessKeyHash))!.id, j.id);
    t.equal(await repo.get('txt2img_20261122_nope'), undefined);
    t.equal(await repo.getByAccessKeyHash('nope'), undefined);
    got.meta.a = 2;
    t.equal((await repo.get(j.id))!.meta.a, 1, 'a returned record is a copy');
    await t.rejects(repo.insert(j), 'the same id twice is refused');
  });

  t.test('mutate: changed, unchanged, missing; indexes follow the record', async (t) => {
    const j = rec('caric_20261122_aaaaaaaaaaa2', { family: 'caric' });
    await repo.insert(j);
    t.same(await repo.processingByFamily(), { txt2img: 1, caric: 1 });
    const same = await repo.mutate(j.id, () => undefined);
    t.equal(same.changed, false);
    t.equal(same.job!.status, 'processing', 'unchanged: the record as it stands');
    t.same(await repo.mutate('caric_20261122_missing', (x) => x), { changed: false });
    const done = await repo.mutate(j.id, (x) => ({ ...x, status: 'completed', progress: 1, updatedAt: 2000, completedAt: 2000, expiresAt: 5000 }));
    t.equal(done.changed, true);
    t.equal(done.job!.status, 'completed');
    t.equal((await repo.get(j.id))!.expiresAt, 5000);
    t.same(await repo.processingByFamily(), { txt2img: 1 }, 'a finished job leaves the processing set');
    t.same(await repo.processingIds(), ['txt2img_20261122_aaaaaaaaaaa1']);
    t.same(await repo.processingIds(1000), [], 'updatedBefore is strict');
    t.same(await repo.processingIds(1001), ['txt2img_20261122_aaaaaaaaaaa1']);
  });

  t.test('pageByOwner: newest first, strictly after the cursor', async (t) => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const j = rec(`analyze_20261122_page0000000${i}`, { family: 'analyze', owner: 'pager', createdAt: 10_000 + i });
      await repo.insert(j);
      ids.push(j.id);
    }
    await repo.insert(rec('analyze_20261122_same00000000', { family: 'analyze', owner: 'pager', createdAt: 10_004 }));
    const p1 = await repo.pageByOwner('pager', undefined, 3);
    t.same(p1.map((j) => j.id), ['analyze_20261122_same00000000', 'analyze_20261122_page00000004', 'analyze_20261122_page00000003'], 'created_at desc, then id desc');
    const last = p1[2]!;
    const p2 = await repo.pageByOwner('pager', { createdAt: last.createdAt, id: last.id }, 10);
    t.same(p2.map((j) => j.id), [ids[2], ids[1], ids[0]]);
    t.same(await repo.pageByOwner('nobody', undefined, 10), []);
  });

  t.test('sweepDue: claims due finished records, tombstones, forgets', async (t) => {
    const j = rec('receipt_20261122_sweep0000001', { family: 'receipt' });
    await repo.insert(j);
    await repo.mutate(j.id, (x) => ({ ...x, status: 'failed', updatedAt: 3000, expiresAt: 6000 }));
    const seen: string[] = [];
    t.equal(await repo.sweepDue(5999, 10, async (x) => (seen.push(x.id), 'forget')), 1, 'only caric (due at 5000)');
    t.same(seen, ['caric_20261122_aaaaaaaaaaa2']);
    t.equal(await repo.get('caric_20261122_aaaaaaaaaaa2'), undefined, 'forgotten');
    t.equal(await repo.getByAccessKeyHash('hash-caric_20261122_aaaaaaaaaaa2'), undefined, 'with its access-key index');
    t.equal(await repo.sweepDue(6000, 10, async (x) => ({ tombstone: { ...x, tombstone: true }, sweepAt: 9000 })), 1);
    t.equal((await repo.get(j.id))!.tombstone, true);
    t.equal(await repo.sweepDue(8999, 10, async () => 'forget'), 0, 'a tombstone waits for its own time');
    t.equal(await repo.sweepDue(9000, 10, async () => 'forget'), 1);
    t.equal(await repo.get(j.id), undefined);
    t.same((await repo.pageByOwner('k', undefined, 10)).map((x) => x.id), ['txt2img_20261122_aaaaaaaaaaa1'], 'and its owner index');
    t.equal(await repo.sweepDue(Number.MAX_SAFE_INTEGER, 10, async () => 'forget'), 0, 'processing jobs are never due');
  });

  t.test('blobs: put, read, meta, delete, sweep', async (t) => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
    await blobs.put('x/image', bytes, { contentType: 'image/png', createdAt: 1, expiresAt: 100, jobId: 'x' });
    await blobs.put('y/image', new Uint8Array([1, 2]), { contentType: 'image/jpeg', createdAt: 2 });
    t.same(await blobs.get('x/image'), bytes);
    t.same(await blobs.getMeta('x/image'), { contentType: 'image/png', size: 6, createdAt: 1, expiresAt: 100, jobId: 'x' });
    t.same(await blobs.read('y/image'), { bytes: Buffer.from([1, 2]), meta: { contentType: 'image/jpeg', size: 2, createdAt: 2 } });
    await blobs.put('y/image', Buffer.from([3]), { contentType: 'image/webp', createdAt: 3 });
    t.same(await blobs.get('y/image'), Buffer.from([3]), 'put again replaces');
    t.equal(await blobs.sweep(99), 0);
    t.equal(await blobs.sweep(100), 1, 'expired at 100');
    t.equal(await blobs.get('x/image'), undefined);
    t.equal(await blobs.read('x/image'), undefined);
    await blobs.delete('y/image');
    t.equal(await blobs.getMeta('y/image'), undefined);
  });

  t.test('e-KYC verification records', async (t) => {
    const store: VerificationStore = h.pg ? new PgVerificationStore(h.pg) : new LmdbVerificationStore(h.store);
    const v: VerificationRecord = {
      id: 'ekyc_verify_20261122_abc', at: '2026-11-22T00:00:00.000Z', keyId: 'key_1', idCardType: 'driver_license', overallPassed: false,
      failureReasons: ['face_mismatch'], ocr: { nameMasked: '홍*동', birthYear: '1990', idNumberMasked: '900101-1******', confidence: 0.9 },
      faceMatch: { similarity: 0.2, threshold: 0.6, passed: false, idFaceDetected: true, selfieFaceDetected: true },
      liveness: { score: 0.9, threshold: 0.5, passed: true, faceDetected: true }, processingTimeMs: 12,
    };
    await store.put(v);
    t.same(await store.get(v.id), v);
    t.equal(await store.get('ekyc_verify_nope'), undefined);
  });
}
