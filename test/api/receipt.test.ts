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
  t.equal(typeof st.result, 'string', 'result is a string (the spec), the result image URL');
  t.equal(st.result, `/api/v1/receipt/image/${c.jobId}`);
  t.equal(st.details.imageUrl, st.result);
  t.ok(Math.abs(st.details.angle - -15) <= 0.5, `angle ${st.details.angle}`);
  t.equal(st.details.threshold.method, 'sauvola');
  t.equal(st.details.dpi, 300);
  t.equal(st.details.width, 945);
  t.ok(Array.isArray(st.details.steps) && st.details.steps.length >= 6);
  // the access key as Bearer reads the status; ?key= reads the image
  const viaToken = await s.req(`/api/v1/receipt/status/${c.jobId}`, { headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(viaToken.status, 200);
  const img = await s.req(`${st.result}?key=${encodeURIComponent(c.accessKey)}&_=${Date.now()}`, { key: null });
  t.equal(img.status, 200, 'an unknown query parameter (cache-buster) is ignored');
  const png = Buffer.from(await img.arrayBuffer());
  t.same(pngHeader(png), { width: 945, height: st.details.height, bitDepth: 1, colourType: 0 });
  const other = await s.req(`/api/v1/analyze/status/${c.jobId}`);
  t.equal(other.status, 404, 'not readable through another family');
});
