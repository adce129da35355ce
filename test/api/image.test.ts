// POST /api/v1/image/remove-background and GET /api/v1/image/result/:id through the HTTP API.
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer } from '../helpers/server.js';
import { greenScreen, decodeRgba } from '../helpers/images.js';

function serve(files: Record<string, { body: Buffer; type: string }>): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, close: () => new Promise((r) => srv.close(() => r())) })));
}

function iou(rgba: Uint8Array, truth: Float32Array): number {
  let inter = 0, uni = 0;
  for (let i = 0; i < truth.length; i++) {
    const a = rgba[i * 4 + 3]! > 127, b = truth[i]! > 0.5;
    if (a && b) inter++;
    if (a || b) uni++;
  }
  return inter / uni;
}

t.test('remove-background: URL and base64 storage, jobId source, expiry', async (t) => {
  const g = await greenScreen({ seed: 4 });
  const files = await serve({ '/gs.png': { body: g.png, type: 'image/png' } });
  const s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1' }, manualClock: true });
  t.teardown(async () => { await s.close(); await files.close(); });

  const res = await s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl: `${files.url}/gs.png`, chromaKey: { color: 'auto' }, trimTransparent: false } });
  t.equal(res.status, 200);
  const b = await res.json() as Record<string, any>;
  t.equal(b.success, true);
  t.match(b.jobId, /^bg_remove_\d{8}_/);
  t.equal(b.format, 'PNG');
  t.equal(b.method, 'chroma');
  t.equal(b.originalUrl, `${files.url}/gs.png`);
  t.same(b.originalDimensions, [640, 480]);
  t.same(b.trimmedDimensions, [640, 480]);
  t.match(b.removedColor, /^#[0-9a-f]{6}$/);
  t.type(b.processingTime, 'number');
  // the URL serves the PNG; its alpha matches the truth and the counts are true
  t.equal(b.storageType, 'url_a', 'the default storage value, spelled as everywhere (url_a)');
  const img = await fetch(`${b.processedUrl}&_=${Date.now()}`);
  t.equal(img.status, 200, 'a cache-buster query parameter is ignored');
  t.equal(img.headers.get('content-type'), 'image/png');
  const bytes = Buffer.from(await img.arrayBuffer());
  t.equal(bytes.length, b.fileSize, 'fileSize is the PNG size');
  const rgba = await decodeRgba(bytes);
  const alphaIou = iou(rgba.data, g.alpha);
  t.ok(alphaIou > 0.98, `alpha IoU ${alphaIou.toFixed(4)}`);
  let zero = 0;
  for (let i = 3; i < rgba.data.length; i += 4) if (rgba.data[i] === 0) zero++;
  t.equal(b.transparentPixels, zero);

  // base64 inline, trimmed
  const r2 = await (await s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl: `${files.url}/gs.png`, chromaKey: { color: '#1eaf46', tolerance: 60 }, storageType: 'base64' } })).json() as Record<string, any>;
  t.match(r2.processedUrl, /^data:image\/png;base64,/);
  t.equal(r2.storageType, 'inline', 'base64 is the spec\'s spelling of the inline store');
  for (const [st, code, want] of [['url_b', 200, 'url_b'], ['inline', 200, 'inline'], ['url', 400, undefined]] as const) {
    const rr = await s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageUrl: `${files.url}/gs.png`, chromaKey: { color: '#1eaf46' }, storageType: st } });
    t.equal(rr.status, code, `storageType ${st}`);
    const bb = await rr.json() as any;
    if (want) t.equal(bb.storageType, want);
    else t.match(bb.error, { code: 'INVALID_REQUEST', field: 'storageType', message: /"url_a", "url_b", "inline"/ });
  }
  const inline = Buffer.from(r2.processedUrl.split(',')[1], 'base64');
  t.equal(inline.length, r2.fileSize);
  t.ok(r2.trimmedDimensions[0] < 640 && r2.trimmedDimensions[1] < 480, `trimmed to ${r2.trimmedDimensions}`);
  t.equal(r2.tolerance, 60);

  // an earlier job's image as the source
  const r3 = await s.req('/api/v1/image/remove-background', { method: 'POST', json: { jobId: b.jobId, chromaKey: { color: 'auto' } } });
  t.equal(r3.status, 200);
  const b3 = await r3.json() as Record<string, any>;
  t.equal(b3.sourceJobId, b.jobId);
  const unknown = await s.req('/api/v1/image/remove-background', { method: 'POST', json: { jobId: 'bg_remove_20260101_nope', chromaKey: { color: 'auto' } } });
  t.equal(unknown.status, 404);

  // without the key: 401; after 24 h: 410
  const noKey = await fetch(b.processedUrl.replace(/\?key=.*/, ''));
  t.equal(noKey.status, 401);
  (s.clock as unknown as { advance(ms: number): void }).advance(25 * 3600_000);
  const gone = await fetch(b.processedUrl);
  t.equal(gone.status, 410);
  t.equal((await gone.json() as any).error.code, 'IMAGE_EXPIRED');
});
