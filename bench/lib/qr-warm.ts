// Warm-up shared by the QR benches (not measured): `n` images of every kind from seed 1000 through zxing alone and
// through qr-recognize, so that the JS of every fallback is compiled as in a worker that has served a few requests
// (the first call interprets it; n = 0 measures that too), plus two frames without a code (a small one and a
// 1600×1200 scene of noise) on which every fallback runs.
import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { hardQrSet, photoQrSet } from '../../test/helpers/qr-hard.js';
import qrRecognize, { BASE_OPTIONS } from '../../src/tasks/qr-recognize.js';

const blank = async (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();

export async function warmQr(n: number): Promise<void> {
  if (n <= 0) return;
  const warmSet = [...(await hardQrSet(n, 1000)), ...(await photoQrSet(n, 1000)), { bytes: await blank(300, 300) }, { bytes: await blank(1600, 1200) }];
  for (const s of [...warmSet, ...warmSet.slice(-2)]) {
    const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } as never, BASE_OPTIONS);
    await qrRecognize({ image: s.bytes });
  }
}
