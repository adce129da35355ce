import t from 'tap';
import sharp from 'sharp';
import mosaic from '../../src/tasks/mosaic.js';
import { prng } from '../helpers/images.js';

t.test('mosaic: regions pixelated in blocks, clipped; outside untouched', async (t) => {
  const w = 200, h = 120;
  const rnd = prng(9);
  const px = Buffer.alloc(w * h * 3);
  for (let i = 0; i < px.length; i++) px[i] = Math.floor(rnd() * 256);
  const png = await sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
  const r = await mosaic({ image: png, regions: [{ x: 10, y: 10, width: 40, height: 30 }, { x: 180, y: 100, width: 100, height: 100 }], blockSize: 8 });
  t.same(r.regions, [{ x: 10, y: 10, width: 40, height: 30 }, { x: 180, y: 100, width: 20, height: 20 }], 'second region clipped');
  const { data } = await sharp(r.png).raw().toBuffer({ resolveWithObject: true });
  // a block is uniform and equals the mean of the original block
  const mean = [0, 0, 0];
  for (let y = 10; y < 18; y++) for (let x = 10; x < 18; x++) for (let c = 0; c < 3; c++) mean[c]! += px[(y * w + x) * 3 + c]! / 64;
  for (const [x, y] of [[10, 10], [17, 17], [13, 15]]) {
    t.same([0, 1, 2].map((c) => data[(y! * w + x!) * 3 + c]), mean.map(Math.round), `pixel ${x},${y} = block mean`);
  }
  // the last row of the first region (y 34..39) is a 6-px-high edge block
  t.equal(data[(39 * w + 10) * 3], data[(34 * w + 10) * 3]);
  // outside untouched
  let diff = 0;
  for (let y = 50; y < 90; y++) for (let x = 60; x < 170; x++) for (let c = 0; c < 3; c++) diff += Math.abs(data[(y * w + x) * 3 + c]! - px[(y * w + x) * 3 + c]!);
  t.equal(diff, 0, 'pixels outside the regions are unchanged');
});

t.test('mosaic: out-of-range input names the field', async (t) => {
  const png = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#888' } }).png().toBuffer();
  const b = await mosaic({ image: png, regions: [{ x: 0, y: 0, width: 10, height: 10 }], blockSize: 3 }).catch((e) => e);
  t.same([b.code, b.field], ['INVALID_REQUEST', 'blockSize']);
  const o = await mosaic({ image: png, regions: [{ x: 0, y: 0, width: 10, height: 10 }, { x: 60, y: 0, width: 10, height: 10 }] }).catch((e) => e);
  t.same([o.code, o.field], ['INVALID_REQUEST', 'regions.1']);
});
