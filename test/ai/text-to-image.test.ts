// POST /api/v1/text-to-image/generate → status → download, end to end through the job engine against the fakes.
import t from 'tap';
import { ManualClock } from '../../src/clock.js';
import { fakePng, dims } from '../fakes/ai-base.js';
import { errorOf, markDiff, poll, startAiWorld } from './helpers.js';

const clock = new ManualClock();
const w = await startAiWorld({ manualClock: clock });
t.teardown(() => w.close());
const { server, famb, famc } = w;
t.beforeEach(() => {
  famb.reset();
  famc.reset();
});

const gen = (json: unknown) => server.req('/api/v1/text-to-image/generate', { method: 'POST', json });

t.test('family B image model: create, poll with the access key, mark, download, spend', async (t) => {
  const r = await gen({ model: 'fam-b-3.1-flash-image-preview', prompt: 'a lighthouse', style: 'watercolour', aspect_ratio: '16:9', image_size: '1K', system_instruction: 'be bold', storage_type: 'base64', ttlHours: 2 });
  t.equal(r.status, 200);
  const c = (await r.json()) as any;
  t.match(c, { success: true, status: 'processing', model: 'fam-b-3.1-flash-image-preview', estimatedCost: 0.067 });
  t.match(c.jobId, /^txt2img_\d{8}_/);
  t.type(c.accessKey, 'string');
  t.match(c.message, /status/);

  const s = await poll(server, `/api/v1/text-to-image/status/${c.jobId}`, { key: null, headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(s.status, 'completed');
  t.equal(s.imageUrl, `${server.url}/api/v1/text-to-image/download/${c.jobId}`);
  t.type(s.processingTimeMs, 'number');
  t.equal(s.actualCost, 0.067);

  // later polls are answered from the kept answer in the turn they arrive (api/answer-cache.ts keptAnswer): the same
  // bytes and headers as the poll that built it, for the access key and the owner key alike
  const statusUrl = `/api/v1/text-to-image/status/${c.jobId}`;
  const first = await server.req(statusUrl, { key: null, headers: { authorization: `Bearer ${c.accessKey}` } });
  const firstBody = Buffer.from(await first.arrayBuffer());
  for (const opts of [{ key: null, headers: { authorization: `Bearer ${c.accessKey}` } }, {}]) {
    const again = await server.req(statusUrl, opts);
    t.equal(again.status, 200);
    t.equal(again.headers.get('content-type'), first.headers.get('content-type'), 'kept answer: same content type');
    t.equal(Buffer.from(await again.arrayBuffer()).compare(firstBody), 0, 'kept answer: the same bytes');
  }
  t.equal(JSON.parse(firstBody.toString()).imageData, s.imageData);

  const sent = famb.last!;
  t.equal(sent.path, '/v1beta/models/fam-b-3.1-flash-image-preview:generateContent');
  t.same(sent.body.generationConfig.imageConfig, { aspectRatio: '16:9', imageSize: '1K' });
  t.equal(sent.body.systemInstruction.parts[0].text, 'be bold');
  t.match(sent.body.contents[0].parts[0].text, /a lighthouse[\s\S]*Style: watercolour/);

  const png = Buffer.from(s.imageData, 'base64');
  const [ew, eh] = dims('16:9', famb.imageBase);
  const d = await markDiff(await fakePng(ew, eh), png);
  t.equal(d.outside, 0, 'pixels outside the mark are the upstream pixels');
  t.ok(d.inside > d.area / 2, `mark present in the lower-right corner (${d.inside}/${d.area})`);

  const dl = await server.req(`/api/v1/text-to-image/download/${c.jobId}`, { key: null, headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(dl.status, 200);
  t.equal(dl.headers.get('content-type'), 'image/png');
  t.equal(Buffer.from(await dl.arrayBuffer()).compare(png), 0, 'download = imageData');
  const dl2 = await server.req(`/api/v1/text-to-image/download/${c.jobId}`);
  t.equal(dl2.status, 200, 'API key works too');

  const spend = (await server.services.spend.forKey(server.apiKeyId));
  t.ok(spend.some((row) => row.byFamily.txt2img && row.byFamily.txt2img.cost >= 0.067), 'cost recorded per key');

  // expiry: ttlHours 2 → 410 afterwards on status and download
  clock.advance(2 * 3600_000 + 1000);
  const ex = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`));
  t.same([ex.status, ex.code], [410, 'IMAGE_EXPIRED']);
  const exd = await errorOf(await server.req(`/api/v1/text-to-image/download/${c.jobId}`));
  t.same([exd.status, exd.code], [410, 'IMAGE_EXPIRED']);
  await server.services.jobs.sweep();
  const ex2 = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`));
  t.same([ex2.status, ex2.code], [410, 'IMAGE_EXPIRED'], 'still 410 after the sweeper deleted the blob');
});

t.test('default image size is 2K; default ttl is 1 hour', async (t) => {
  const c = (await (await gen({ model: 'fam-b-3-pro-image-preview', prompt: 'x' })).json()) as any;
  t.equal(c.estimatedCost, 0.12);
  const s = await poll(server, `/api/v1/text-to-image/status/${c.jobId}`);
  t.equal(famb.last!.body.generationConfig.imageConfig.imageSize, '2K');
  t.equal(Date.parse(s.expiresAt) - clock.now(), 3600_000);
});

t.test('family C images-generations: b64_json, size from the aspect ratio, mark', async (t) => {
  const c = (await (await gen({ model: 'fam-c-image-1', prompt: 'a fox', aspect_ratio: '3:4' })).json()) as any;
  t.equal(c.estimatedCost, 0.08, 'non-square price');
  const s = await poll(server, `/api/v1/text-to-image/status/${c.jobId}`);
  t.equal(s.status, 'completed');
  t.same(famc.last!.body, { model: 'fam-c-image-1', prompt: 'a fox', n: 1, size: '1024x1536' });
  const d = await markDiff(await fakePng(96, 144), Buffer.from(s.imageData, 'base64'));
  t.equal(d.outside, 0);
  t.ok(d.inside > d.area / 2);
});

t.test('family D through the B predict API; fam-c-image-1-mini accepted', async (t) => {
  const c = (await (await gen({ model: 'fam-d-3', prompt: 'a tree' })).json()) as any;
  const s = await poll(server, `/api/v1/text-to-image/status/${c.jobId}`);
  t.equal(s.status, 'completed');
  t.equal(famb.last!.path, '/v1beta/models/fam-d-3:predict');
  t.equal(s.actualCost, 0.03);
  const m = await gen({ model: 'fam-c-image-1-mini', prompt: 'a tree' });
  t.equal(m.status, 200);
  t.equal((await poll(server, `/api/v1/text-to-image/status/${((await m.json()) as any).jobId}`)).status, 'completed');
});

t.test('bad fields → 400 naming the field', async (t) => {
  const cases: Array<[unknown, string]> = [
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', image_size: '2K' }, 'image_size'],
    [{ model: 'fam-c-image-1', prompt: 'x', system_instruction: 'y' }, 'system_instruction'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', ttlHours: '2' }, 'ttlHours'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', ttlHours: 0 }, 'ttlHours'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', image_size: '8K' }, 'image_size'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', aspect_ratio: '7:5' }, 'aspect_ratio'],
    [{ model: 'fam-b-2.5-flash-image', prompt: '   ' }, 'prompt'],
    [{ model: 'fam-b-2.5-flash-image' }, 'prompt'],
    [{ prompt: 'x' }, 'model'],
    [{ model: 'fam-a-opus-4-7', prompt: 'x' }, 'model'],
    [{ model: 'no-such-model', prompt: 'x' }, 'model'],
    [{ model: 'fam-e-3', prompt: 'x' }, 'model'],
    [{ model: 'fam-b-2.5-flash-image', prompt: 'x', colour: 'red' }, 'colour'],
  ];
  for (const [body, field] of cases) {
    const e = await errorOf(await gen(body));
    t.same([e.status, e.code, e.field], [400, 'INVALID_REQUEST', field], `${JSON.stringify(body)} → ${e.message}`);
  }
  const e = await errorOf(await gen({ model: 'fam-c-image-1', prompt: 'x', image_size: '1K' }));
  t.match(e.message, /fam-b-3\.1-flash-image-preview, fam-b-3-pro-image-preview/);
  const r = await errorOf(await gen({ model: 'fam-e-3', prompt: 'x' }));
  t.match(r.message, /retired on 2026-05-12/);
});

