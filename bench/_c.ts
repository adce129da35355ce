import { photoQr, sceneSmallQr } from '../test/helpers/qr-hard.js';
import qrRecognize, { zxingReady } from '../src/tasks/qr-recognize.js';
import { readBarcodes } from 'zxing-wasm/reader';
import sharp from 'sharp';
import { BASE_OPTIONS } from '../src/tasks/qr-recognize.js';
await zxingReady();
const set = [await photoQr('in-scene', 1), await photoQr('in-scene', 2), await photoQr('in-scene', 4), await sceneSmallQr(5), await sceneSmallQr(7), await sceneSmallQr(10)];
for (const s of set) {
  let bz = 1e9, bo = 1e9, res = '';
  for (let k = 0; k < 3; k++) {
    let c = process.cpuUsage();
    const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } as never, BASE_OPTIONS);
    let u = process.cpuUsage(c); bz = Math.min(bz, (u.user + u.system) / 1000);
    c = process.cpuUsage();
    const r = await qrRecognize({ image: s.bytes });
    u = process.cpuUsage(c); bo = Math.min(bo, (u.user + u.system) / 1000);
    res = `${r.method} ${r.tried.join(',')}`;
  }
  console.log(s.name, 'zxing', bz.toFixed(0), 'ours', bo.toFixed(0), res);
}
