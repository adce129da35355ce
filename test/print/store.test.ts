// The print store without HTTP, written once and run against both implementations (LMDB, PostgreSQL): the
// one-transaction selection/charge, idempotency on job_id under concurrency, round-robin order and skipping, refunds,
// recovery after a stop, ledger == balance, impression queries; in shared mode also two nodes (two pools on one
// database) charging at once never overdraw, and a dead node's composing print is refunded once, after its lease.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../../src/store/env.js';
import { PrintStore } from '../../src/print/store.js';
import { PgPrintStore } from '../../src/print/store-pg.js';
import type { PrintRepo } from '../../src/print/repo.js';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';

type Mode = 'embedded' | 'shared';
const missing = enginesMissing();
const MODES: Mode[] = missing ? ['embedded'] : ['embedded', 'shared'];
if (missing) t.comment(`shared mode skipped: ${missing}`);

interface Td { teardown(fn: () => unknown): void }

/** A fresh print store; `another()` opens a second one on the same storage (shared: a second pool = a second node). */
async function open(mode: Mode, t: Td, leaseMs = 0): Promise<{ ps: PrintRepo; another(node: string): Promise<PrintRepo> }> {
  if (mode === 'embedded') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-print-store-'));
    const store = new Store(dir);
    t.teardown(async () => {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return { ps: new PrintStore(store), another: async () => new PrintStore(store) };
  }
  const url = await (await sharedPostgres()).database();
  const pool = async (node: string) => {
    const pg = await Pg.connect(url, 5000, 20);
    t.teardown(() => pg.close());
    return { pg, store: new PgPrintStore(pg, { node, leaseMs }) };
  };
  const first = await pool('n1');
  await migrate(first.pg);
  return { ps: first.store, another: async (node) => (await pool(node)).store };
}

async function setup(mode: Mode, t: Td, opts: { units?: number[]; points?: number[] } = {}) {
  const { ps, another } = await open(mode, t);
  const now = Date.UTC(2026, 10, 22, 1, 0, 0);
  const units = opts.units ?? [1, 2, 3];
  const points = opts.points ?? [100, 100, 100];
  const advs = [];
  for (let i = 0; i < units.length; i++) {
    const a = await ps.createAdvertiser({ name: `a${i}`, unit_points: units[i]!, initial_points: points[i], reason: 'opening balance' }, now + i);
    const app = await ps.createApplication({ advertiser_id: a.id, title: 't', album_ids: [] }, { bytes: Buffer.from([i]), format: 'png', width: 10, height: 5 }, now);
    if (typeof app === 'string') throw new Error(app);
    await ps.decide(app.id, 1, 'approved', undefined, now + i);
    advs.push({ ...a, app: app.id });
  }
  await ps.createAlbum({ id: 'alb', name: 'alb', ad_mode: 'selected' }, now);
  return { ps, advs, now, another };
}

for (const mode of MODES) {
  t.test(`${mode}: round-robin in creation order, one charge per job_id even when sent concurrently`, async (t) => {
    const { ps, advs, now } = await setup(mode, t);
    // one after the other first (the rotation order), then the rest at once, each job_id three times
    const firsts: Array<string | undefined> = [];
    for (let i = 0; i < 6; i++) {
      const o = await ps.selectAndCharge({ job_id: `j${i}`, album_id: 'alb', at: now + i, want_ad: true });
      firsts.push(o.kind === 'new' ? o.impression.advertiser_id : o.kind);
    }
    t.same(firsts, [advs[0]!.id, advs[1]!.id, advs[2]!.id, advs[0]!.id, advs[1]!.id, advs[2]!.id], 'strict rotation');
    const reqs = [];
    for (let i = 0; i < 30; i++) for (let k = 0; k < 3; k++) reqs.push(ps.selectAndCharge({ job_id: `j${i}`, album_id: 'alb', at: now + i, want_ad: true }));
    const out = await Promise.all(reqs);
    t.equal(out.filter((o) => o.kind === 'new').length, 24);
    t.equal(out.filter((o) => o.kind === 'replay').length, 66);
    for (const [i, a] of advs.entries()) {
      const rec = (await ps.advertiser(a.id))!;
      t.equal(rec.balance, 100 - 10 * [1, 2, 3][i]!);
      t.equal((await ps.ledgerSum(a.id)).sum, rec.balance);
    }
    const conflict = await ps.selectAndCharge({ job_id: 'j1', album_id: 'other', at: now, want_ad: true });
    t.equal(conflict.kind, 'conflict');
    t.equal((await ps.selectAndCharge({ job_id: 'x', album_id: 'nope', at: now, want_ad: true })).kind, 'album_not_found');
  });

  t.test(`${mode}: skips an advertiser without enough balance; refunds; recovery refunds interrupted prints`, async (t) => {
    const { ps, advs, now } = await setup(mode, t, { units: [5, 1], points: [7, 100] });
    const a = await ps.selectAndCharge({ job_id: 'p1', album_id: 'alb', at: now, want_ad: true });
    t.equal(a.kind === 'new' && a.impression.advertiser_id, advs[0]!.id);
    const b = await ps.selectAndCharge({ job_id: 'p2', album_id: 'alb', at: now, want_ad: true });
    t.equal(b.kind === 'new' && b.impression.advertiser_id, advs[1]!.id);
    const c = await ps.selectAndCharge({ job_id: 'p3', album_id: 'alb', at: now, want_ad: true });
    t.equal(c.kind === 'new' && c.impression.advertiser_id, advs[1]!.id, 'adv 0 has 2 < 5 points: skipped');
    t.same(c.kind === 'new' && c.impression.skipped, [{ advertiser_id: advs[0]!.id, reason: 'insufficient balance (2 < 5)' }]);

    // a failed composition gives the points back; a retry selects (and charges) again
    const r = await ps.refund('p3', 'decode failed', now + 1);
    t.equal(r?.status, 'refunded');
    t.equal((await ps.advertiser(advs[1]!.id))!.balance, 99);
    const again = await ps.selectAndCharge({ job_id: 'p3', album_id: 'alb', at: now + 2, want_ad: true });
    t.equal(again.kind, 'new');
    t.equal((await ps.advertiser(advs[1]!.id))!.balance, 98);
    t.same((await ps.ledgerOf(advs[1]!.id)).map((e) => [e.kind, e.delta]), [['top_up', 100], ['charge', -1], ['charge', -1], ['refund', 1], ['charge', -1]]);

    // p1 was printed, p2 and p3 are still composing when the server "stops"
    await ps.markPrinted('p1', { width: 1, height: 1, format: 'jpeg', bytes: 1, expires_at: now + 1, request_hash: 'h', applied: {} });
    t.equal(await ps.recoverInterrupted(now + 3), 2);
    t.equal((await ps.impression('p1'))!.status, 'printed');
    t.equal((await ps.impression('p2'))!.status, 'refunded');
    t.equal((await ps.advertiser(advs[1]!.id))!.balance, 100);
    t.equal((await ps.advertiser(advs[0]!.id))!.balance, 2);
    for (const x of advs) t.equal((await ps.ledgerSum(x.id)).sum, (await ps.advertiser(x.id))!.balance, 'ledger sum = balance');
    t.equal(await ps.recoverInterrupted(now + 4), 0);

    // none eligible
    await ps.updateAdvertiser(advs[1]!.id, { active: false }, now);
    const none = await ps.selectAndCharge({ job_id: 'p9', album_id: 'alb', at: now, want_ad: true });
    t.equal(none.kind === 'new' && none.impression.selected_reason, 'no_eligible_advertiser');
    t.equal(none.kind === 'new' && none.impression.advertiser_id, undefined);
    t.same(none.kind === 'new' && none.impression.skipped?.map((x) => x.reason), ['insufficient balance (2 < 5)', 'inactive']);
  });

  t.test(`${mode}: top-ups and adjustments; versions; impression queries by album, advertiser and time`, async (t) => {
    const { ps, advs, now } = await setup(mode, t);
    t.equal(await ps.topUp(advs[0]!.id, -101, 'too much', now), 'negative');
    const tu = await ps.topUp(advs[0]!.id, -40, 'correction', now);
    t.equal(typeof tu === 'object' && tu.entry.kind, 'adjustment');
    t.equal((await ps.advertiser(advs[0]!.id))!.balance, 60);
    // a new pending version does not replace the approved one until approved
    const v2 = await ps.addVersion(advs[0]!.app, { bytes: Buffer.from('v2'), format: 'jpeg', width: 20, height: 10 }, now);
    t.equal(v2?.version.version, 2);
    const s1 = await ps.selectAndCharge({ job_id: 'q1', album_id: 'alb', at: now + 1000, want_ad: true });
    t.equal(s1.kind === 'new' && s1.impression.version, 1);
    await ps.decide(advs[0]!.app, 2, 'approved', undefined, now + 2);
    for (let i = 2; i <= 4; i++) await ps.selectAndCharge({ job_id: `q${i}`, album_id: 'alb', at: now + 1000 * i, want_ad: true });
    const s4 = (await ps.impression('q4'))!;
    t.equal(s4.advertiser_id, advs[0]!.id);
    t.equal(s4.version, 2, 'the newly approved version runs');
    t.equal((await ps.creative(advs[0]!.app, 2))!.toString(), 'v2');
    t.equal((await ps.queryImpressions({ advertiser_id: advs[0]!.id, limit: 10 })).items.length, 2);
    t.same((await ps.queryImpressions({ album_id: 'alb', limit: 10, from: now + 2000, to: now + 4000 })).items.map((i) => i.job_id), ['q2', 'q3']);
    const p1 = (await ps.queryImpressions({ limit: 3 }));
    t.equal(p1.items.length, 3);
    const p2 = (await ps.queryImpressions({ limit: 3, cursor: p1.next_cursor }));
    t.same(p2.items.map((i) => i.job_id), ['q4']);
  });

  t.test(`${mode}: two stores on one storage (two nodes) charging 300 prints at once never overdraw; duplicates charged once`, async (t) => {
    const { ps, advs, now, another } = await setup(mode, t, { units: [3, 2], points: [100, 60] });
    const ps2 = await another('n2');
    const jobs = Array.from({ length: 200 }, (_, i) => `k${i}`);
    for (let i = 0; i < 200; i += 2) jobs.push(`k${i}`); // half of them again, on the other node
    const out = await Promise.all(jobs.map((job, i) => (i % 2 ? ps2 : ps).selectAndCharge({ job_id: job, album_id: 'alb', at: now + i, want_ad: true })));
    const charged = new Map<string, number>();
    for (const [i, o] of out.entries()) if (o.kind === 'new' && o.impression.advertiser_id) charged.set(jobs[i]!, (charged.get(jobs[i]!) ?? 0) + 1);
    t.same([...charged].filter(([, n]) => n > 1), [], 'no job_id charged twice');
    t.equal(out.filter((o) => o.kind === 'new').length, 200, 'one new print per job_id');
    t.equal(charged.size, 33 + 30, '33 prints of 3 points and 30 of 2 points: both advertisers drained to what is left');
    for (const [i, a] of advs.entries()) {
      const rec = (await ps2.advertiser(a.id))!;
      const sum = await ps.ledgerSum(a.id);
      const charges = (await ps.ledgerOf(a.id)).filter((e) => e.kind === 'charge');
      t.equal(rec.balance, [1, 0][i], 'drained, never below zero');
      t.equal(sum.sum, rec.balance, 'ledger sum = balance');
      t.equal(rec.balance, [100, 60][i]! - charges.reduce((n, e) => n - e.delta, 0), 'balance = start - charges');
      t.equal(new Set(charges.map((e) => e.job_id)).size, charges.length, 'one charge entry per job_id');
    }
    const last = (await ps.impression('k199'))!;
    t.equal(last.status, 'composing');
  });
}

if (MODES.includes('shared')) {
  t.test('shared: a dead node\'s composing print is refunded once, by one node, after its lease; a repeat takes the lease over; a late node cannot store a refunded print', async (t) => {
    const { ps, another } = await open('shared', t, 1000);
    const ps2 = await another('n2');
    const ps3 = await another('n3');
    const now = Date.UTC(2026, 10, 22, 1, 0, 0);
    const a = await ps.createAdvertiser({ name: 'a', unit_points: 4, initial_points: 40 }, now);
    const app = await ps.createApplication({ advertiser_id: a.id, title: 't', album_ids: [] }, { bytes: Buffer.from([1]), format: 'png', width: 10, height: 5 }, now);
    if (typeof app === 'string') throw new Error(app);
    await ps.decide(app.id, 1, 'approved', undefined, now);
    await ps.createAlbum({ id: 'alb', name: 'alb', ad_mode: 'fixed', fixed_application_id: app.id }, now);
    for (const job of ['dead', 'taken']) t.equal((await ps.selectAndCharge({ job_id: job, album_id: 'alb', at: now, want_ad: true })).kind, 'new');
    // n1 "dies"; the client sends 'taken' again to n2 before the lease ends: n2 finishes it
    t.equal((await ps2.selectAndCharge({ job_id: 'taken', album_id: 'alb', at: now + 900, want_ad: true })).kind, 'replay');
    t.equal(await ps2.recoverInterrupted(now + 500), 0, 'nothing before the lease ends');
    const n = await Promise.all([ps2.recoverInterrupted(now + 1500), ps3.recoverInterrupted(now + 1500), ps2.recoverInterrupted(now + 1500)]);
    t.equal(n.reduce((x, y) => x + y, 0), 1, 'the dead print refunded exactly once across three recoveries at once');
    t.equal((await ps3.impression('dead'))!.status, 'refunded');
    t.equal((await ps3.impression('taken'))!.status, 'composing', 'the repeated print is n2\'s now (lease renewed)');
    t.equal((await ps.advertiser(a.id))!.balance, 36);
    t.same((await ps.ledgerOf(a.id)).map((e) => [e.kind, e.delta]), [['top_up', 40], ['charge', -4], ['charge', -4], ['refund', 4]]);
    const sheet = { width: 1, height: 1, format: 'jpeg' as const, bytes: 1, expires_at: now, request_hash: 'h', applied: {} };
    // the late first node finishes its compositions now: 'dead' was refunded, so it is not its to store
    t.equal(await ps.markPrinted('dead', sheet), undefined, 'n1\'s late commit of the refunded print fails: it cannot answer charged');
    t.equal((await ps3.impression('dead'))!.status, 'refunded', 'the refund stands');
    t.equal((await ps2.markPrinted('taken', sheet))?.status, 'printed', 'n2, which took \'taken\' over, stores it');
    t.equal((await ps.markPrinted('taken', sheet))?.status, 'printed', 'n1 finishing the same (still charged) print later changes nothing');
    t.equal(await ps3.recoverInterrupted(now + 10_000), 0, 'printed is never refunded');
    // a retry of the refunded job_id prints (and charges) anew
    t.equal((await ps3.selectAndCharge({ job_id: 'dead', album_id: 'alb', at: now + 2000, want_ad: true })).kind, 'new');
    t.equal((await ps.ledgerSum(a.id)).sum, 32);
  });
}

t.test('CSV cells: quoting and formula defusing', async (t) => {
  const { csvCell } = await import('../../src/api/print-admin.js');
  t.equal(csvCell('plain'), 'plain');
  t.equal(csvCell('a,b'), '"a,b"');
  t.equal(csvCell('say "hi"'), '"say ""hi"""');
  t.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  t.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  t.equal(csvCell(-5), '-5');
  t.equal(csvCell(null), '');
});