t.test('wrong family, unknown job, other key → 404; no key → 401', async (t) => {
  const c = (await (await gen({ model: 'fam-b-2.5-flash-image', prompt: 'x' })).json()) as any;
  await poll(server, `/api/v1/text-to-image/status/${c.jobId}`);
  for (const p of [`/api/v1/image-to-image/status/${c.jobId}`, `/api/v1/analyze/status/${c.jobId}`, `/api/v1/caricature/status/${c.jobId}`, '/api/v1/text-to-image/status/txt2img_20261122_nope']) {
    const e = await errorOf(await server.req(p));
    t.same([e.status, e.code], [404, 'JOB_NOT_FOUND'], p);
  }
  const e = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`, { key: null }));
  t.same([e.status, e.code], [401, 'INVALID_API_KEY']);
  const bad = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`, { key: null, headers: { authorization: 'Bearer not-the-key' } }));
  t.equal(bad.status, 401);
});

t.test('upstream 429 is retried once; 500 twice fails the job with AI_API_ERROR', async (t) => {
  famb.next({ status: 429, retryAfter: '0' });
  const c = (await (await gen({ model: 'fam-b-2.5-flash-image', prompt: 'retry me' })).json()) as any;
  const s = await poll(server, `/api/v1/text-to-image/status/${c.jobId}`);
  t.equal(s.status, 'completed');
  t.equal(famb.requests.length, 2);

  famb.reset();
  famb.next({ status: 500 }, { status: 500 });
  const f = (await (await gen({ model: 'fam-b-2.5-flash-image', prompt: 'fail me' })).json()) as any;
  const fs = await poll(server, `/api/v1/text-to-image/status/${f.jobId}`);
  t.equal(fs.status, 'failed');
  t.equal(fs.error.code, 'AI_API_ERROR');
  t.match(fs.error.message, /HTTP 500.*retried once/);
  t.notMatch(fs.error.message, /scripted|famb-test-key/);
  t.equal(fs.actualCost, 0);
  t.equal(famb.requests.length, 2);
  const dl = await errorOf(await server.req(`/api/v1/text-to-image/download/${f.jobId}`));
  t.equal(dl.code, 'JOB_FAILED');

  famc.next('malformed');
  const mf = (await (await gen({ model: 'fam-c-image-1', prompt: 'x' })).json()) as any;
  const ms = await poll(server, `/api/v1/text-to-image/status/${mf.jobId}`);
  t.same([ms.status, ms.error.code], ['failed', 'AI_API_ERROR']);
});

t.test('GET /api/v1/text-to-image/models', async (t) => {
  const r = await server.req('/api/v1/text-to-image/models');
  t.equal(r.status, 200);
  const { models } = (await r.json()) as any;
  const byId = Object.fromEntries(models.map((m: any) => [m.id, m]));
  t.same(byId['fam-b-3.1-flash-image-preview'].supportedImageSizes, ['1K', '2K', '4K']);
  t.equal(byId['fam-b-3.1-flash-image-preview'].supportsSystemInstruction, true);
  t.equal(byId['fam-b-2.5-flash-image'].supportsSystemInstruction, true);
  t.same(byId['fam-b-2.5-flash-image'].supportedImageSizes, []);
  t.equal(byId['fam-c-image-1'].supportsSystemInstruction, false);
  t.equal(byId['fam-c-image-1'].costPerImage, '$0.04 to $0.08 per image');
  t.equal(byId['fam-d-3'].provider, 'fam-b');
  t.notOk(byId['fam-e-3'], 'retired model not offered');
  t.notOk(byId['fam-a-opus-4-7']);
  t.equal((await server.req('/api/v1/text-to-image/models', { key: null })).status, 401);
});
