import t from 'tap';
import jsQRmod from 'jsqr';
const jsQR = ((jsQRmod as unknown as { default?: unknown }).default ?? jsQRmod) as unknown as (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null;
import sharp from 'sharp';
import qrGenerate, { qrMatrix } from '../../src/tasks/qr-generate.js';
import qrRecognize, { QUICK_COUNT, VARIANTS } from '../../src/tasks/qr-recognize.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';
import { qrSamples } from '../helpers/images.js';

t.test('qr-generate: 1-bit PNG, sizes, Hangul centre text at level H still decodes', async (t) => {
  const g = qrGenerate({ data: 'https://example.com/세종', width: 512, height: 512 });
  t.same(pngHeader(g.png), { width: 512, height: 512, bitDepth: 1, colourType: 0 }, 'bit depth 1 greyscale');
  t.equal(g.ecLevel, 'M');
  const wide = qrGenerate({ data: 'abc', width: 600, height: 300 });
  t.same([pngHeader(wide.png).width, pngHeader(wide.png).height], [600, 300]);

  const c = qrGenerate({ data: 'https://example.com/세종?x=1', width: 512, height: 512, centerText: '세종대왕 QR' });
  t.equal(c.ecLevel, 'H', 'centre text forces level H');
  t.ok(c.centerText && c.centerText.fontSize >= 10, 'text drawn');
  const r = await qrRecognize({ image: c.png, enablePreprocessing: false });
  t.equal(r.data, 'https://example.com/세종?x=1', 'decodes with the text plate');
  // the plate really has text pixels (dark pixels inside the box)
  const { data } = await sharp(c.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const [bx, by, bw, bh] = c.centerText!.box;
  let dark = 0;
  for (let y = by; y < by + bh; y++) for (let x = bx; x < bx + bw; x++) if (data[y * 512 + x]! < 128) dark++;
  t.ok(dark > 100, `${dark} text pixels in the plate`);

  const m = qrMatrix('hello', 'H');
  t.equal(m.size, 21);
  t.equal(m.modules.length, 441);
  const tooSmall = (() => { try { qrGenerate({ data: 'x'.repeat(500), width: 40, height: 40 }); } catch (e) { return e as { code: string; field: string }; } })();
  t.same([tooSmall?.code, tooSmall?.field], ['INVALID_REQUEST', 'size']);
});

t.test('qr-recognize: distorted set decodes (with preprocessing), method and attempts reported', async (t) => {
  const samples = await qrSamples();
  let ok = 0, jsqrOk = 0;
  for (const s of samples) {
    const r = await qrRecognize({ image: s.bytes });
    if (r.success && r.data === s.data) ok++;
    t.comment(`${s.name}: ${r.success ? `${r.method} after ${r.attempts}` : 'not found'}`);
    t.equal(r.attempts, r.tried.length);
    const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    if (jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data === s.data) jsqrOk++;
  }
  t.comment(`decode rate: ours ${ok}/${samples.length}, jsQR ${jsqrOk}/${samples.length}`);
  t.ok(ok >= samples.length - 1, `decoded ${ok}/${samples.length}`);
  t.ok(ok >= jsqrOk, 'at least as many as plain jsQR');

  const blank = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const none = await qrRecognize({ image: blank });
  t.equal(none.success, false);
  t.equal(none.data, null);
  t.equal(none.attempts, 1 + QUICK_COUNT + 1, 'the original, the quick variants and the grid reader tried');
  t.equal(none.tried.at(-1), 'grid');
  const all = await qrRecognize({ image: blank, thorough: true });
  t.equal(all.attempts, 1 + VARIANTS.length + 1, 'thorough: every variant tried, then the grid reader');
  t.match(none.message, /No QR code/);
  const once = await qrRecognize({ image: blank, enablePreprocessing: false });
  t.equal(once.attempts, 1);
});
