// Thin and huge-aspect images (1x1, 1xN, Nx1, 20000x10, 10x20000) through every local image task: a proper
// result or INVALID_REQUEST naming the field, never another error.
import t from 'tap';
import sharp from 'sharp';
import qr from '../../src/tasks/qr-recognize.js';
import receipt from '../../src/tasks/receipt.js';
import contour from '../../src/tasks/contour.js';
import quality from '../../src/tasks/quality.js';
import mosaic from '../../src/tasks/mosaic.js';
import perspective from '../../src/tasks/perspective.js';
import chromaKey from '../../src/tasks/chroma-key.js';
import { loadCard } from '../../src/tasks/ekyc-ocr.js';
import { capSize } from '../../src/tasks/lib/image-io.js';

const SIZES: [number, number][] = [[1, 1], [1, 300], [300, 1], [20000, 10], [10, 20000]];
const png = (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: '#808080' } }).png().toBuffer();

type Run = (img: Uint8Array) => Promise<unknown>;
const TASKS: Record<string, Run> = {
  'qr-recognize': (image) => qr({ image }),
  receipt: (image) => receipt({ image }),
  contour: (image) => contour({ image }),
  quality: (image) => quality({ image }),
  mosaic: (image) => mosaic({ image, regions: [{ x: 0, y: 0, width: 1, height: 1 }] } as never),
  perspective: (image) => perspective({ image }),
  'chroma-key': (image) => chromaKey({ image, color: 'auto' }),
};

for (const [name, run] of Object.entries(TASKS)) {
  t.test(name, async (t) => {
    for (const [w, h] of SIZES) {
      const out = await run(await png(w, h)).then((r) => ({ ok: r }), (e: { code?: string; field?: string; message?: string }) => ({ err: e }));
      if ('err' in out) {
        t.equal(out.err.code, 'INVALID_REQUEST', `${w}x${h}: ${out.err.message}`);
        t.equal(out.err.field, 'image', `${w}x${h}: names the field`);
      } else t.type(out.ok, 'object', `${w}x${h}: a result`);
    }
  });
}

t.test('qr-recognize answers "no code" for images thinner than a QR code', async (t) => {
  const r = await qr({ image: await png(20000, 10) });
  t.equal(r.success, false);
  t.match(r.message, /needs at least 21x21/);
});

t.test('card loading: absurd aspect refused naming the field; the frame is bounded', async (t) => {
  for (const [w, h] of [[4, 2000], [10, 20000], [20000, 10], [1, 1000]] as const) {
    await t.rejects(loadCard(await png(w, h), 'masked_id_image'), { code: 'INVALID_REQUEST', field: 'masked_id_image', message: /aspect ratio between 1:4 and 4:1/ }, `${w}x${h}`);
  }
  const portrait = await loadCard(await png(500, 1900), 'image');
  t.ok(portrait.img.width * portrait.img.height <= 4_000_000, `a 1:3.8 portrait photo is read at ${portrait.img.width}x${portrait.img.height}`);
  const card = await loadCard(await png(856, 540), 'image');
  t.same([card.img.width, card.img.height], [1280, 807], 'a card keeps the nominal frame');
  const tiny = await loadCard(await png(1, 1), 'image');
  t.same([tiny.img.width, tiny.img.height], [1280, 1280], '1x1 is accepted (aspect 1) and read at a bounded size');
});

t.test('capSize keeps the aspect within the pixel budget', async (t) => {
  const c = capSize(1280, 5120, 4_000_000);
  t.ok(c.width * c.height <= 4_000_000, `${c.width}x${c.height} within 4 MP`);
  t.ok(Math.abs(c.height / c.width - 4) < 0.01, 'aspect kept');
  t.same(capSize(100, 50, 4_000_000), { width: 100, height: 50 });
  t.same(capSize(1e6, 1, 1000), { width: 1000, height: 1 });
});
