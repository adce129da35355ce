// The AI tasks called directly (no pool): the mark's pixels, normalisation, preprocessing presets.
import t from 'tap';
import sharp from 'sharp';
import aiMark, { markBox } from '../../src/tasks/ai-mark.js';
import normalize from '../../src/tasks/image-normalize.js';
import preprocess from '../../src/tasks/analyze-preprocess.js';
import { fakePng } from '../fakes/ai-base.js';
import { markDiff } from './helpers.js';

const raw = async (b: Uint8Array) => sharp(Buffer.from(b)).removeAlpha().raw().toBuffer({ resolveWithObject: true });

t.test('ai-mark: badge in the lower-right corner, everything else unchanged', async (t) => {
  for (const [w, h] of [[96, 96], [640, 360], [1024, 1536]] as const) {
    const src = await fakePng(w, h);
    const out = await aiMark({ image: src });
    t.equal(out.width, w);
    t.equal(out.height, h);
    const box = markBox(w, h);
    t.same(out.mark, { left: box.left, top: box.top, width: box.width, height: box.height });
    t.ok(box.left + box.width > w * 0.85 && box.top + box.height > h * 0.85, 'badge sits in the lower-right corner');
    t.ok(box.height >= 9 && box.height <= Math.min(w, h) * 0.15, `badge sized to the image (${box.width}x${box.height})`);
    const d = await markDiff(src, out.png, out.mark);
    t.equal(d.outside, 0, `${w}x${h}: no pixel outside the badge changed`);
    t.ok(d.inside > d.area * 0.5, `${w}x${h}: most badge pixels changed (${d.inside}/${d.area})`);
    const meta = await sharp(Buffer.from(out.png)).metadata();
    t.equal(meta.format, 'png');
  }
});

t.test('ai-mark: text is legible (white glyph pixels on the dark badge)', async (t) => {
  const src = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#808080' } }).png().toBuffer();
  const out = await aiMark({ image: src });
  const { data, info } = await raw(out.png);
  let white = 0, dark = 0;
  for (let y = out.mark.top; y < out.mark.top + out.mark.height; y++) {
    for (let x = out.mark.left; x < out.mark.left + out.mark.width; x++) {
      const v = data[(y * info.width + x) * 3]!;
      if (v > 200) white++;
      else if (v < 70) dark++;
    }
  }
  t.ok(white > 20, `glyph pixels present (${white})`);
  t.ok(dark > 50, `dark background present (${dark})`);
});

t.test('ai-mark: JPEG upstream becomes PNG; garbage is a 400-style task error', async (t) => {
  const jpg = await fakePng(120, 80, 'jpeg');
  const out = await aiMark({ image: jpg });
  t.equal((await sharp(Buffer.from(out.png)).metadata()).format, 'png');
  const d = await markDiff(jpg, out.png, out.mark);
  t.equal(d.outside, 0);
  await t.rejects(aiMark({ image: Buffer.from('not an image at all') }), { code: 'UNSUPPORTED_MEDIA_TYPE' });
});

t.test('image-normalize: shrinks large pictures, keeps JPEG, rejects truncated data', async (t) => {
  const big = await fakePng(3000, 1000);
  const n = await normalize({ image: big, maxSide: 1500 });
  t.same([n.width, n.height, n.mime], [1500, 500, 'image/png']);
  t.same(n.original, { width: 3000, height: 1000 });
  const jpg = await fakePng(200, 100, 'jpeg');
  const j = await normalize({ image: jpg, field: 'imageUrl' });
  t.same([j.width, j.height, j.mime], [200, 100, 'image/jpeg']);
  await t.rejects(normalize({ image: big.subarray(0, 200), field: 'imageUrl' }), { code: 'INVALID_REQUEST', field: 'imageUrl' });
});

t.test('analyze-preprocess presets', async (t) => {
  const src = await fakePng(300, 200);
  const ocr = await preprocess({ image: src, preset: 'ocr' });
  t.same(ocr.steps.slice(0, 2), ['greyscale', 'contrast-stretch']);
  t.match(ocr.steps[2], /^upscale-x3/);
  t.same([ocr.width, ocr.height], [900, 600], 'small text upscaled');
  const om = await sharp(Buffer.from(ocr.bytes)).stats();
  t.equal(om.channels.length, 1, 'grey output');

  const qr = await preprocess({ image: src, preset: 'qr' });
  const q = await sharp(Buffer.from(qr.bytes)).raw().toBuffer();
  t.ok(q.every((v) => v === 0 || v === 255), 'binarised: only black and white');
  t.match(qr.steps[2], /^binarise-otsu-\d+$/);

  const dull = await sharp(await fakePng(100, 100)).linear(0.3, 90).png().toBuffer();
  const en = await preprocess({ image: dull, preset: 'enhance' });
  const before = await sharp(dull).stats();
  const after = await sharp(Buffer.from(en.bytes)).stats();
  t.ok(after.channels[0]!.max - after.channels[0]!.min > (before.channels[0]!.max - before.channels[0]!.min) * 2, 'auto levels stretch the range');
  t.same(en.steps, ['auto-levels', 'denoise-median3', 'sharpen-light']);
});
