import sharp from 'sharp';
import { sceneSmallQr } from '../test/helpers/qr-hard.js';
import { qrRegions, binarise, findFinders } from '../src/tasks/lib/qr-locate.js';
for (const seed of [5, 7, 10, 11]) {
  const s = await sceneSmallQr(seed);
  let { data, info } = await sharp(s.bytes).resize(1600).greyscale().raw().toBuffer({ resolveWithObject: true });
  const W = info.width, H = info.height;
  const f = findFinders(binarise(data, W, H), W, H);
  console.log(seed, W, H, JSON.stringify(f.map((q) => [Math.round(q.x), Math.round(q.y), +q.module.toFixed(1), q.hits])));
  const regs = qrRegions(data, W, H, 3);
  console.log(JSON.stringify(regs));
  await sharp(s.bytes).resize(800).toFile(`/tmp/qr18/d${seed}.png`);
  for (const [i, r] of regs.entries()) await sharp(data, { raw: { width: W, height: H, channels: 1 } }).extract({ left: r.x, top: r.y, width: r.width, height: r.height }).png().toFile(`/tmp/qr18/d${seed}-r${i}.png`);
}
