// Bad input across the image endpoints: each case gets the right code, names the field, never a 500.
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestServer, formData, type TestServer } from '../helpers/server.js';
import { bombPng, truncatedJpeg } from '../helpers/images.js';

let s: TestServer;
let files: { url: string; close: () => Promise<void> };

t.before(async () => {
  const bodies: Record<string, { body: Buffer; type: string }> = {
    '/text.png': { body: Buffer.from('<html>not an image</html>'), type: 'image/png' },
    '/trunc.jpg': { body: await truncatedJpeg(), type: 'image/jpeg' },
    '/bomb.png': { body: await bombPng(30000, 30000), type: 'image/png' },
  };
  const srv = http.createServer((req, res) => {
    const f = bodies[req.url ?? ''];
    if (!f) { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': f.type }).end(f.body);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  files = { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, close: () => new Promise((r) => srv.close(() => r())) };
  s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
});
t.teardown(async () => { await s?.close(); await files?.close(); });

const post = (path: string, fd: FormData) => s.req(path, { method: 'POST', body: fd });
const json = (path: string, body: unknown) => s.req(path, { method: 'POST', json: body });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Asserts = any;
async function expectError(t: Asserts, res: Response, status: number, code: string, field: string) {
  const b = await res.json() as { success: boolean; error: { code: string; field?: string; message: string } };
  t.equal(res.status, status, `HTTP ${status}`);
  t.equal(b.success, false);
  t.equal(b.error.code, code);
  t.equal(b.error.field, field, `names ${field}: ${b.error.message}`);
}

t.test('missing image', async (t) => {
  await expectError(t, await post('/api/v1/ekyc/image/quality-check', formData({})), 400, 'INVALID_REQUEST', 'image');
  await expectError(t, await json('/api/v1/image/remove-background', { chromaKey: { color: 'auto' } }), 400, 'INVALID_REQUEST', 'imageUrl');
});

t.test('not an image', async (t) => {
  await expectError(t, await post('/api/v1/contour/extract', formData({}, { image: { data: Buffer.from('hello world, plain text') } })), 415, 'UNSUPPORTED_MEDIA_TYPE', 'image');
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: `${files.url}/text.png`, chromaKey: { color: 'auto' } }), 415, 'UNSUPPORTED_MEDIA_TYPE', 'imageUrl');
});

t.test('truncated file', async (t) => {
  await expectError(t, await post('/api/v1/qrcode/recognize', formData({}, { image: { data: await truncatedJpeg(), type: 'image/jpeg' } })), 400, 'INVALID_REQUEST', 'image');
  await expectError(t, await json('/api/v1/studio/mosaic', { imageUrl: `${files.url}/trunc.jpg`, regions: [{ x: 0, y: 0, width: 10, height: 10 }] }), 400, 'INVALID_REQUEST', 'imageUrl');
});

t.test('decompression bomb', async (t) => {
  const bomb = await bombPng(30000, 30000);
  const res = await post('/api/v1/ekyc/perspective-crop', formData({}, { image: { data: bomb, type: 'image/png' } }));
  const b = await res.clone().json() as any;
  t.match(b.error.message, /30000x30000/);
  await expectError(t, res, 400, 'INVALID_REQUEST', 'image');
  await expectError(t, await post('/api/v1/receipt/optimize', formData({}, { image: { data: bomb, type: 'image/png' } })), 400, 'INVALID_REQUEST', 'image');
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: `${files.url}/bomb.png`, chromaKey: { color: 'auto' } }), 400, 'INVALID_REQUEST', 'imageUrl');
});

t.test('wrong types', async (t) => {
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } }).png().toBuffer();
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: `${files.url}/x.png`, chromaKey: { color: 'auto' }, ttlHours: '24' }), 400, 'INVALID_REQUEST', 'ttlHours');
  await expectError(t, await json('/api/v1/studio/mosaic', { imageUrl: `${files.url}/x.png`, regions: [{ x: '0', y: 0, width: 10, height: 10 }] }), 400, 'INVALID_REQUEST', 'regions.0.x');
  await expectError(t, await post('/api/v1/qrcode/recognize', formData({ enablePreprocessing: 'maybe' }, { image: { data: png, type: 'image/png' } })), 400, 'INVALID_REQUEST', 'enablePreprocessing');
  await expectError(t, await post('/api/v1/ekyc/perspective-crop', formData({ corners: '[[0,0],[1,1]]' }, { image: { data: png, type: 'image/png' } })), 400, 'INVALID_REQUEST', 'corners');
  const webp = await sharp(png).webp().toBuffer();
  await expectError(t, await post('/api/v1/ekyc/image/quality-check', formData({}, { image: { data: webp, type: 'image/webp' } })), 415, 'UNSUPPORTED_MEDIA_TYPE', 'image');
});

t.test('out-of-range numbers', async (t) => {
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: `${files.url}/x.png`, chromaKey: { color: 'auto', tolerance: 256 } }), 400, 'INVALID_REQUEST', 'chromaKey.tolerance');
  await expectError(t, await json('/api/v1/studio/mosaic', { imageUrl: `${files.url}/x.png`, regions: [{ x: 0, y: 0, width: 10, height: 10 }], blockSize: 41 }), 400, 'INVALID_REQUEST', 'blockSize');
  await expectError(t, await json('/api/v1/studio/mosaic', { imageUrl: `${files.url}/x.png`, regions: [{ x: 0, y: 0, width: 0, height: 10 }] }), 400, 'INVALID_REQUEST', 'regions.0.width');
  await expectError(t, await s.req('/api/v1/qrcode/generate?data=hi&size=10x10', { key: null }), 400, 'INVALID_REQUEST', 'size');
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#fff' } }).png().toBuffer();
  await expectError(t, await post('/api/v1/ekyc/perspective-crop', formData({ output_width: 99999 }, { image: { data: png, type: 'image/png' } })), 400, 'INVALID_REQUEST', 'output_width');
});

t.test('imageUrl to a private address', async (t) => {
  // 127.0.0.1 is allow-listed for this server; link-local metadata and RFC 1918 stay refused
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: 'http://169.254.169.254/latest/meta-data', chromaKey: { color: 'auto' } }), 400, 'INVALID_REQUEST', 'imageUrl');
  await expectError(t, await json('/api/v1/studio/mosaic', { imageUrl: 'http://10.1.2.3/a.png', regions: [{ x: 0, y: 0, width: 10, height: 10 }] }), 400, 'INVALID_REQUEST', 'imageUrl');
  await expectError(t, await json('/api/v1/image/remove-background', { imageUrl: 'file:///etc/passwd', chromaKey: { color: 'auto' } }), 400, 'INVALID_REQUEST', 'imageUrl');
});
