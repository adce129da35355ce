import t from 'tap';
import sharp from 'sharp';
import { Scratch, MAX_REUSED, MAX_REUSED_BYTES, threadScratch } from '../../src/tasks/lib/scratch.js';
import modelsTrim from '../../src/tasks/models-trim.js';
import { encodePng1 } from '../../src/tasks/lib/png1.js';
import { gaussianBlur, sobel, type Grey } from '../../src/tasks/lib/gray.js';
import { canny, maximaQuantile, quantile, select, sortedMaxima } from '../../src/tasks/lib/canny.js';
import { prng } from '../helpers/images.js';

function noise(w: number, h: number, seed: number): Grey {
  const rnd = prng(seed);
  const data = new Float32Array(w * h);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 256);
  return { data, width: w, height: h };
}

t.test('a scratch hands the same memory back for a name, fresh arrays beyond MAX_REUSED', async (t) => {
  const s = new Scratch();
  const a = s.get('f32', 'x', 1000);
  a[999] = 7;
  const b = s.get('f32', 'x', 500);
  t.equal(b.buffer, a.buffer, 'same buffer');
  t.equal(b.length, 500);
  t.equal(s.get('f32', 'x', 1000)[999], 7, 'contents kept');
  t.not(s.get('u8', 'x', 1000).buffer, a.buffer, 'kinds are separate');
  const big = s.get('f32', 'y', MAX_REUSED + 1);
  t.equal(big.length, MAX_REUSED + 1);
  t.not(s.get('f32', 'y', MAX_REUSED + 1).buffer, big.buffer, 'beyond MAX_REUSED: fresh each time');
  t.equal(s.bytes, 1000 * 4 + 1000);
  s.clear();
  t.equal(s.bytes, 0);
});

t.test('the limit is in bytes: an RGBA plane of 1024² is kept, a Float64Array of MAX_REUSED elements is not', async (t) => {
  const s = new Scratch();
  const rgba = s.get('u8', 'rgba', 1024 * 1024 * 4);
  t.equal(s.get('u8', 'rgba', 1024 * 1024 * 4).buffer, rgba.buffer, 'same buffer for the RGBA plane');
  t.equal(s.get('u8', 'rgba', 640 * 480 * 4).buffer, rgba.buffer, 'a smaller image takes a view of it');
  const f64 = s.get('f64', 'big', MAX_REUSED);
  t.not(s.get('f64', 'big', MAX_REUSED).buffer, f64.buffer, 'over MAX_REUSED_BYTES: fresh each time');
  t.equal(s.get('u8', 'edge', MAX_REUSED_BYTES + 1).length, MAX_REUSED_BYTES + 1);
  t.equal(s.bytes, MAX_REUSED_BYTES, 'only the RGBA plane is kept (allocated at the limit: the next larger image fits too)');
});

t.test('blur, sobel and canny give the same values with and without a scratch, call after call', async (t) => {
  const s = new Scratch();
  for (const [w, h, sigma, seed] of [[64, 48, 1.4, 1], [200, 9, 2.07, 2], [5, 5, 2.07, 3], [120, 90, 3.3, 4], [64, 48, 1.4, 5]] as const) {
    const g = noise(w, h, seed);
    const plain = gaussianBlur(g, sigma);
    const reused = gaussianBlur(g, sigma, s);
    t.same(Array.from(reused.data), Array.from(plain.data), `blur ${w}x${h} sigma ${sigma}`);
    t.same(Array.from(sobel(reused, s).mag), Array.from(sobel(plain).mag), `sobel ${w}x${h}`);
    const c1 = canny(g, { sigma });
    const c2 = canny(g, { sigma }, s);
    t.same([c2.low, c2.high], [c1.low, c1.high], 'thresholds');
    t.same(Array.from(c2.edges), Array.from(c1.edges), `edges ${w}x${h}`);
  }
});

t.test('selection finds the element a sort puts at k (duplicates, zeros of nms skipped)', async (t) => {
  const rnd = prng(11);

  for (const n of [1, 2, 3, 5, 10, 101, 1000, 4097]) {
    for (const dup of [false, true]) {
      const nms = new Float32Array(n * 2);
      for (let i = 0; i < nms.length; i++) nms[i] = rnd() < 0.5 ? 0 : dup ? 1 + Math.floor(rnd() * 5) : 1 + rnd() * 500;
      for (const p of [0, 0.1, 0.5, 0.85, 0.9, 0.99, 1]) {
        t.equal(maximaQuantile(nms, p), quantile(sortedMaxima(nms), p), `n=${n} dup=${dup} p=${p}`);

      }
    }
  }
  t.equal(maximaQuantile(new Float32Array(10), 0.9), 1, 'no maxima: 1, as quantile of an empty list');
  for (let k = 0; k < 50; k++) {
    const a = Float32Array.from({ length: 50 }, () => Math.floor(rnd() * 20));
    const sorted = Float32Array.from(a).sort();
    t.equal(select(Float32Array.from(a), k), sorted[k], `select k=${k}`);
  }
});

t.test('the idle trim (models-trim) drops the thread\'s reused arrays and says how many bytes', async (t) => {
  threadScratch.clear();
  threadScratch.get('f32', 'trim-test', 1000);
  threadScratch.get('u8', 'trim-test', 4000);
  t.equal(threadScratch.bytes, 8000);
  const out = await modelsTrim({});
  t.equal(out.scratchBytesFreed, 8000);
  t.equal(threadScratch.bytes, 0);
});

t.test('contour PNGs at zlib level 6 hold the same pixels as at level 9', async (t) => {
  const rnd = prng(5);
  const grey = Uint8Array.from({ length: 97 * 61 }, () => (rnd() < 0.2 ? 255 : 0));
  const a = await sharp(encodePng1(97, 61, grey)).extractChannel(0).raw().toBuffer();
  const b = await sharp(encodePng1(97, 61, grey, { level: 6 })).extractChannel(0).raw().toBuffer();
  t.ok(a.equals(b), 'identical decoded pixels');
  t.same(Array.from(b), Array.from(grey), 'the pixels drawn');
});
