import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { startTestServer } from '../helpers/server.js';

t.test('studio/mosaic: pixelated PNG served by /studio/image?key=', async (t) => {
  const src = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#000' } })
    .composite([{ input: Buffer.from('<svg width="300" height="200"><rect x="0" y="0" width="150" height="200" fill="#fff"/></svg>') }]).png().toBuffer();
  const srv = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(src));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1' } });
  t.teardown(async () => { await s.close(); await new Promise((r) => srv.close(r)); });
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/a.png`;
  const r = await s.req('/api/v1/studio/mosaic', { method: 'POST', json: { imageUrl: url, regions: [{ x: 140, y: 0, width: 20, height: 20 }, { x: 290, y: 190, width: 50, height: 50 }], blockSize: 20 } });
  t.equal(r.status, 200);
  const b = await r.json() as any;
  t.match(b.jobId, /^studio_mosaic_/);
  t.same([b.success, b.format, b.actualCost, b.blockSize], [true, 'PNG', 0, 20]);
  t.same(b.regions[1], { x: 290, y: 190, width: 10, height: 10 }, 'clipped');
  t.match(b.imageUrl, /^\/api\/v1\/studio\/image\?key=/);
  const img = await s.req(b.imageUrl, { key: null });
  t.equal(img.status, 200);
  const { data, info } = await sharp(Buffer.from(await img.arrayBuffer())).raw().toBuffer({ resolveWithObject: true });
  t.same([info.width, info.height], [300, 200]);
  // the block straddling the black/white border is the mean grey (half white, half black)
  t.ok(Math.abs(data[(5 * 300 + 145) * info.channels]! - 128) <= 1, `block mean ${data[(5 * 300 + 145) * info.channels]}`);
  t.equal(data[(100 * 300 + 145) * info.channels], 255, 'outside the region untouched');
  const def = await (await s.req('/api/v1/studio/mosaic', { method: 'POST', json: { imageUrl: url, regions: [{ x: 0, y: 0, width: 10, height: 10 }] } })).json() as any;
  t.equal(def.blockSize, 16, 'default blockSize 16');
});
