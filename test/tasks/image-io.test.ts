import t from 'tap';
import sharp from 'sharp';
import { checkImage, decodeRaw, sniffFormat } from '../../src/tasks/lib/image-io.js';
import { TaskError } from '../../src/tasks/lib/task-error.js';
import { bombPng, truncatedJpeg } from '../helpers/images.js';

t.test('image-io: safe decode rejects bad input with a code naming the field', async (t) => {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).png().toBuffer();
  t.equal(sniffFormat(png), 'png');
  const ok = await decodeRaw(png, { channels: 1, field: 'image' });
  t.same([ok.width, ok.height, ok.channels, ok.data.length, ok.data[0]], [64, 48, 1, 64 * 48, 128]);

  const missing = await checkImage(new Uint8Array(0), { field: 'image' }).catch((e) => e);
  t.ok(missing instanceof TaskError);
  t.same([missing.code, missing.field], ['INVALID_REQUEST', 'image'], 'missing image');

  const notImage = await checkImage(Buffer.from('hello, this is text'), { field: 'photo' }).catch((e) => e);
  t.same([notImage.code, notImage.field], ['UNSUPPORTED_MEDIA_TYPE', 'photo'], 'not an image');
  t.match(notImage.message, /not an image/);

  const trunc = await decodeRaw(await truncatedJpeg(), { channels: 3 }).catch((e) => e);
  t.same([trunc.code, trunc.field], ['INVALID_REQUEST', 'image'], 'truncated');
  t.match(trunc.message, /truncated|corrupt/);

  const bomb = await checkImage(await bombPng(30000, 30000), { maxPixels: 50_000_000 }).catch((e) => e);
  t.same([bomb.code, bomb.field], ['INVALID_REQUEST', 'image'], 'decompression bomb');
  t.match(bomb.message, /30000x30000/);

  const small = await checkImage(png, { maxPixels: 1000 }).catch((e) => e);
  t.equal(small.code, 'INVALID_REQUEST', 'the pixel cap comes from the input');

  const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
  const g = await checkImage(gif).catch((e) => e);
  t.equal(g.code, 'UNSUPPORTED_MEDIA_TYPE', 'GIF not accepted');
});

t.test('image-io: EXIF orientation is applied (dimensions and pixels)', async (t) => {
  // 60x40 image, left half black, tagged orientation 6 (rotate 90° clockwise to display)
  const raw = Buffer.alloc(60 * 40 * 3, 255);
  for (let y = 0; y < 40; y++) for (let x = 0; x < 30; x++) raw.fill(0, (y * 60 + x) * 3, (y * 60 + x) * 3 + 3);
  const jpeg = await sharp(raw, { raw: { width: 60, height: 40, channels: 3 } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  const c = await checkImage(jpeg);
  t.same([c.width, c.height], [40, 60], 'oriented size');
  const r = await decodeRaw(jpeg, { channels: 1 });
  t.same([r.width, r.height], [40, 60]);
  t.ok(r.data[5 * 40 + 20]! < 30 && r.data[55 * 40 + 20]! > 225, 'black half is on top after rotating clockwise');
});
