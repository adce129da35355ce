import t from 'tap';
import { startTestServer, formData } from '../helpers/server.js';
import { cardScene } from '../helpers/images.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';

t.test('contour/extract: PNG edge map of the same size', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const scene = await cardScene({ width: 800, height: 600, corners: [[150, 120], [640, 100], [670, 450], [120, 480]] });
  const r = await s.req('/api/v1/contour/extract', { method: 'POST', body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) });
  t.equal(r.status, 200);
  t.equal(r.headers.get('content-type'), 'image/png');
  const png = Buffer.from(await r.arrayBuffer());
  t.same(pngHeader(png), { width: 800, height: 600, bitDepth: 1, colourType: 0 });
  t.ok(Number(r.headers.get('x-edge-pixels')) > 1500, `edge pixels ${r.headers.get('x-edge-pixels')}`);
  const noKey = await s.req('/api/v1/contour/extract', { method: 'POST', key: null, body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) });
  t.equal(noKey.status, 401);
});
