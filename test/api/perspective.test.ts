import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData } from '../helpers/server.js';
import { cardScene } from '../helpers/images.js';

t.test('perspective-crop: detected corners within 4 px, crop 1280x807 inline', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const scene = await cardScene({});
  const r = await s.req('/api/v1/ekyc/perspective-crop', { method: 'POST', body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) });
  t.equal(r.status, 200);
  const b = await r.json() as any;
  t.equal(b.success, true);
  const err = Math.max(...b.detectedCorners.map((p: number[], i: number) => Math.hypot(p[0]! - scene.corners[i]![0], p[1]! - scene.corners[i]![1])));
  t.ok(err < 4, `corner error ${err.toFixed(2)} px`);
  t.equal(b.cardType, 'id-1');
  t.ok(b.confidence > 0.6);
  const meta = await sharp(Buffer.from(b.croppedImage, 'base64')).metadata();
  t.same([meta.format, meta.width, meta.height], ['jpeg', 1280, 807]);

  const given = await (await s.req('/api/v1/ekyc/perspective-crop', { method: 'POST', body: formData({ corners: JSON.stringify(scene.corners), output_width: 640, output_height: 404 }, { image: { data: scene.jpeg, type: 'image/jpeg' } }) })).json() as any;
  t.equal(given.cornerSource, 'given');
  t.same(given.detectedCorners, scene.corners);
  const m2 = await sharp(Buffer.from(given.croppedImage, 'base64')).metadata();
  t.same([m2.width, m2.height], [640, 404]);

  const plain = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#6b4a2a' } }).jpeg().toBuffer();
  const none = await (await s.req('/api/v1/ekyc/perspective-crop', { method: 'POST', body: formData({}, { image: { data: plain, type: 'image/jpeg' } }) })).json() as any;
  t.equal(none.success, false);
  t.equal(none.detectedCorners, null);
  t.match(none.message, /No card outline/);
});
