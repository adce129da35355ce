// POST /api/v1/image-to-image/generate (and the /api/v1/caricature aliases): multipart image or imageUrl,
// status with the relative imageUrl, image by access key, mark, expiry, errors.
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { ManualClock } from '../../src/clock.js';
import { formData } from '../helpers/server.js';
import { fakePng, dims } from '../fakes/ai-base.js';
import { errorOf, markDiff, poll, startAiWorld } from './helpers.js';

const clock = new ManualClock();
const w = await startAiWorld({ manualClock: clock, env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
const { server, famb } = w;
const photo = await fakePng(300, 200, 'jpeg');
// a picture server for imageUrl
const pics = http.createServer((req, res) => {
  if (req.url === '/photo.jpg') {
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(photo);
  } else if (req.url === '/text') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello, not an image');
  } else {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((r) => pics.listen(0, '127.0.0.1', r));
const picUrl = `http://127.0.0.1:${(pics.address() as AddressInfo).port}`;
t.teardown(async () => {
  pics.close();
  await w.close();
});
t.beforeEach(() => famb.reset());

const gen = (fields: Record<string, string | number | undefined>, file?: Buffer, path = '/api/v1/image-to-image/generate') =>
  server.req(path, { method: 'POST', body: formData(fields, file ? { image: { data: file, filename: 'me.jpg', type: 'image/jpeg' } } : {}) });

t.test('upload: create, status (seconds, relative imageUrl with the access key), image by accessKey, mark', async (t) => {
  const r = await gen({ prompt: 'make me a pirate', aspectRatio: '3:4', temperature: 1.2, ttlHours: 3 }, photo);
  t.equal(r.status, 200);
  const c = (await r.json()) as any;
  t.match(c, { success: true, status: 'processing', model: 'fam-b-2.5-flash-image', estimatedCost: 0.039 });
  t.match(c.jobId, /^caric_\d{8}_/);

  const s = await poll(server, `/api/v1/image-to-image/status/${c.jobId}`, { key: null, headers: { authorization: `Bearer ${c.accessKey}` } });
  t.equal(s.status, 'completed');
  t.equal(s.imageUrl, `/api/v1/image-to-image/image?key=${c.accessKey}`);
  t.type(s.processingTime, 'number');
  t.ok(s.processingTime < 30, 'seconds, not milliseconds');
  t.equal(s.actualCost, 0.039);

  const sent = famb.last!.body;
  t.equal(famb.last!.path, '/v1beta/models/fam-b-2.5-flash-image:generateContent');
  t.equal(sent.contents[0].parts[0].inlineData.mimeType, 'image/jpeg');
  const up = Buffer.from(sent.contents[0].parts[0].inlineData.data, 'base64');
  t.same([(await sharp(up).metadata()).width, (await sharp(up).metadata()).height], [300, 200], 'the uploaded picture is sent');
  t.equal(sent.contents[0].parts[1].text, 'make me a pirate');
  t.equal(sent.generationConfig.temperature, 1.2);
  t.same(sent.generationConfig.imageConfig, { aspectRatio: '3:4' });

  // the status URL works without an API key (the access key is in it), and so does ?accessKey=
  for (const p of [s.imageUrl, `/api/v1/image-to-image/image?accessKey=${encodeURIComponent(c.accessKey)}`, `/api/v1/caricature/image?accessKey=${encodeURIComponent(c.accessKey)}`]) {
    const img = await server.req(p, { key: null });
    t.equal(img.status, 200, p);
    t.equal(img.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await img.arrayBuffer());
    const [ew, eh] = dims('3:4', famb.imageBase);
    const d = await markDiff(await fakePng(ew, eh), png);
    t.equal(d.outside, 0);
    t.ok(d.inside > d.area / 2, 'mark present');
  }
  const spend = (await server.services.spend.forKey(server.apiKeyId));
  t.ok(spend.some((row) => row.byFamily.caric?.cost === 0.039));

  clock.advance(3 * 3600_000 + 1);
  const e1 = await errorOf(await server.req(`/api/v1/image-to-image/status/${c.jobId}`));
  t.same([e1.status, e1.code], [410, 'IMAGE_EXPIRED']);
  const e2 = await errorOf(await server.req(s.imageUrl, { key: null }));
  t.same([e2.status, e2.code], [410, 'IMAGE_EXPIRED']);
});

t.test('imageUrl through the safe fetcher; caricature aliases; aspect_ratio spelling; model choice', async (t) => {
  const r = await gen({ imageUrl: `${picUrl}/photo.jpg`, aspect_ratio: '1:1', model: 'fam-b-3-pro-image-preview' }, undefined, '/api/v1/caricature/generate');
  t.equal(r.status, 200);
  const c = (await r.json()) as any;
  t.match(c.jobId, /^caric_/);
  const s = await poll(server, `/api/v1/caricature/status/${c.jobId}`);
  t.equal(s.status, 'completed');
  t.equal(s.imageUrl, `/api/v1/caricature/image?key=${c.accessKey}`);
  t.equal(famb.last!.path, '/v1beta/models/fam-b-3-pro-image-preview:generateContent');
  t.equal(famb.last!.body.generationConfig.temperature, 0.9, 'default temperature');
  t.match(famb.last!.body.contents[0].parts[1].text, /caricature/, 'default prompt');
  t.same(famb.last!.body.generationConfig.imageConfig, { aspectRatio: '1:1' });
  // same job through both prefixes
  t.equal((await server.req(`/api/v1/image-to-image/status/${c.jobId}`)).status, 200);
});

t.test('bad input → 400 naming the field', async (t) => {
  const cases: Array<[Record<string, string | number>, Buffer | undefined, string, number?]> = [
    [{}, undefined, 'image'],
    [{ imageUrl: `${picUrl}/photo.jpg` }, photo, 'imageUrl'],
    [{ temperature: 2.5 }, photo, 'temperature'],
    [{ temperature: 'hot' }, photo, 'temperature'],
    [{ ttlHours: 'soon' }, photo, 'ttlHours'],
    [{ model: 'fam-c-image-1' }, photo, 'model'],
    [{ model: 'fam-a-opus-4-7' }, photo, 'model'],
    [{ aspectRatio: '1:1', aspect_ratio: '16:9' }, photo, 'aspect_ratio'],
    [{ aspectRatio: '5:1' }, photo, 'aspectRatio'],
    [{ strength: 1 }, photo, 'strength'],
    [{ imageUrl: 'ftp://example.com/x.jpg' }, undefined, 'imageUrl'],
    [{ imageUrl: 'http://169.254.169.254/latest/meta-data' }, undefined, 'imageUrl'],
    [{ imageUrl: `${picUrl}/missing.jpg` }, undefined, 'imageUrl'],
    [{ imageUrl: `${picUrl}/text` }, undefined, 'imageUrl', 415],
    [{}, photo.subarray(0, 300), 'image'],
  ];
  for (const [fields, file, field, status] of cases) {
    const e = await errorOf(await gen(fields, file));
    t.same([e.status, e.field], [status ?? 400, field], `${JSON.stringify(fields)} → ${e.code}: ${e.message}`);
  }
  t.equal(famb.requests.length, 0, 'nothing reached the provider');
});

t.test('wrong family → 404; upstream 429 retried; 500 → failed with AI_API_ERROR', async (t) => {
  famb.next({ status: 429, retryAfter: '0' });
  const c = (await (await gen({}, photo)).json()) as any;
  const s = await poll(server, `/api/v1/image-to-image/status/${c.jobId}`);
  t.equal(s.status, 'completed');
  t.equal(famb.requests.length, 2);
  const e = await errorOf(await server.req(`/api/v1/text-to-image/status/${c.jobId}`));
  t.same([e.status, e.code], [404, 'JOB_NOT_FOUND']);
  const e2 = await errorOf(await server.req(`/api/v1/text-to-image/download/${c.jobId}`));
  t.same([e2.status, e2.code], [404, 'JOB_NOT_FOUND']);

  famb.reset();
  famb.next({ status: 503 }, { status: 500 });
  const f = (await (await gen({}, photo)).json()) as any;
  const fs = await poll(server, `/api/v1/image-to-image/status/${f.jobId}`);
  t.same([fs.status, fs.error.code], ['failed', 'AI_API_ERROR']);
  t.match(fs.error.message, /HTTP 500/);
  const img = await errorOf(await server.req(`/api/v1/image-to-image/image?accessKey=${encodeURIComponent(f.accessKey)}`, { key: null }));
  t.equal(img.code, 'JOB_FAILED');
  const nokey = await errorOf(await server.req('/api/v1/image-to-image/image', { key: null }));
  t.same([nokey.status, nokey.code], [401, 'INVALID_API_KEY']);
  const badkey = await errorOf(await server.req('/api/v1/image-to-image/image?accessKey=nope', { key: null }));
  t.same([badkey.status, badkey.code], [401, 'INVALID_API_KEY']);
});
