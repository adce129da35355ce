// The callback outbox's repository contract, written once and run against both implementations (LMDB embedded,
// PostgreSQL shared): arming once, claims with a lease, settling only while the claim holds, purge, counts, secret.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../../src/store/env.js';
import { Sealer } from '../../src/jobs/sealed-keys.js';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { LmdbCallbackRepository, type CallbackRecord, type CallbackRepository } from '../../src/providers/callback-repo.js';
import { PgCallbackRepository } from '../../src/providers/callback-repo-pg.js';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';

type Open = () => Promise<{ repo: CallbackRepository; close(): Promise<void> }>;

const openLmdb: Open = async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cbrepo-'));
  const store = new Store(dir);
  const repo = new LmdbCallbackRepository(store, new Sealer(store));
  await repo.init();
  return { repo, close: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
};

const openPg: Open = async () => {
  const pg = await Pg.connect(await (await sharedPostgres()).database(), 5000);
  await migrate(pg);
  return { repo: new PgCallbackRepository(pg), close: () => pg.close() };
};

const rec = (id: string, jobId: string, createdAt: number, extra: Partial<CallbackRecord> = {}): CallbackRecord =>
  ({ id, jobId, url: 'http://127.0.0.1:9/h', type: 'ekyc.enhance', state: 'waiting', createdAt, attempts: 0, ...extra });

const armed = (now: number) => ({ body: 's1.sealed-body', armedAt: now, giveUpAt: now + 3600_000, nextAt: now });

const missing = enginesMissing();
const modes: Array<[string, Open, string | undefined]> = [['lmdb', openLmdb, undefined], ['postgresql', openPg, missing]];

