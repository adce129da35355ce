// Prints over the pool's capacity: the refused ones are answered 503 + Retry-After BEFORE any charge, so the
// ledger holds exactly one charge per printed sheet (no charge/refund churn).
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { admin, imageServer, type ImageServer } from './helpers.js';
import { aiPicture, solid } from './fixtures.js';

let s: TestServer;
let img: ImageServer;

t.before(async () => {
  img = await imageServer({ '/ai.jpg': { body: await aiPicture(400, 400), type: 'image/jpeg' } });
  s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '2' }, workers: 1 });
});
t.teardown(async () => {
  await s?.close();
  await img?.close();
});

t.test('concurrent prints over capacity: refused prints leave no ledger entry', async (t) => {
  const adm = admin(s);
  const adv = await adm.advertiser('busy adv', 2, 1000);
  await adm.creative(adv, await solid(300, 120, [0, 0, 255]), { album_ids: ['alb-busy'] });
  await adm.album('alb-busy', 'selected', { advertiser_ids: [adv] });
  const N = 24;
  const res = await Promise.all(Array.from({ length: N }, async (_, i) => {
    const r = await s.req('/api/v1/composite/print', {
      method: 'POST',
      json: { ai_image_url: `${img.url}/ai.jpg`, album_id: 'alb-busy', job_id: `busy-${i}`, settings: { qr: { show: false } }, output: { target_width: 300, quality: 80 } },
    });
    return { status: r.status, retry: r.headers.get('retry-after'), body: (await r.json()) as any };
  }));
  const ok = res.filter((r) => r.status === 200);
  const busy = res.filter((r) => r.status === 503);
  t.equal(ok.length + busy.length, N, `every print answered 200 or 503 (${res.map((r) => r.status).join(',')})`);
  t.ok(busy.length > 0, `the 1-worker pool with a queue of 2 refused some of ${N} concurrent prints (${busy.length})`);
  t.ok(ok.length > 0, 'some printed');
  for (const b of busy) {
    t.equal(b.body.error.code, 'SERVICE_BUSY');
    t.ok(Number(b.retry) >= 1, 'Retry-After set');
  }
  t.equal(ok.filter((r) => r.body.ad_charged?.charged === true).length, ok.length, 'every printed sheet was charged once');
  const bal = await adm.balance(adv);
  t.equal(bal.ledger_entries, 1 + ok.length, 'ledger = one top-up + one charge per printed sheet; no refunds');
  t.equal(bal.balance, 1000 - 2 * ok.length, 'balance exact');
  t.equal(bal.ledger_sum, bal.balance);
});
