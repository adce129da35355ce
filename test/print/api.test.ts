// POST /api/v1/composite/print over HTTP: validation, the exact points ledger under concurrency (200 prints over
// 3 advertisers, each job_id sent twice), round-robin fairness, an advertiser running out, fixed mode, 409 on a
// reused job_id, the sheet route (dpi, width, key, expiry) and the admin views (impressions, CSV).
import t from 'tap';
import sharp from 'sharp';
import jsQRmod from 'jsqr';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ManualClock } from '../../src/clock.js';
import { admin, imageServer, type ImageServer } from './helpers.js';
import { aiPicture, signaturePng, solid } from './fixtures.js';

const jsQR = ((jsQRmod as unknown as { default?: unknown }).default ?? jsQRmod) as unknown as (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null;
let s: TestServer;
let img: ImageServer;
let adm: ReturnType<typeof admin>;
const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));

t.before(async () => {
  img = await imageServer({
    '/ai.jpg': { body: await aiPicture(400, 400), type: 'image/jpeg' },
    '/text': { body: 'hello, not an image', type: 'text/plain' },
    '/trunc.jpg': { body: (await aiPicture(400, 400)).subarray(0, 3000), type: 'image/jpeg' },
  });
  s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '2000', SEJONG_QUEUE_WAIT_MS: '600000' }, workers: 2, manualClock: clock });
  adm = admin(s);
});
t.teardown(async () => {
  await s?.close();
  await img?.close();
});

const small = { target_width: 300, quality: 80 };
function body(job_id: string, album_id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ai_image_url: `${img.url}/ai.jpg`, album_id, job_id, settings: { qr: { show: false }, event_name: '테스트' }, output: small, ...extra };
}
async function print(b: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const r = await s.req('/api/v1/composite/print', { method: 'POST', json: b });
  return { status: r.status, body: await r.json() };
}

t.test('validation names the field; unreadable ai_image_url is a 4xx', async (t) => {
  await adm.album('alb-v', 'none');
  const cases: Array<[Record<string, unknown>, number, string]> = [
    [body('v1', 'alb-v', { output: { quality: 59 } }), 400, 'output.quality'],
    [body('v2', 'alb-v', { output: { quality: 101 } }), 400, 'output.quality'],
    [body('v3', 'alb-v', { output: { format: 'gif' } }), 400, 'output.format'],
    [body('v4', 'alb-v', { settings: { qr: { position: 'middle' } } }), 400, 'settings.qr.position'],
    [body('v5', 'alb-v', { settings: { image_scale: 1.5 } }), 400, 'settings.image_scale'],
    [body('v6', 'alb-v', { settings: { ad: { a3_width_ratio: 0 } } }), 400, 'settings.ad.a3_width_ratio'],
    [body('v7', 'alb-v', { settings: { header: { font_size: '20' } } }), 400, 'settings.header.font_size'],
    [body('v8', 'alb-v', { colour: 'red' }), 400, 'colour'],
    [body('v9', 'alb-v', { signature_data_url: 'data:image/jpeg;base64,AAAA' }), 400, 'signature_data_url'],
    [body('v10', 'alb-v', { settings: { qr: { size: 290 } } }), 400, 'settings.qr.size'],
    [body('bad job id!', 'alb-v'), 400, 'job_id'],
    [body('v11', 'alb-v', { ai_image_url: 'ftp://x/y.jpg' }), 400, 'ai_image_url'],
    [body('v12', 'alb-v', { ai_image_url: `${img.url}/missing.jpg` }), 400, 'ai_image_url'],
    [body('v13', 'alb-v', { ai_image_url: `${img.url}/text` }), 415, 'ai_image_url'],
    [body('v14', 'no-such-album'), 404, 'album_id'],
    [body('v15', 'alb-v', { settings: { ad: { a3_top_padding: -1, extra_key: 1 } } }), 400, 'settings.ad.a3_top_padding'],
    [body('v16', 'alb-v', { output: { storage_type: 'inline' } }), 400, 'output.storage_type'],
  ];
  for (const [b, status, field] of cases) {
    const r = await print(b);
    t.equal(r.status, status, `${field} → ${status} (${r.body?.error?.message})`);
    t.equal(r.body.error?.field, field, `field named: ${r.body?.error?.message}`);
  }
  const noKey = await s.req('/api/v1/composite/print', { method: 'POST', json: body('v15', 'alb-v'), key: null });
  t.equal(noKey.status, 401);
});