for (const [name, open, skip] of modes) {
  t.test(`callback repository contract: ${name}`, { skip }, async (t) => {
    const { repo, close } = await open();
    t.teardown(close);

    t.test('secret: none at first, the first one saved wins', async (t) => {
      t.equal(await repo.loadSecret(), undefined);
      t.equal(await repo.saveSecret('whsec_first'), 'whsec_first');
      t.equal(await repo.saveSecret('whsec_second'), 'whsec_first', 'a second node gets the first secret back');
      t.equal(await repo.loadSecret(), 'whsec_first');
    });

    t.test('insert, get, forJob, waiting; arm only once', async (t) => {
      await repo.insert(rec('msg_a', 'job-1', 1000, { sealedMeta: Buffer.from([1, 2, 3]) }));
      await repo.insert(rec('msg_b', 'job-2', 900));
      await repo.insert(rec('msg_c', 'job-3', 1100));
      const a = await repo.get('msg_a');
      t.match(a, { id: 'msg_a', jobId: 'job-1', url: 'http://127.0.0.1:9/h', type: 'ekyc.enhance', state: 'waiting', createdAt: 1000, attempts: 0 });
      t.same([...a!.sealedMeta!], [1, 2, 3], 'sealed meta kept as bytes');
      t.equal((await repo.forJob('job-2'))?.id, 'msg_b');
      t.equal(await repo.forJob('job-none'), undefined);
      t.equal(await repo.get('msg_none'), undefined);
      t.same((await repo.waiting(10)).map((r) => r.id), ['msg_b', 'msg_a', 'msg_c'], 'oldest first');
      t.equal((await repo.waiting(2)).length, 2, 'limit');
      t.equal(await repo.arm('msg_a', armed(2000)), true);
      t.equal(await repo.arm('msg_a', armed(2500)), false, 'a second arm (another node) changes nothing');
      t.match(await repo.get('msg_a'), { state: 'pending', body: 's1.sealed-body', armedAt: 2000, giveUpAt: 3602_000, nextAt: 2000 });
      t.equal((await repo.get('msg_a'))!.sealedMeta, undefined, 'the meta now lives in the sealed body only');
      t.same((await repo.waiting(10)).map((r) => r.id), ['msg_b', 'msg_c']);
      t.same(await repo.counts(), { waiting: 2, pending: 1, delivered: 0, failed: 0 });
    });

    t.test('claims: not before due, one holder per lease, taken again after it', async (t) => {
      t.same(await repo.claimDue(1999, 'node-a', 61_999, 10), [], 'not due yet');
      const got = await repo.claimDue(2000, 'node-a', 62_000, 10);
      t.same(got.map((r) => [r.id, r.claimedBy, r.leaseUntil]), [['msg_a', 'node-a', 62_000]]);
      t.same(await repo.claimDue(5000, 'node-b', 65_000, 10), [], 'held by node-a');
      t.same(await repo.claimDue(61_999, 'node-b', 121_999, 10), [], 'still held just before the lease ends');
      // node-a died: its lease runs out and node-b takes the callback, with the same body
      const again = await repo.claimDue(62_000, 'node-b', 122_000, 10);
      t.match(again, [{ id: 'msg_a', claimedBy: 'node-b', body: 's1.sealed-body', attempts: 0 }]);
      t.equal(await repo.settle('msg_a', 'node-a', { state: 'delivered', attempts: 1, lastStatus: 200, doneAt: 62_100, dropBody: true }), undefined, 'the late node-a cannot record an outcome');
      const s = await repo.settle('msg_a', 'node-b', { state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAt: 67_000, dropBody: false });
      t.match(s, { state: 'pending', attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAt: 67_000, body: 's1.sealed-body' });
      t.equal(s!.claimedBy, undefined, 'claim freed');
      t.equal(s!.leaseUntil, undefined);
      t.same(await repo.claimDue(66_999, 'node-a', 126_999, 10), [], 'the retry waits for its time');
      t.same((await repo.claimDue(67_000, 'node-a', 127_000, 10)).map((r) => r.id), ['msg_a']);
      t.equal(await repo.releaseClaims('node-b'), 0);
      t.equal(await repo.releaseClaims('node-a'), 1, 'a restarted node-a frees its own claims');
      t.same((await repo.claimDue(67_001, 'node-a', 127_001, 10)).map((r) => r.id), ['msg_a']);
      const d = await repo.settle('msg_a', 'node-a', { state: 'delivered', attempts: 2, lastStatus: 204, doneAt: 67_500, dropBody: true });
      t.match(d, { state: 'delivered', attempts: 2, lastStatus: 204, doneAt: 67_500 });
      t.equal(d!.body, undefined, 'the body is dropped once delivered');
      t.equal(d!.nextAt, undefined);
      t.same(await repo.claimDue(10_000_000, 'node-a', 10_060_000, 10), [], 'a delivered callback is never claimed again');
      t.same(await repo.counts(), { waiting: 2, pending: 0, delivered: 1, failed: 0 });
    });

    t.test('concurrent claims share out the due callbacks without overlap', async (t) => {
      const ids = Array.from({ length: 30 }, (_, i) => `msg_many_${String(i).padStart(2, '0')}`);
      for (const id of ids) {
        await repo.insert(rec(id, `job-${id}`, 3000));
        await repo.arm(id, armed(3000));
      }
      const [x, y, z] = await Promise.all([
        repo.claimDue(4000, 'node-x', 64_000, 12),
        repo.claimDue(4000, 'node-y', 64_000, 12),
        repo.claimDue(4000, 'node-z', 64_000, 12),
      ]);
      const all = [...x!, ...y!, ...z!].map((r) => r.id);
      t.equal(new Set(all).size, all.length, 'no callback claimed twice');
      t.same([...all].sort(), ids, 'every due callback claimed by one node');
    });

    t.test('failed, purge after the keep time', async (t) => {
      await repo.insert(rec('msg_f', 'job-f', 5000));
      await repo.arm('msg_f', armed(5000));
      await repo.claimDue(5000, 'node-a', 65_000, 100);
      t.match(await repo.settle('msg_f', 'node-a', { state: 'failed', attempts: 1, lastStatus: 410, lastError: 'gone', doneAt: 70_000, dropBody: true }), { state: 'failed', lastStatus: 410 });
      t.equal(await repo.purge(67_499), 0, 'nothing finished that early');
      t.equal(await repo.purge(67_500), 1, 'the delivered one (done at 67 500)');
      t.equal(await repo.get('msg_a'), undefined);
      t.equal(await repo.forJob('job-1'), undefined);
      t.equal(await repo.purge(70_000), 1, 'the failed one');
      t.equal(await repo.get('msg_f'), undefined);
      t.same(await repo.counts(), { waiting: 2, pending: 30, delivered: 0, failed: 0 });
    });
  });
}
