// A print whose composing lease ran out while its node still composed: another node settled it (here: refunded it
// in its recovery) before the late node stored the sheet. The late node's commit is refused (markPrinted stores only
// a print still composing) and it answers 503 SERVICE_BUSY naming job_id, never `charged: true` for a refunded print; the
// ledger holds the charge and its refund, and a resend with the same job_id prints and charges anew. Both modes
// (embedded: the recovery of the same store stands in for "another node").
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing } from '../helpers/engines.js';
import { ManualClock } from '../../src/clock.js';
import { admin, imageServer } from './helpers.js';
import { aiPicture, solid } from './fixtures.js';

const MODES = ['embedded', 'shared'] as const;

for (const storage of MODES) {
  t.test(`${storage}: the node that lost a print's lease cannot answer it as charged`, { skip: storage === 'shared' ? enginesMissing() : undefined }, async (t) => {
    const img = await imageServer({ '/ai.jpg': { body: await aiPicture(400, 400), type: 'image/jpeg' } });
    t.teardown(() => img.close());
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
    const env = { SEJONG_FETCH_ALLOW: '127.0.0.1' };
    const a = await startTestServer({ storage, env, manualClock: clock });
    t.teardown(() => a.close());
    let other: TestServer = a;
    if (storage === 'shared') {
      other = await startTestServer({ storage, env, manualClock: clock, sharedEnv: a.sharedEnv });
      t.teardown(() => other.close());
    }
    const adm = admin(a);
    const adv = await adm.advertiser('lease', 5, 100);
    await adm.creative(adv, await solid(300, 120, [0, 90, 200]));
    await adm.album('alb-lease', 'selected', { advertiser_ids: [adv] });
    const print = async () => {
      const r = await a.req('/api/v1/composite/print', { method: 'POST', json: { ai_image_url: `${img.url}/ai.jpg`, album_id: 'alb-lease', job_id: 'late-1', settings: { qr: { show: false } }, output: { target_width: 300, quality: 80 } } });
      return { status: r.status, retry: r.headers.get('retry-after'), body: (await r.json()) as any };
    };

    // node a composes; before it stores the sheet, its lease runs out and the other node's recovery refunds the print
    const store = a.services.ext.print!.store;
    const markPrinted = store.markPrinted.bind(store);
    let refunded = -1;
    store.markPrinted = async (jobId, image) => {
      clock.advance(3600_000);
      refunded = await other.services.ext.print!.store.recoverInterrupted(clock.now());
      return markPrinted(jobId, image);
    };
    const late = await print();
    t.equal(refunded, 1, 'the print was refunded while node a composed');
    t.same([late.status, late.body.error?.code, late.body.error?.field, late.retry], [503, 'SERVICE_BUSY', 'job_id', '1'], 'the late node answers 503, not the sheet');
    t.match(late.body.error?.message, /longer than its lease and was refunded .* send it again with the same job_id/);
    t.notOk(JSON.stringify(late.body).includes('"charged":true'), 'never charged: true');
    const imp = await other.services.ext.print!.store.impression('late-1');
    t.equal(imp?.status, 'refunded', 'the refund stands');
    t.same(await adm.balance(adv).then((b) => [b.balance, b.ledger_sum, b.ledger_entries]), [100, 100, 3], 'top-up, charge, refund');

    // the kiosk sends it again: printed and charged once more, on its own lease
    store.markPrinted = markPrinted;
    const again = await print();
    t.equal(again.status, 200);
    t.equal(again.body.ad_charged?.charged, true, 'the resend is charged');
    t.equal((await a.services.ext.print!.store.impression('late-1'))?.status, 'printed');
    t.same(await adm.balance(adv).then((b) => [b.balance, b.ledger_sum]), [95, 95]);
  });
}
