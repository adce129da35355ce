import t from 'tap';
import sharp from 'sharp';
import chromaKey from '../../src/tasks/chroma-key.js';
import { greenScreen, decodeRgba } from '../helpers/images.js';

async function score(png: Uint8Array, truth: Float32Array, w: number, h: number) {
  const rgba = await decodeRgba(png);
  let inter = 0, uni = 0, mae = 0, spill = 0, edge = 0;
  for (let i = 0; i < w * h; i++) {
    const a = rgba.data[i * 4 + 3]! / 255, tr = truth[i]!;
    if (a > 0.5 && tr > 0.5) inter++;
    if (a > 0.5 || tr > 0.5) uni++;
    mae += Math.abs(a - tr);
    if (a > 0 && a < 1) {
      spill += rgba.data[i * 4 + 1]! - (rgba.data[i * 4]! + rgba.data[i * 4 + 2]!) / 2;
      edge++;
    }
  }
  return { iou: inter / uni, mae: mae / (w * h), spill: edge ? spill / edge : 0, edge };
}

t.test('chroma-key: alpha IoU against the true mask, auto colour and tolerance', async (t) => {
  const g = await greenScreen({ seed: 1 });
  const r = await chromaKey({ image: g.png, color: 'auto', trimTransparent: false });
  const s = await score(r.png, g.alpha, g.width, g.height);
  t.ok(s.iou > 0.98, `auto: alpha IoU ${s.iou.toFixed(4)} > 0.98`);
  t.ok(s.mae < 0.01, `alpha mean abs error ${s.mae.toFixed(4)}`);
  t.ok(s.edge > 500, `a soft edge band exists (${s.edge} semi-transparent pixels)`);
  t.ok(s.spill < 10, `edge pixels are not green (green excess ${s.spill.toFixed(1)})`);
  t.equal(r.colorSource, 'auto');
  t.equal(r.toleranceSource, 'auto');
  const [kr, kg, kb] = [1, 3, 5].map((i) => parseInt(r.removedColor.slice(i, i + 2), 16));
  t.ok(kg! > 120 && kr! < 60 && kb! < 90, `auto key ${r.removedColor} is the screen green`);
  // true count of transparent pixels
  const rgba = await decodeRgba(r.png);
  let zero = 0;
  for (let i = 3; i < rgba.data.length; i += 4) if (rgba.data[i] === 0) zero++;
  t.equal(r.transparentPixels, zero, 'transparentPixels counts the alpha-0 pixels');
  t.same(r.originalDimensions, [640, 480]);

  const hard = await chromaKey({ image: g.png, color: '#1eaf46', tolerance: 60, edgeSmoothing: false, trimTransparent: false });
  const hs = await score(hard.png, g.alpha, g.width, g.height);
  t.ok(hs.iou > 0.97, `hex colour, hard edge: IoU ${hs.iou.toFixed(4)}`);
  t.equal(hs.edge, 0, 'edgeSmoothing false gives a binary alpha');
  t.equal(hard.tolerance, 60);
});

t.test('chroma-key: trimming and a blue screen', async (t) => {
  const g = await greenScreen({ seed: 2, key: [20, 60, 200], body: [120, 40, 90] });
  const r = await chromaKey({ image: g.png, color: 'auto' });
  // the shape spans x 179..461 and y from the head top (~0.18h) to the bottom
  const [w, h] = r.trimmedDimensions;
  t.ok(Math.abs(w - 282) <= 4, `trimmed width ${w}`);
  t.ok(Math.abs(h - (480 - 86)) <= 6, `trimmed height ${h}`);
  const meta = await sharp(r.png).metadata();
  t.same([meta.width, meta.height, meta.channels, meta.format], [w, h, 4, 'png']);
  const full = await chromaKey({ image: g.png, color: 'auto', trimTransparent: false });
  const s = await score(full.png, g.alpha, g.width, g.height);
  t.ok(s.iou > 0.98, `blue screen IoU ${s.iou.toFixed(4)}`);
});

t.test('chroma-key: bad colour and tolerance name the field', async (t) => {
  const g = await greenScreen({ width: 64, height: 48 });
  const c = await chromaKey({ image: g.png, color: 'green' }).catch((e) => e);
  t.same([c.code, c.field], ['INVALID_REQUEST', 'chromaKey.color']);
  const tol = await chromaKey({ image: g.png, color: 'auto', tolerance: 300 }).catch((e) => e);
  t.same([tol.code, tol.field], ['INVALID_REQUEST', 'chromaKey.tolerance']);
});

t.test('chroma-key: the same pixels call after call, whatever ran between (the planes are reused per thread)', async (t) => {
  const a = await greenScreen({ seed: 2 });
  const b = await greenScreen({ width: 320, height: 200, seed: 4 });
  const first = await chromaKey({ image: a.png, color: 'auto', trimTransparent: false });
  const rgba1 = await decodeRgba(first.png);
  // a smaller image, a hard cut and a given colour in between leave other contents in the reused planes
  await chromaKey({ image: b.png, color: 'auto' });
  await chromaKey({ image: b.png, color: '#1eaf46', tolerance: 40, edgeSmoothing: false });
  const again = await chromaKey({ image: a.png, color: 'auto', trimTransparent: false });
  const rgba2 = await decodeRgba(again.png);
  t.ok(Buffer.from(rgba2.data).equals(Buffer.from(rgba1.data)), 'identical RGBA');
  t.same([again.transparentPixels, again.semiTransparentPixels, again.tolerance, again.removedColor], [first.transparentPixels, first.semiTransparentPixels, first.tolerance, first.removedColor]);
  let zeroColour = 0;
  for (let i = 0; i < rgba2.data.length; i += 4) if (rgba2.data[i + 3] === 0 && (rgba2.data[i]! | rgba2.data[i + 1]! | rgba2.data[i + 2]!) !== 0) zeroColour++;
  t.equal(zeroColour, 0, 'fully transparent pixels are colour 0 (not what the plane held before)');
});
