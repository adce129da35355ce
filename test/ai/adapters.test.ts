// The three wire adapters against the fake providers: what is sent (headers, body shape, model, image parts),
// what comes back (text, usage, image bytes), retries on 429/5xx, errors mapped to 502 without body or key.
import t from 'tap';
import sharp from 'sharp';
import { Catalog } from '../../src/catalog/catalog.js';
import { AiGateway } from '../../src/providers/ai/gateway.js';
import { ApiError } from '../../src/domain/errors.js';
import { startFama } from '../fakes/fama.js';
import { startFamb } from '../fakes/famb.js';
import { startFamc } from '../fakes/famc.js';
import { fakePng } from '../fakes/ai-base.js';

const fama = await startFama();
const famb = await startFamb();
const famc = await startFamc();
t.teardown(async () => {
  await Promise.all([fama.close(), famb.close(), famc.close()]);
});

const cfg = {
  famaUrl: fama.url, famaKey: fama.key,
  fambUrl: famb.url, fambKey: famb.key,
  famcUrl: famc.url, famcKey: famc.key,
  aiTimeoutMs: 2000,
};
const catalog = Catalog.fromObject({ models: [{ id: 'fam-a-sonnet-4-6', upstream: 'real-sonnet-name' }] });
const gw = new AiGateway(catalog, cfg, () => Date.UTC(2026, 10, 22), { backoffMs: 20, maxBackoffMs: 50 });
const photo = await fakePng(40, 30);

const rejects = async (p: Promise<unknown>): Promise<ApiError> => {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a rejection');
};

t.beforeEach(() => {
  fama.reset();
  famb.reset();
  famc.reset();
});

t.test('family A: messages API with headers, upstream model name, image part, usage', async (t) => {
  const m = gw.model('fam-a-sonnet-4-6', 'vision_analysis');
  const r = await gw.text(m, { prompt: 'What is in the picture?', maxTokens: 300, temperature: 0.2, image: { data: photo, mime: 'image/png' } });
  const req = fama.last!;
  t.equal(req.path, '/v1/messages');
  t.equal(req.headers['x-api-key'], fama.key);
  t.equal(req.headers['anthropic-version'], '2023-06-01');
  t.equal(req.body.model, 'real-sonnet-name', 'catalog upstream name is sent');
  t.equal(req.body.max_tokens, 300);
  t.equal(req.body.temperature, 0.2);
  t.same(req.body.messages[0].content[0].source.type, 'base64');
  t.equal(req.body.messages[0].content[0].source.media_type, 'image/png');
  t.equal(Buffer.from(req.body.messages[0].content[0].source.data, 'base64').compare(photo), 0, 'image bytes arrive unchanged');
  t.equal(req.body.messages[0].content[1].text, 'What is in the picture?');
  t.match(r.text, /fam-a answer to: What is in the picture/);
  t.ok(r.usage.input_tokens > 1000, 'usage input tokens include the image');
  t.ok(r.usage.output_tokens > 0);
});

t.test('family A: json asks for JSON via the system prompt', async (t) => {
  const m = gw.model('fam-a-haiku-4-5-20251001', 'text_generation');
  const r = await gw.text(m, { prompt: 'list', maxTokens: 100, temperature: 0.7, json: true, system: 'be brief' });
  t.match(fama.last!.body.system, /be brief[\s\S]*JSON/);
  t.same(JSON.parse(r.text), { answer: 'list', images: 0 });
});

t.test('family B: generateContent text with system instruction and JSON mime type', async (t) => {
  const m = gw.model('fam-b-3-flash-preview', 'text_generation');
  const r = await gw.text(m, { prompt: 'hello', maxTokens: 50, temperature: 0.5, json: true, system: 'sys' });
  const req = famb.last!;
  t.equal(req.path, '/v1beta/models/fam-b-3-flash-preview:generateContent');
  t.equal(req.headers['x-goog-api-key'], famb.key);
  t.same(req.body.systemInstruction, { parts: [{ text: 'sys' }] });
  t.same(req.body.generationConfig, { temperature: 0.5, maxOutputTokens: 50, responseMimeType: 'application/json' });
  t.same(JSON.parse(r.text), { answer: 'hello', images: 0 });
  t.ok(r.usage.input_tokens > 0 && r.usage.output_tokens > 0);
});

