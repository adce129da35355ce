import t from 'tap';
import { startTestServer, formData } from '../helpers/server.js';
import { receiptScene } from '../helpers/images.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';

t.test('receipt: optimize job → status result → image by access key', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const scene = await receiptScene({ angle: -15 });
  const r = await s.req('/api/v1/receipt/optimize', { method: 'POST', body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) });
  t.equal(r.status, 200);
  const c = await r.json() as any;
  t.match(c.jobId, /^receipt_\d{8}_/);
  t.equal(c.status, 'processing');
  t.type(c.accessKey, 'string');
  let st: any;
  for (let i = 0; i < 600; i++) {
    st = await (await s.req(`/api/v1/receipt/status/${c.jobId}`)).json();
    if (st.status !== 'processing') break;
    await new Promise((res) => setTimeout(res, 100));
  }
  t.equal(st.status, 'completed');
  t.ok(Math.abs(st.result.angle - -15) <= 0.5, `angle ${st.result.angle}`);
  t.equal(st.result.threshold.method, 'sauvola');
  t.equal(st.result.dpi, 300);
  t.equal(st.result.width, 945);
  t.ok(Array.isArray(st.result.steps) && st.result.steps.length >= 6);
  // the access key as Bearer reads the status; ?key= reads the image
  const viaToken = await s.req(`/api/v1/receipt/status/${c.jobId}`, { headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(viaToken.status, 200);
  const img = await s.req(`${st.result.imageUrl}?key=${encodeURIComponent(c.accessKey)}`, { key: null });
  t.equal(img.status, 200);
  const png = Buffer.from(await img.arrayBuffer());
  t.same(pngHeader(png), { width: 945, height: st.result.height, bitDepth: 1, colourType: 0 });
  const other = await s.req(`/api/v1/analyze/status/${c.jobId}`);
  t.equal(other.status, 404, 'not readable through another family');
});