t.test('200 concurrent prints over 3 advertisers, each job_id sent twice: exact balances, fair round-robin', async (t) => {
  const units = [3, 5, 7];
  const start = [1000, 2000, 3000];
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await adm.advertiser(`adv ${i}`, units[i]!, start[i]!));
  const colours: Array<[number, number, number]> = [[255, 0, 0], [0, 200, 0], [0, 0, 255]];
  for (let i = 0; i < 3; i++) await adm.creative(ids[i]!, await solid(300, 120, colours[i]!), { album_ids: ['alb-rr'] });
  await adm.album('alb-rr', 'selected', { advertiser_ids: ids });

  const N = 200;
  const jobs = Array.from({ length: N }, (_, i) => `rr-${i}`);
  // each job_id twice, interleaved, all in flight at once
  const sends = [...jobs, ...jobs].map((j) => print(body(j, 'alb-rr')));
  const res = await Promise.all(sends);
  t.equal(res.filter((r) => r.status === 200).length, 2 * N, 'every request answered 200');
  const byJob = new Map<string, any[]>();
  for (const r of res) {
    const l = byJob.get(r.body.job_id) ?? [];
    l.push(r.body);
    byJob.set(r.body.job_id, l);
  }
  let charged = 0;
  let sameAd = 0;
  const counts = new Map<string, number>();
  for (const [, pair] of byJob) {
    t.equal(pair.length, 2);
    if (pair[0].ad_selected.application_id === pair[1].ad_selected.application_id && pair[0].ad_selected.advertiser_id === pair[1].ad_selected.advertiser_id) sameAd++;
    const c = pair.filter((p) => p.ad_charged?.charged === true);
    charged += c.length;
    const adv = pair[0].ad_selected.advertiser_id;
    counts.set(adv, (counts.get(adv) ?? 0) + 1);
  }
  t.equal(sameAd, N, 'both answers of a job_id name the same ad');
  t.equal(charged, N, 'exactly one charge per job_id');
  const vals = ids.map((id) => counts.get(id) ?? 0);
  t.equal(vals.reduce((a, b) => a + b, 0), N);
  t.ok(Math.max(...vals) - Math.min(...vals) <= 1, `round-robin counts within 1: ${vals.join(', ')}`);
  for (let i = 0; i < 3; i++) {
    const b = await adm.balance(ids[i]!);
    t.equal(b.balance, start[i]! - units[i]! * vals[i]!, `advertiser ${i} balance exact`);
    t.equal(b.ledger_sum, b.balance, `advertiser ${i} ledger sum = balance`);
    t.equal(b.ledger_entries, 1 + vals[i]!, 'one top-up + one charge per print');
  }
  const one = res[0]!.body;
  t.equal(one.applied.a3_ad, true);
  t.equal(one.ad_selected.selected_reason, 'round_robin');
  t.equal(one.ad_charged.balance_before - one.ad_charged.unit_points, one.ad_charged.balance_after);

  // a third send later: still the same ad, nothing charged, the stored sheet is returned (no new composition)
  const again = await print(body('rr-7', 'alb-rr'));
  t.equal(again.status, 200);
  t.equal(again.body.replayed, true);
  t.equal(again.body.ad_charged.charged, false);
  t.equal(again.body.ad_selected.advertiser_id, byJob.get('rr-7')![0].ad_selected.advertiser_id);
  for (let i = 0; i < 3; i++) t.equal((await adm.balance(ids[i]!)).balance, start[i]! - units[i]! * vals[i]!, 'no charge on replay');

  // the same job_id with another album → 409
  await adm.album('alb-other', 'none');
  const c = await print(body('rr-7', 'alb-other'));
  t.equal(c.status, 409);
  t.equal(c.body.error.code, 'CONFLICT');
  t.equal(c.body.error.field, 'job_id');
  // … and from another API key (another kiosk must not receive this kiosk's sheet)
  const k2 = await adm.call('POST', '/api/v1/admin/keys', { name: 'kiosk 2' });
  const other = await s.req('/api/v1/composite/print', { method: 'POST', json: body('rr-7', 'alb-rr'), key: k2.body.key });
  t.equal(other.status, 409);
  t.match((await other.json() as any).error.message, /another API key/);

  // impressions by advertiser and CSV
  const list = await adm.call('GET', `/api/v1/admin/print/impressions?advertiser_id=${ids[0]}&limit=1000`);
  t.equal(list.status, 200);
  t.equal(list.body.impressions.length, vals[0]);
  t.ok(list.body.impressions.every((i: any) => i.advertiser_id === ids[0] && i.status === 'printed'));
  const page = await adm.call('GET', '/api/v1/admin/print/impressions?album_id=alb-rr&limit=50');
  t.equal(page.body.impressions.length, 50);
  t.type(page.body.next_cursor, 'string');
  const page2 = await adm.call('GET', `/api/v1/admin/print/impressions?album_id=alb-rr&limit=1000&cursor=${page.body.next_cursor}`);
  t.equal(page2.body.impressions.length, N - 50, 'cursor continues without overlap');
  const csv = await s.req('/api/v1/admin/print/impressions/export?album_id=alb-rr', { key: s.adminKey });
  t.match(csv.headers.get('content-type'), /text\/csv/);
  const lines = (await csv.text()).trim().split('\r\n');
  t.equal(lines[0], 'job_id,at,album_id,status,advertiser_id,application_id,version,unit_points,balance_before,balance_after,selected_reason');
  t.equal(lines.length, N + 1);
  const sumCsv = lines.slice(1).reduce((a, l) => a + Number(l.split(',')[7]), 0);
  t.equal(sumCsv, vals.reduce((a, v, i) => a + v * units[i]!, 0), 'CSV unit_points add up to the points charged');
  const day = await adm.call('GET', '/api/v1/admin/print/impressions?from=2026-11-22&to=2026-11-22&album_id=alb-rr&limit=1000');
  t.equal(day.body.impressions.length, N);
  const before = await adm.call('GET', '/api/v1/admin/print/impressions?to=2026-11-21&album_id=alb-rr');
  t.equal(before.body.impressions.length, 0);
});

