// Thin and huge-aspect images (1x1, 1x300, 300x1, 20000x10, 10x20000) on the endpoints thin-images.test.ts leaves
// out: analyze, image-to-image (upload and imageUrl) and print (ai_image_url, and an advertiser's creative).
// Each answers a result or a 4xx in the error shape naming the field, never 5xx; a job never ends INTERNAL_ERROR;
// a refused print charges nothing.
import t, { type Test } from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { formData } from '../helpers/server.js';
import { startAiWorld } from '../ai/helpers.js';
import { admin } from '../print/helpers.js';

const SIZES: [number, number][] = [[1, 1], [1, 300], [300, 1], [20000, 10], [10, 20000]];
const png = (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } }).png().toBuffer();

const w = await startAiWorld({ workers: 2, env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
const s = w.server;
const images = http.createServer((req, res) => {
  const m = /^\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
  if (!m) return void res.writeHead(404).end();
  void png(Number(m[1]), Number(m[2])).then((b) => res.writeHead(200, { 'content-type': 'image/png', 'content-length': b.length }).end(b));
});
await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
const imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
t.teardown(async () => {
  images.close();
  await w.close();
});

async function answer(r: Response): Promise<{ status: number; body: any }> {
  return { status: r.status, body: await r.json() };
}
/** 200 with success, or 4xx in the error shape naming one of the fields; never 5xx */
function sane(t: Test, label: string, r: { status: number; body: any }, fields: string[]): boolean {
  t.comment(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  if (r.status === 200 || r.status === 201) {
    t.not(r.body.success, false, `${label}: success`);
    return true;
  }
  t.ok(r.status >= 400 && r.status < 500, `${label}: ${r.status} is 4xx`);
  t.equal(r.body.success, false, `${label}: error shape`);
  t.type(r.body.error?.code, 'string', `${label}: error code`);
  t.ok(fields.includes(r.body.error?.field), `${label}: names ${r.body.error?.field} (one of ${fields})`);
  t.match(r.body.error?.message, /\S/, `${label}: a message`);
  return false;
}
async function settled(t: Test, label: string, path: string, accessKey: string, fields: string[]): Promise<void> {
  let st: any;
  for (let i = 0; i < 1200; i++) {
    st = await (await s.req(path, { key: null, headers: { authorization: `Bearer ${accessKey}` } })).json();
    if (st.status !== 'processing') break;
    await new Promise((r) => setTimeout(r, Math.min(250, 25 + 10 * i)));
  }
  t.comment(`${label}: job ${JSON.stringify(st).slice(0, 300)}`);
  t.ok(['completed', 'failed'].includes(st.status), `${label}: ended (${st.status})`);
  t.notMatch(JSON.stringify(st), /INTERNAL_ERROR/, `${label}: no INTERNAL_ERROR`);
  if (st.status === 'failed') t.ok(fields.includes(st.error?.field), `${label}: the failure names one of ${fields} (${st.error?.field})`);
}

t.test('analyze: thin uploads', async (t) => {
  for (const [wd, ht] of SIZES) {
    const label = `analyze ${wd}x${ht}`;
    const r = await answer(await s.req('/api/v1/analyze/image', { method: 'POST', body: formData({ prompt: 'what is it?' }, { image: { data: await png(wd, ht), filename: 'p.png', type: 'image/png' } }) }));
    if (sane(t, label, r, ['image'])) await settled(t, label, `/api/v1/analyze/status/${r.body.jobId}`, r.body.accessKey, ['image']);
  }
});

t.test('image-to-image: thin uploads and thin imageUrl', async (t) => {
  for (const [wd, ht] of SIZES) {
    const up = await answer(await s.req('/api/v1/image-to-image/generate', { method: 'POST', body: formData({ prompt: 'a pirate' }, { image: { data: await png(wd, ht), filename: 'me.png', type: 'image/png' } }) }));
    if (sane(t, `img2img upload ${wd}x${ht}`, up, ['image'])) await settled(t, `img2img upload ${wd}x${ht}`, `/api/v1/image-to-image/status/${up.body.jobId}`, up.body.accessKey, ['image']);
    const byUrl = await answer(await s.req('/api/v1/image-to-image/generate', { method: 'POST', body: formData({ prompt: 'a pirate', imageUrl: `${imageBase}/${wd}/${ht}.png` }) }));
    if (sane(t, `img2img url ${wd}x${ht}`, byUrl, ['imageUrl'])) await settled(t, `img2img url ${wd}x${ht}`, `/api/v1/image-to-image/status/${byUrl.body.jobId}`, byUrl.body.accessKey, ['imageUrl']);
  }
});

t.test('print: thin ai_image_url and a thin creative; a refused print charges nothing', async (t) => {
  const adm = admin(s);
  await adm.album('alb-thin', 'selected');
  const adv = await adm.advertiser('thin-ads', 5, 1000);
  await adm.creative(adv, await png(600, 200), { album_ids: ['alb-thin'] });
  for (const [wd, ht] of SIZES) {
    const label = `creative ${wd}x${ht}`;
    const fd = formData({ advertiser_id: adv, title: label }, { image: { data: await png(wd, ht), filename: 'ad.png', type: 'image/png' } });
    const r = await answer(await s.req('/api/v1/admin/print/applications', { method: 'POST', body: fd, key: s.adminKey }));
    const ok = sane(t, label, r, ['image']);
    t.equal(ok, Math.max(wd, ht) / Math.min(wd, ht) <= 12, `${label}: ${ok ? 'accepted' : 'refused for its aspect (beyond 1:12..12:1)'}`);
  }
  let n = 0;
  for (const [wd, ht] of SIZES) {
    const before = await adm.balance(adv);
    const label = `print ${wd}x${ht}`;
    const body = { ai_image_url: `${imageBase}/${wd}/${ht}.png`, album_id: 'alb-thin', job_id: `thin-${++n}`, settings: { qr: { show: false } }, output: { target_width: 300, quality: 80 } };
    const r = await answer(await s.req('/api/v1/composite/print', { method: 'POST', json: body }));
    const ok = sane(t, label, r, ['ai_image_url']);
    if (Math.max(wd, ht) / Math.min(wd, ht) > 6) t.match(r.body.error?.message, new RegExp(`aspect ratio between 1:6 and 6:1 for ai_image_url but received string "${wd}x${ht}"`), `${label}: refused for its aspect`);
    const after = await adm.balance(adv);
    t.equal(after.balance, after.ledger_sum, `${label}: balance equals the ledger`);
    if (!ok) t.equal(after.balance, before.balance, `${label}: refused, nothing charged`);
    else t.equal(after.balance, before.balance - 5, `${label}: printed with the ad, charged once`);
  }
});