t.test('family B: image output with aspect ratio, image size, system instruction, source image', async (t) => {
  const m = gw.model('fam-b-3.1-flash-image-preview', 'image_to_image');
  const r = await gw.image(m, { prompt: 'caricature', aspectRatio: '16:9', imageSize: '4K', systemInstruction: 'funny', temperature: 0.9, image: { data: photo, mime: 'image/png' } });
  const body = famb.last!.body;
  t.same(body.generationConfig.imageConfig, { aspectRatio: '16:9', imageSize: '4K' });
  t.same(body.generationConfig.responseModalities, ['TEXT', 'IMAGE']);
  t.equal(body.generationConfig.temperature, 0.9);
  t.same(body.systemInstruction.parts[0].text, 'funny');
  t.equal(body.contents[0].parts[0].inlineData.mimeType, 'image/png');
  t.equal(r.mime, 'image/png');
  const meta = await sharp(r.data).metadata();
  t.equal(meta.width, 171);
  t.equal(meta.height, 96);
});

t.test('family B predict for fam-d-3', async (t) => {
  const m = gw.model('fam-d-3', 'image_generation');
  const r = await gw.image(m, { prompt: 'a cat', aspectRatio: '3:4' });
  t.equal(famb.last!.path, '/v1beta/models/fam-d-3:predict');
  t.same(famb.last!.body, { instances: [{ prompt: 'a cat' }], parameters: { sampleCount: 1, aspectRatio: '3:4' } });
  const meta = await sharp(r.data).metadata();
  t.same([meta.width, meta.height], [96, 128]);
});

t.test('family C: chat completions with data URL image; images generations b64_json', async (t) => {
  const m = gw.model('fam-c-4o', 'vision_analysis');
  const r = await gw.text(m, { prompt: 'describe', maxTokens: 64, temperature: 0.7, image: { data: photo, mime: 'image/png' } });
  const req = famc.last!;
  t.equal(req.path, '/v1/chat/completions');
  t.equal(req.headers.authorization, `Bearer ${famc.key}`);
  t.equal(req.body.messages[0].content[1].type, 'image_url');
  t.match(req.body.messages[0].content[1].image_url.url, /^data:image\/png;base64,iVBOR/);
  t.match(r.text, /fam-c answer to: describe/);

  const im = gw.model('fam-c-image-1.5', 'image_generation');
  const img = await gw.image(im, { prompt: 'a dog', aspectRatio: '16:9' });
  t.same(famc.last!.body, { model: 'fam-c-image-1.5', prompt: 'a dog', n: 1, size: '1536x1024' });
  t.equal((await sharp(img.data).metadata()).width, 144);

  // the older model gets response_format=b64_json and its own sizes (fam-e-3 is retired in 2026-11; use the adapter directly)
  const e3 = catalog.get('fam-e-3')!;
  const { famcAdapter } = await import('../../src/providers/ai/famc.js');
  await famcAdapter.image(e3, { prompt: 'x', aspectRatio: '9:16' }, gw.target('fam-c'));
  t.equal(famc.last!.body.response_format, 'b64_json');
  t.equal(famc.last!.body.size, '1024x1792');
});

t.test('429 then ok: retried once and succeeds', async (t) => {
  famb.next({ status: 429, retryAfter: '0' });
  const m = gw.model('fam-b-3-flash-preview', 'text_generation');
  const r = await gw.text(m, { prompt: 'again', maxTokens: 10, temperature: 0 });
  t.equal(famb.requests.length, 2);
  t.match(r.text, /again/);
});

