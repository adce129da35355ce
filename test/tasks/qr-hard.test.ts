// QR on hard photos (seeded generator, test/helpers/qr-hard.ts): the quick variants decode codes that zxing alone
// misses (low contrast, blur, tiny modules) and never lose one it reads. Figures: bench/qr-hard.ts.
import t from 'tap';
import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { hardQrSet } from '../helpers/qr-hard.js';
import qrRecognize, { zxingReady, BASE_OPTIONS } from '../../src/tasks/qr-recognize.js';

t.test('hard QR set: ours decodes more than zxing alone, and every code zxing reads', async (t) => {
  await zxingReady();
  const set = await hardQrSet(5, 1);
  t.equal(set.length, 30);
  let zx = 0, ours = 0, lost = 0;
  const byKind: Record<string, number> = {};
  for (const s of set) {
    const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const z = (await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } as never, BASE_OPTIONS)).some((r) => r.isValid && r.text === s.data);
    const o = await qrRecognize({ image: s.bytes });
    const ok = o.success && o.data === s.data;
    t.equal(o.attempts, o.tried.length);
    if (z) zx++;
    if (ok) { ours++; byKind[s.kind] = (byKind[s.kind] ?? 0) + 1; }
    if (z && !ok) lost++;
    t.comment(`${s.name}: zxing ${z ? 'yes' : 'no'}, ours ${ok ? o.method : 'no'}`);
  }
  t.comment(`zxing alone ${zx}/30, ours ${ours}/30`);
  t.equal(lost, 0, 'no code that zxing alone reads is lost');
  t.ok(ours >= zx + 3, `ours ${ours} ≥ zxing ${zx} + 3`);
  t.ok(ours >= 13, `ours ${ours} ≥ 13 of 18`);
  t.ok((byKind['low-contrast'] ?? 0) >= 2, `low contrast ${byKind['low-contrast']} ≥ 2 of 3`);
});