t.test('an advertiser running out mid-run is skipped cleanly; none eligible → no ad with a reason', async (t) => {
  const low = await adm.advertiser('low', 4, 20); // exactly 5 prints
  const e = await adm.advertiser('e', 2, 1000);
  const f = await adm.advertiser('f', 2, 1000);
  for (const id of [low, e, f]) await adm.creative(id, await solid(300, 100, [200, 100, 50]));
  await adm.album('alb-out', 'selected', { advertiser_ids: [low, e, f] });
  const res = await Promise.all(Array.from({ length: 60 }, (_, i) => print(body(`out-${i}`, 'alb-out'))));
  t.ok(res.every((r) => r.status === 200));
  const count = (id: string) => res.filter((r) => r.body.ad_selected.advertiser_id === id).length;
  t.equal(count(low), 5, 'the low advertiser prints exactly as often as its balance allows');
  t.equal(count(e) + count(f), 55);
  t.ok(Math.abs(count(e) - count(f)) <= 1, `the others share the rest: ${count(e)} / ${count(f)}`);
  const lb = await adm.balance(low);
  t.equal(lb.balance, 0);
  t.equal(lb.ledger_sum, 0);
  t.ok(res.some((r) => (r.body.ad_selected.skipped ?? []).some((x: any) => x.advertiser_id === low && /insufficient balance \(0 < 4\)/.test(x.reason))), 'skip reason recorded');
  for (const id of [e, f]) {
    const b = await adm.balance(id);
    t.equal(b.balance, 1000 - 2 * count(id));
    t.equal(b.ledger_sum, b.balance);
  }

  await adm.album('alb-empty', 'selected', { advertiser_ids: [low] });
  const none = await print(body('empty-1', 'alb-empty'));
  t.equal(none.status, 200);
  t.equal(none.body.applied.a3_ad, false);
  t.equal(none.body.applied.perforation, false);
  t.equal(none.body.ad_charged, null);
  t.equal(none.body.ad_selected.advertiser_id, null);
  t.equal(none.body.ad_selected.selected_reason, 'no_eligible_advertiser');
  t.match(none.body.ad_selected.skipped, [{ advertiser_id: low, reason: /insufficient balance/ }]);

  // a top-up brings it back
  await adm.call('POST', `/api/v1/admin/print/advertisers/${low}/top-ups`, { points: 8, reason: 'campaign extension' });
  const back = await print(body('empty-2', 'alb-empty'));
  t.equal(back.body.ad_selected.advertiser_id, low);
  t.same(back.body.ad_charged, { balance_before: 8, unit_points: 4, balance_after: 4, charged: true });
  const neg = await adm.call('POST', `/api/v1/admin/print/advertisers/${low}/top-ups`, { points: -5, reason: 'correction' });
  t.equal(neg.status, 409, 'a balance never goes below zero');
  const ledger = await adm.call('GET', `/api/v1/admin/print/advertisers/${low}/ledger`);
  t.same(ledger.body.entries.map((x: any) => x.kind), ['top_up', 'charge', 'charge', 'charge', 'charge', 'charge', 'top_up', 'charge']);
  t.equal(ledger.body.entries.reduce((a: number, x: any) => a + x.delta, 0), 4);
});