t.test('500 twice: 502 AI_API_ERROR naming the status, no body, no key', async (t) => {
  fama.next({ status: 500 }, { status: 500 });
  const m = gw.model('fam-a-opus-4-7', 'text_generation');
  const e = await rejects(gw.text(m, { prompt: 'x', maxTokens: 10, temperature: 0 }));
  t.equal(e.code, 'AI_API_ERROR');
  t.equal(e.status, 502);
  t.match(e.message, /HTTP 500/);
  t.notMatch(e.message, /scripted/, 'upstream body not echoed');
  t.notMatch(e.message, new RegExp(fama.key), 'key not echoed');
  t.equal(fama.requests.length, 2, 'one retry');
});

t.test('400 from upstream is not retried', async (t) => {
  famc.next({ status: 400 });
  const e = await rejects(gw.text(gw.model('fam-c-4o', 'vision_analysis'), { prompt: 'x', maxTokens: 10, temperature: 0 }));
  t.match(e.message, /HTTP 400/);
  t.equal(famc.requests.length, 1);
});

t.test('wrong key: the provider refuses, 502 without the key', async (t) => {
  const bad = new AiGateway(catalog, { ...cfg, famcKey: 'sk-wrong-secret-key' }, () => Date.UTC(2026, 10, 22));
  const e = await rejects(bad.text(bad.model('fam-c-4o', 'vision_analysis'), { prompt: 'x', maxTokens: 10, temperature: 0 }));
  t.equal(e.code, 'AI_API_ERROR');
  t.match(e.message, /HTTP 401/);
  t.notMatch(e.message, /sk-wrong-secret-key/);
});

t.test('malformed and non-JSON answers → 502', async (t) => {
  famb.next('malformed');
  let e = await rejects(gw.image(gw.model('fam-b-2.5-flash-image', 'image_generation'), { prompt: 'x' }));
  t.match(e.message, /malformed/);
  famc.next('not-json');
  e = await rejects(gw.image(gw.model('fam-c-image-1', 'image_generation'), { prompt: 'x' }));
  t.match(e.message, /not JSON/);
  t.notMatch(e.message, /html/);
  fama.next('malformed');
  e = await rejects(gw.text(gw.model('fam-a-opus-4-7', 'text_generation'), { prompt: 'x', maxTokens: 5, temperature: 0 }));
  t.equal(e.status, 502);
});

t.test('slow answer beyond the timeout → 502 naming the limit', async (t) => {
  const quick = new AiGateway(catalog, { ...cfg, aiTimeoutMs: 150 }, () => Date.UTC(2026, 10, 22));
  famb.next({ slowMs: 600 });
  const e = await rejects(quick.text(quick.model('fam-b-3-flash-preview', 'text_generation'), { prompt: 'x', maxTokens: 5, temperature: 0 }));
  t.equal(e.code, 'AI_API_ERROR');
  t.match(e.message, /within 150 ms/);
});

t.test('unconfigured family → 502 naming the setting', async (t) => {
  const g = new AiGateway(catalog, { ...cfg, famaUrl: '', famaKey: '' }, () => Date.UTC(2026, 10, 22));
  const e = await rejects(g.text(g.model('fam-a-opus-4-7', 'text_generation'), { prompt: 'x', maxTokens: 5, temperature: 0 }));
  t.equal(e.status, 502);
  t.match(e.message, /SEJONG_FAMA_URL and SEJONG_FAMA_KEY/);
  t.throws(() => g.ensureConfigured(g.model('fam-a-opus-4-7', 'text_generation')), /SEJONG_FAMA_URL/);
});

t.test('unreachable provider: retried once, then 502', async (t) => {
  const g = new AiGateway(catalog, { ...cfg, famaUrl: 'http://127.0.0.1:9' }, () => Date.UTC(2026, 10, 22), { backoffMs: 10 });
  const e = await rejects(g.text(g.model('fam-a-opus-4-7', 'text_generation'), { prompt: 'x', maxTokens: 5, temperature: 0 }));
  t.equal(e.status, 502);
  t.match(e.message, /could not be reached.*retried once/);
});
