import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData } from '../helpers/server.js';
import { cardScene } from '../helpers/images.js';

t.test('quality-check and analyze-quality answer their own field names with the same measurement', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const scene = await cardScene({});
  const blurred = await sharp(scene.jpeg).blur(4).jpeg().toBuffer();
  const q = await (await s.req('/api/v1/ekyc/image/quality-check', { method: 'POST', body: formData({}, { image: { data: scene.jpeg, type: 'image/jpeg' } }) })).json() as any;
  t.equal(q.passed, true);
  for (const f of ['brightness', 'contrast', 'sharpness', 'overall_quality', 'processing_time_ms']) t.type(q[f], 'number', f);
  t.same(q.suggestions, []);
  const a = await (await s.req('/api/v1/ekyc/analyze-quality', { method: 'POST', body: formData({}, { image: { data: blurred, type: 'image/jpeg' } }) })).json() as any;
  t.equal(a.isBlurry, true);
  t.match(a.bucketKey, /^blurry-/);
  t.ok(a.recommendations.length >= 1);
  t.ok(a.sharpness < q.sharpness - 30, `blurred ${a.sharpness} vs sharp ${q.sharpness}`);
  t.type(a.overallScore, 'number');
});