t.test('a composition failing after the charge refunds the points; a retry charges once', async (t) => {
  const adv = await adm.advertiser('refund adv', 6, 60);
  await adm.creative(adv, await solid(300, 100, [0, 0, 0]));
  await adm.album('alb-refund', 'selected', { advertiser_ids: [adv] });
  const bad = await print(body('rf-1', 'alb-refund', { ai_image_url: `${img.url}/trunc.jpg` }));
  t.equal(bad.status, 400, bad.body.error?.message);
  t.equal(bad.body.error.field, 'ai_image_url');
  t.match(bad.body.error.message, /truncated|corrupt/);
  let b = await adm.balance(adv);
  t.equal(b.balance, 60, 'points back');
  t.equal(b.ledger_sum, 60);
  const ledger = await adm.call('GET', `/api/v1/admin/print/advertisers/${adv}/ledger`);
  t.same(ledger.body.entries.map((e: any) => [e.kind, e.delta]), [['top_up', 60], ['charge', -6], ['refund', 6]]);
  const imp = await adm.call('GET', `/api/v1/admin/print/impressions?advertiser_id=${adv}`);
  t.equal(imp.body.impressions[0].status, 'refunded');
  const ok = await print(body('rf-1', 'alb-refund'));
  t.equal(ok.status, 200);
  t.equal(ok.body.ad_charged.charged, true);
  b = await adm.balance(adv);
  t.equal(b.balance, 54);
  t.equal(b.ledger_sum, 54);
});

