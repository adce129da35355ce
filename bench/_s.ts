import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { sceneSmallQr, photoQr } from '../test/helpers/qr-hard.js';
import qrRecognize, { zxingReady, BASE_OPTIONS } from '../src/tasks/qr-recognize.js';
await zxingReady();
let z = 0, o = 0;
const kind = process.argv[2] ?? 'scene-small';
for (let seed = 1; seed <= 12; seed++) {
  const s = kind === 'scene-small' ? await sceneSmallQr(seed) : await photoQr(kind as never, seed);
  const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const zr = (await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } as never, BASE_OPTIONS)).some((q) => q.isValid && q.text === s.data);
  const t = performance.now();
  const r = await qrRecognize({ image: s.bytes });
  const ok = r.success && r.data === s.data;
  z += +zr; o += +ok;
  console.log(s.name, zr, ok, r.method, r.tried.join(','), (performance.now() - t).toFixed(0));
}
console.log('zxing', z, 'ours', o);
