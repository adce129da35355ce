// POST /api/v1/analyze/image → GET /api/v1/analyze/status/{job_id}: vision through each family, preprocessing.
import t from 'tap';
import sharp from 'sharp';
import { ManualClock } from '../../src/clock.js';
import { formData } from '../helpers/server.js';
import { fakePng } from '../fakes/ai-base.js';
import { errorOf, poll, startAiWorld } from './helpers.js';

const clock = new ManualClock();
const w = await startAiWorld({ manualClock: clock });
t.teardown(() => w.close());
const { server, fama, famb, famc } = w;
t.beforeEach(() => {
  fama.reset();
  famb.reset();
  famc.reset();
});
const photo = await fakePng(320, 200);
const analyze = (fields: Record<string, string | number | boolean | undefined>, file: Buffer | null = photo) =>
  server.req('/api/v1/analyze/image', { method: 'POST', body: formData(fields, file ? { image: { data: file, filename: 'p.png', type: 'image/png' } } : {}) });

t.test('default model (family B), result text, usage, cost, spend', async (t) => {
  const r = await analyze({ prompt: 'What colours?' });
  t.equal(r.status, 200);
  const c = (await r.json()) as any;
  t.match(c, { success: true, status: 'processing', model: 'fam-b-3-flash-preview' });
  t.match(c.jobId, /^analyze_\d{8}_/);
  t.type(c.estimatedCost, 'number');
  const s = await poll(server, `/api/v1/analyze/status/${c.jobId}`, { key: null, headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(s.status, 'completed');
  t.equal(s.result, 'fam-b answer to: What colours?');
  t.ok(s.usage.input_tokens > 258);
  t.ok(s.actualCost > 0);
  t.equal(s.preprocessing, null);
  const body = famb.last!.body;
  t.equal(body.generationConfig.temperature, 0.7);
  t.equal(body.generationConfig.maxOutputTokens, 4096);
  t.equal(body.contents[0].parts[0].inlineData.mimeType, 'image/png');
  const sent = Buffer.from(body.contents[0].parts[0].inlineData.data, 'base64');
  t.equal((await sharp(sent).metadata()).width, 320, 'the picture itself, unprocessed');
  t.ok((await server.services.spend.forKey(server.apiKeyId)).some((d) => (d.byFamily.analyze?.cost ?? 0) > 0));
});

t.test('family A and C vision models', async (t) => {
  const a = (await (await analyze({ model: 'fam-a-sonnet-4-6', temperature: 0.1 })).json()) as any;
  const sa = await poll(server, `/api/v1/analyze/status/${a.jobId}`);
  t.match(sa.result, /^fam-a answer to: Describe this image/);
  t.equal(fama.last!.body.messages[0].content[0].type, 'image');
  t.equal(fama.last!.body.temperature, 0.1);
  const c = (await (await analyze({ model: 'fam-c-4o' })).json()) as any;
  const sc = await poll(server, `/api/v1/analyze/status/${c.jobId}`);
  t.match(sc.result, /^fam-c answer to/);
  t.match(famc.last!.body.messages[0].content[1].image_url.url, /^data:image\/png;base64,/);
});

t.test('preprocessing presets run before the provider call', async (t) => {
  const q = (await (await analyze({ enablePreprocessing: true, preprocessingPreset: 'qr' })).json()) as any;
  const sq = await poll(server, `/api/v1/analyze/status/${q.jobId}`);
  t.equal(sq.preprocessing.preset, 'qr');
  const sent = Buffer.from(famb.last!.body.contents[0].parts[0].inlineData.data, 'base64');
  const raw = await sharp(sent).raw().toBuffer();
  t.ok(raw.every((v) => v === 0 || v === 255), 'the provider got the binarised picture');

  const o = (await (await analyze({ preprocessingPreset: 'ocr' })).json()) as any;
  const so = await poll(server, `/api/v1/analyze/status/${o.jobId}`);
  t.equal(so.preprocessing.preset, 'ocr', 'a preset alone enables preprocessing');
  const ocrSent = Buffer.from(famb.last!.body.contents[0].parts[0].inlineData.data, 'base64');
  const meta = await sharp(ocrSent).metadata();
  t.same([meta.width, meta.height], [960, 600], 'small picture upscaled (x3) for OCR');

  const e = (await (await analyze({ enablePreprocessing: 'true' })).json()) as any;
  const se = await poll(server, `/api/v1/analyze/status/${e.jobId}`);
  t.same(se.preprocessing.steps, ['auto-levels', 'denoise-median3', 'sharpen-light'], 'enhance is the default preset');
});

t.test('bad fields → 400 naming the field; wrong family → 404; expiry → 410', async (t) => {
  const cases: Array<[Record<string, string | number | boolean>, Buffer | null, string]> = [
    [{}, null, 'image'],
    [{ temperature: 1.5 }, photo, 'temperature'],
    [{ preprocessingPreset: 'sepia' }, photo, 'preprocessingPreset'],
    [{ enablePreprocessing: 'maybe' }, photo, 'enablePreprocessing'],
    [{ enablePreprocessing: false, preprocessingPreset: 'ocr' }, photo, 'preprocessingPreset'],
    [{ model: 'fam-a-haiku-4-5-20251001' }, photo, 'model'],
    [{ model: 'fam-b-2.5-flash' }, photo, 'model'],
    [{ max_tokens: 5 }, photo, 'max_tokens'],
  ];
  for (const [f, file, field] of cases) {
    const e = await errorOf(await analyze(f, file));
    t.same([e.status, e.code, e.field], [400, 'INVALID_REQUEST', field], `${JSON.stringify(f)} → ${e.message}`);
  }
  const bad = await errorOf(await analyze({}, Buffer.from('GIF89a not really')));
  t.equal(bad.status, 415);

  const c = (await (await analyze({})).json()) as any;
  await poll(server, `/api/v1/analyze/status/${c.jobId}`);
  const e = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`));
  t.same([e.status, e.code], [404, 'JOB_NOT_FOUND']);
  clock.advance(24 * 3600_000 + 1);
  const ex = await errorOf(await server.req(`/api/v1/analyze/status/${c.jobId}`));
  t.same([ex.status, ex.code], [410, 'IMAGE_EXPIRED']);
});

t.test('upstream 429 retried once; 500 → failed AI_API_ERROR; slow beyond timeout → AI_API_ERROR', async (t) => {
  famb.next({ status: 429 });
  const c = (await (await analyze({})).json()) as any;
  t.equal((await poll(server, `/api/v1/analyze/status/${c.jobId}`)).status, 'completed');
  t.equal(famb.requests.length, 2);
  famb.reset();
  famb.next({ status: 500 }, { status: 500 });
  const f = (await (await analyze({})).json()) as any;
  const sf = await poll(server, `/api/v1/analyze/status/${f.jobId}`);
  t.same([sf.status, sf.error.code, sf.result], ['failed', 'AI_API_ERROR', null]);
  famb.reset();
  famb.next({ slowMs: 3500 });
  const sl = (await (await analyze({})).json()) as any;
  const ss = await poll(server, `/api/v1/analyze/status/${sl.jobId}`);
  t.same([ss.status, ss.error.code], ['failed', 'AI_API_ERROR']);
  t.match(ss.error.message, /within 3000 ms/);
});