t.test('fixed and none modes, unapproved creatives, ad turned off by the request', async (t) => {
  const adv = await adm.advertiser('fixed adv', 10, 100);
  const app = await adm.creative(adv, await solid(400, 200, [10, 10, 10]), { approve: false });
  await adm.album('alb-fixed', 'fixed', { fixed_application_id: app });
  const r1 = await print(body('fx-1', 'alb-fixed'));
  t.equal(r1.body.applied.a3_ad, false);
  t.equal(r1.body.ad_selected.selected_reason, 'fixed_application_not_approved');
  t.equal((await adm.balance(adv)).balance, 100);
  const ok = await adm.call('POST', `/api/v1/admin/print/applications/${app}/versions/1/approve`, {});
  t.equal(ok.body.approved_version, 1);
  const r2 = await print(body('fx-2', 'alb-fixed'));
  t.equal(r2.body.ad_selected.selected_reason, 'fixed');
  t.equal(r2.body.ad_selected.version, 1);
  t.same(r2.body.ad_charged, { balance_before: 100, unit_points: 10, balance_after: 90, charged: true });
  const creative = await s.req(new URL(r2.body.ad_selected.image_url).pathname);
  t.equal(creative.status, 200);
  t.equal(creative.headers.get('content-type'), 'image/png');
  // keys the spec elides with "…" in settings.ad are accepted (and ignored); the known ones still apply
  const r3 = await print(body('fx-3', 'alb-fixed', { settings: { ad: { show: false, a3_left_padding: 12, vendor_hint: 'x' }, qr: { show: false } } }));
  t.equal(r3.status, 200, `unknown settings.ad keys accepted (${r3.body?.error?.message})`);
  t.equal(r3.body.ad_selected.selected_reason, 'ad_disabled_by_request');
  t.equal(r3.body.ad_charged, null);
  t.equal((await adm.balance(adv)).balance, 90);
  const rej = await adm.call('POST', `/api/v1/admin/print/applications/${app}/versions/1/reject`, {});
  t.equal(rej.status, 400, 'a rejection needs a reason');
  t.equal(rej.body.error.field, 'reason');
  const r4 = await print(body('none-1', 'alb-v'));
  t.equal(r4.body.ad_selected.selected_reason, 'album_ad_mode_none');

  // album print settings are defaults under the request's settings
  await adm.album('alb-defaults', 'none', { settings: { event_name: '앨범 기본', qr: { show: false, size: 100 }, perforation: false } });
  const d1 = await print({ ai_image_url: `${img.url}/ai.jpg`, album_id: 'alb-defaults', job_id: 'def-1', output: small });
  t.equal(d1.body.applied.qr_code, false, 'album default qr.show false');
  t.equal(d1.body.applied.header, true, 'album default event_name');
  const d2 = await print({ ai_image_url: `${img.url}/ai.jpg`, album_id: 'alb-defaults', job_id: 'def-2', output: small, settings: { qr: { show: true, payload: 'x' } } });
  t.equal(d2.body.applied.qr_code, true, 'the request overrides inside qr');
  const p = await adm.call('PATCH', '/api/v1/admin/print/albums/alb-defaults', { settings: null, ad_mode: 'selected' });
  t.equal(p.status, 200);
  t.equal(p.body.settings, undefined);
  t.equal(p.body.ad_mode, 'selected');
  const bad = await adm.call('POST', '/api/v1/admin/print/albums', { name: 'x', ad_mode: 'sometimes' });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, 'ad_mode');
  const badFixed = await adm.call('POST', '/api/v1/admin/print/albums', { name: 'x', ad_mode: 'fixed' });
  t.equal(badFixed.body.error.field, 'fixed_application_id');
  const dup = await adm.call('POST', '/api/v1/admin/print/albums', { id: 'alb-v', name: 'again' });
  t.equal(dup.status, 409);
  const list = await adm.call('GET', '/api/v1/admin/print/albums');
  t.ok(list.body.albums.some((a: any) => a.id === 'alb-defaults'));
  const apps = await adm.call('GET', `/api/v1/admin/print/applications?advertiser_id=${adv}`);
  t.equal(apps.body.applications.length, 1);
  t.equal(apps.body.applications[0].versions[0].status, 'approved');
});

t.test('the sheet: width, 300 dpi, sRGB, key, expiry', async (t) => {
  const sig = `data:image/png;base64,${(await signaturePng()).toString('base64')}`;
  const r = await print(body('sheet-1', 'alb-v', { signature_data_url: sig, output: { format: 'png', target_width: 600, ttl_hours: 1 }, settings: { event_name: '세종 꿈 축제', ticket_no: '7' } }));
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.equal(r.body.width, 600);
  t.same(r.body.applied, { ai_image: true, signature: true, qr_code: true, a3_ad: false, perforation: false, header: true });
  const u = new URL(r.body.image_url);
  const got = await s.req(u.pathname + u.search, { key: null });
  t.equal(got.status, 200);
  t.equal(got.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await got.arrayBuffer());
  const m = await sharp(bytes).metadata();
  t.equal(m.width, 600);
  t.equal(m.height, r.body.height);
  t.equal(m.density, 300);
  t.ok(m.icc && m.icc.includes(Buffer.from('sRGB', 'utf16le').swap16()), 'sRGB ICC profile attached');
  // without settings.qr.payload the QR carries the sheet's own URL, and it decodes from the delivered sheet
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  t.equal(jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data, r.body.image_url);
  const wrong = await s.req(u.pathname + '?key=' + 'x'.repeat(32), { key: null });
  t.equal(wrong.status, 401);
  clock.advance(3600_000 + 1000);
  const gone = await s.req(u.pathname + u.search, { key: null });
  t.equal(gone.status, 410);
  t.equal((await gone.json() as any).error.code, 'IMAGE_EXPIRED');
});
