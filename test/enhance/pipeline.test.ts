// POST /ekyc/enhance-pipeline: crop → quality → OCR → enhance; doc_type detected; skips; a failing step named.
import t from 'tap';
import sharp from 'sharp';
import { startTestServer, formData } from '../helpers/server.js';
import { renderCard, charAccuracy } from '../helpers/id-cards.js';

const s = await startTestServer({ workers: 2 });
t.teardown(() => s.close());
const post = (fields: Record<string, string | boolean | undefined>, image: Buffer) =>
  s.req('/api/v1/ekyc/enhance-pipeline', { method: 'POST', body: formData(fields, { image: { data: image, type: 'image/jpeg', filename: 'photo.jpg' } }) });

/** A phone-like photo: the card rotated a little on a dark table. */
async function photo(card: Buffer): Promise<Buffer> {
  const rotated = await sharp(card).rotate(4, { background: '#2b2b30' }).png().toBuffer();
  return sharp(rotated).extend({ top: 160, bottom: 160, left: 200, right: 200, background: '#2b2b30' }).jpeg({ quality: 90 }).toBuffer();
}

t.test('the whole pipeline on a photo, doc_type detected', async (t) => {
  const card = await renderCard('driver', { seed: 12, degrade: { blur: 0.8, noise: 6 } });
  const r = await post({ tenant_id: 'bank-p' }, await photo(card.image));
  t.equal(r.status, 200);
  const b = await r.json();
  t.match(b, { success: true, jobId: /^ekyc-pipeline-\d{8}-/, docType: 'driver', docTypeSource: 'detected', totalTimeMs: Number, estimatedCostUsd: 0.023 });
  t.match(b.steps.perspectiveCrop, { success: true, detectedCorners: Array, confidence: Number, outputWidth: 1280, outputHeight: 807 });
  t.match(b.steps.qualityAnalysis, { success: true, brightness: Number, contrast: Number, sharpness: Number, overallScore: Number, recommendations: Array });
  t.match(b.steps.ocr, { success: true, docType: 'driver', fields: { name: { text: String, confidence: Number } } });
  t.ok(charAccuracy(card.truth.name!, b.steps.ocr.fields.name.text) >= 0.66, `name read: ${b.steps.ocr.fields.name.text}`);
  t.match(b.steps.enhance, { success: true, tilesProcessed: 15, enhancedImageUrl: new RegExp(`/api/v1/ekyc/enhance-pipeline/image/${b.jobId}$`), qualityBefore: Object, qualityAfter: Object, privacyMode: 'juminMask' });
  const img = await s.req(`/api/v1/ekyc/enhance-pipeline/image/${b.jobId}`);
  t.equal(img.status, 200);
  t.equal(img.headers.get('content-type'), 'image/jpeg');
  t.equal((await s.req(`/api/v1/ekyc/enhance/image/${b.jobId}`)).status, 404, 'not through the enhance family');
  const st = await (await s.req(`/api/v1/ekyc/enhance-pipeline/status/${b.jobId}`)).json();
  t.match(st, { status: 'completed', progress: 1, docType: 'driver' });
  const usage = await (await s.req('/api/v1/admin/usage/tenants?tenant=bank-p', { key: s.adminKey })).json();
  t.match(usage.rows, [{ tenant: 'bank-p', jobs: 1, costUsd: 0.023, byFamily: { ekyc_pipeline: { jobs: 1 } } }]);
});

t.test('skipped steps say so; the cost follows', async (t) => {
  const card = await renderCard('jumin', { seed: 13 });
  const jpg = await sharp(card.image).jpeg({ quality: 90 }).toBuffer();
  const r = await post({ doc_type: 'jumin', skip_crop: 'true', skip_ocr: 'true' }, jpg);
  t.equal(r.status, 200);
  const b = await r.json();
  t.match(b.steps, {
    perspectiveCrop: { success: true, skipped: true, reason: 'skip_crop=true' },
    qualityAnalysis: { success: true },
    ocr: { success: true, skipped: true, reason: 'skip_ocr=true' },
    enhance: { success: true, tilesProcessed: 15 },
  });
  t.equal(b.docTypeSource, 'given');
  t.equal(b.estimatedCostUsd, 0.011);
  const r2 = await post({ doc_type: 'jumin', skip_crop: 'true', skip_ocr: 'true', skip_enhance: 'true' }, jpg);
  const b2 = await r2.json();
  t.match(b2.steps.enhance, { success: true, skipped: true, reason: 'skip_enhance=true' });
  t.equal((await s.req(`/api/v1/ekyc/enhance-pipeline/image/${b2.jobId}`)).status, 404, 'no image when enhance was skipped');
  const bad = await post({ skip_ocr: 'maybe' }, jpg);
  t.equal(bad.status, 400);
  t.equal((await bad.json()).error.field, 'skip_ocr');
  const badRegions = await post({ privacy_regions: '{"regions":[{"x":2,"y":0,"w":0.1,"h":0.1}]}' }, jpg);
  t.equal(badRegions.status, 400);
  t.equal((await badRegions.json()).error.field, 'privacy_regions.regions[0].x');
});

t.test('a failing step fails the pipeline with the step named', async (t) => {
  const blank = await sharp({ create: { width: 1000, height: 700, channels: 3, background: '#777777' } }).jpeg().toBuffer();
  const r = await post({ doc_type: 'jumin' }, blank);
  t.equal(r.status, 400);
  const b = await r.json();
  t.match(b.error, { code: 'INVALID_REQUEST', message: /^Step perspectiveCrop failed: /, details: { failedStep: 'perspectiveCrop', steps: { perspectiveCrop: { success: false } } } });
});
