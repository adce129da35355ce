import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData } from '../helpers/server.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';

t.test('qrcode: generate (open, 1-bit, Hangul centre text) and recognize round trip', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const data = 'https://sejong.example/안녕?a=1&b=2';
  const g = await s.req(`/api/v1/qrcode/generate?data=${encodeURIComponent(data)}&size=400x300&center_text=${encodeURIComponent('세종 영수증')}`, { key: null });
  t.equal(g.status, 200, 'open endpoint: no key needed');
  t.equal(g.headers.get('content-type'), 'image/png');
  t.equal(g.headers.get('x-qr-error-correction'), 'H');
  const png = Buffer.from(await g.arrayBuffer());
  t.same(pngHeader(png), { width: 400, height: 300, bitDepth: 1, colourType: 0 });

  const def = await s.req('/api/v1/qrcode/generate?data=hello', { key: null });
  t.same(pngHeader(Buffer.from(await def.arrayBuffer())).width, 512, 'default 512x512');
  const missing = await s.req('/api/v1/qrcode/generate', { key: null });
  t.equal(missing.status, 400);
  t.equal((await missing.json() as any).error.field, 'data');
  const fmt = await s.req('/api/v1/qrcode/generate?data=x&format=gif', { key: null });
  t.equal((await fmt.json() as any).error.field, 'format');

  const r = await s.req('/api/v1/qrcode/recognize', { method: 'POST', body: formData({}, { image: { data: png, type: 'image/png' } }) });
  t.equal(r.status, 200);
  const b = await r.json() as any;
  t.same([b.success, b.data, b.method, b.attempts], [true, data, 'original', 1]);

  // a code that needs preprocessing: heavy noise
  const { data: grey, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let i = 0; i < grey.length; i++) grey[i] = Math.max(0, Math.min(255, grey[i]! + (rnd() - 0.5) * 360));
  const noisy = await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
  const n = await (await s.req('/api/v1/qrcode/recognize', { method: 'POST', body: formData({}, { image: { data: noisy, type: 'image/png' } }) })).json() as any;
  t.equal(n.success, true, `noisy code decoded by ${n.method} after ${n.attempts} attempts`);
  t.equal(n.data, data);
  const off = await (await s.req('/api/v1/qrcode/recognize', { method: 'POST', body: formData({ enablePreprocessing: 'false' }, { image: { data: noisy, type: 'image/png' } }) })).json() as any;
  t.equal(off.attempts, 1, 'enablePreprocessing=false: one attempt');

  const blank = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#fff' } }).jpeg().toBuffer();
  const none = await s.req('/api/v1/qrcode/recognize', { method: 'POST', body: formData({}, { image: { data: blank, type: 'image/jpeg' } }) });
  t.equal(none.status, 200, 'no code is not an error status');
  const nb = await none.json() as any;
  t.same([nb.success, nb.data], [false, null]);
  t.match(nb.message, /No QR code/);
});
