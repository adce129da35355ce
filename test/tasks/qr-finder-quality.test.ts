// Finder candidates scored in 16 directions (src/tasks/lib/qr-finder-quality.ts, session 16) and the triples ranked
// with that score (qr-grid-read.ts FINDER_SCORE): a drawn finder scores near 0 at any rotation, stripes that pass
// the row test and noise score high, and camera frames of the tuning range 5100..5123 whose true triple was beaten
// by texture (main reads none of these three even with the grid budget lifted, as here) are read off the grid.
// Figures: bench/RESULTS.md "## qr25".
import t from 'tap';
import { darkView } from '../../src/tasks/lib/qr-locate.js';
import { finderError } from '../../src/tasks/lib/qr-finder-quality.js';
import { prng } from '../helpers/images.js';
import { cameraQr } from '../helpers/qr-camera.js';
import qrRecognize, { zxingReady, GRID_BUDGET } from '../../src/tasks/qr-recognize.js';

// the grid reader's budget lifted: the values below must not depend on the machine
GRID_BUDGET.floorMs = 10_000;

const W = 160, C = W / 2;
/** A finder (7 modules of `ms` px, its separator light, then random modules) centred in a W×W frame, turned by
 * `deg`: each pixel's module found by rotating back about the centre. */
function finder(ms: number, deg: number): Uint8Array {
  const a = (deg * Math.PI) / 180, r = prng(7), rnd = new Map<string, boolean>(), g = new Uint8Array(W * W);
  for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
    const dx = x + 0.5 - C, dy = y + 0.5 - C;
    const u = (dx * Math.cos(a) + dy * Math.sin(a)) / ms, v = (-dx * Math.sin(a) + dy * Math.cos(a)) / ms;
    const ring = Math.max(Math.abs(u), Math.abs(v));
    let dark: boolean;
    if (ring < 1.5) dark = true; else if (ring < 2.5) dark = false; else if (ring < 3.5) dark = true; else if (ring < 4.5) dark = false;
    else { const k = `${Math.floor(u)},${Math.floor(v)}`; if (!rnd.has(k)) rnd.set(k, r() < 0.5); dark = rnd.get(k)!; }
    g[y * W + x] = dark ? 40 : 210;
  }
  return g;
}

t.test('a finder pattern scores near 0 at any rotation and module size', async (t) => {
  for (const ms of [3, 5]) for (const deg of [0, 20, 45, 70]) {
    const e = finderError(darkView(finder(ms, deg), W, W), C, C, ms);
    t.ok(e < 0.15, `${ms} px modules, turned ${deg}°: error ${e.toFixed(3)}`);
  }
});

t.test('stripes that pass the row test score above the cut (0.35), noise well above a finder', async (t) => {
  // vertical bars 1:1:3:1:1 (a row through them reads like a finder; a column never leaves the dark centre bar)
  const ms = 4, bars = new Uint8Array(W * W);
  for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
    const u = Math.abs(x + 0.5 - C) / ms;
    bars[y * W + x] = u < 1.5 || (u >= 2.5 && u < 3.5) ? 40 : 210;
  }
  const eb = finderError(darkView(bars, W, W), C, C, ms);
  t.ok(eb > 0.35, `bars: error ${eb.toFixed(3)}`);
  const r = prng(11), noise = new Uint8Array(W * W);
  for (let i = 0; i < noise.length; i++) noise[i] = r() < 0.5 ? 40 : 210;
  noise[C * W + C] = 0;
  const en = finderError(darkView(noise, W, W), C, C, ms);
  t.ok(en > 0.2, `noise: error ${en.toFixed(3)} (a finder's < 0.15)`);
});

t.test('camera photos whose true triple was outranked by texture on shape alone read off the grid (5105, 5107, 5115)', async (t) => {
  await zxingReady();
  for (const seed of [5105, 5107, 5115]) {
    const s = await cameraQr(seed);
    const o = await qrRecognize({ image: s.bytes });
    t.equal(o.data, s.data, `camera-${seed}: the payload`);
    t.match(o.method, /grid$/, `camera-${seed}: read off the module grid (${o.method})`);
  }
});
