// The screen-moiré measure (src/vision/screen-moire.ts) and the FFT under it (spectrum.ts) on images made here:
// a smooth face-like image against the same image with a rendered moiré, a re-sampled screen pixel grid, sub-pixel
// colour stripes, and axis-aligned stripes (which the measure must ignore).
import t from 'tap';
import { screenMoire, isolatedPeak, moireWindow } from '../../src/vision/screen-moire.js';
import { spectrum } from '../../src/vision/spectrum.js';
import type { Box, RgbImage } from '../../src/vision/raster.js';

const W = 200, H = 200;
const BOX: Box = [20, 10, 180, 190];
let seed = 7;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
function render(f: (x: number, y: number) => [number, number, number]): RgbImage {
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.set(f(x, y).map(clamp), (y * W + x) * 3);
  return { data, width: W, height: H, channels: 3 };
}
/** Face-like luminance: a bright ellipse shading off to the sides, two dark eyes, sensor noise of ±3 levels. */
function face(x: number, y: number): number {
  const d = Math.hypot((x - 100) / 70, (y - 100) / 90);
  const eye = Math.exp(-(((x - 70) ** 2 + (y - 80) ** 2) / 60)) + Math.exp(-(((x - 130) ** 2 + (y - 80) ** 2) / 60));
  return 200 - 80 * d * d - 90 * eye + 6 * (rnd() - 0.5);
}
const skin = (v: number): [number, number, number] => [v, v * 0.8, v * 0.7];

t.test('spectrum: a cosine at (u, v) = (10, 7) cycles puts its power at that bin', async (t) => {
  const n = 64, p = new Float64Array(n * n);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) p[y * n + x] = 100 + 50 * Math.cos((2 * Math.PI * (10 * x + 7 * y)) / n);
  const mag = spectrum(p, n);
  let best = 0;
  for (let k = 1; k < n * n; k++) if (mag[k]! > mag[best]!) best = k;
  t.ok((best % n === 10 && Math.floor(best / n) === 7) || (best % n === n - 10 && Math.floor(best / n) === n - 7), `peak bin ${best % n},${Math.floor(best / n)}`);
  t.ok(mag[7 * n + 10]! > 100 * mag[20 * n + 3]!, 'the peak is > 100× an empty bin');
});

t.test('a smooth face-like image has no isolated peak; a rendered moiré has one', async (t) => {
  const smooth = screenMoire(render((x, y) => skin(face(x, y))), BOX);
  t.equal(smooth.window, 128, 'a 160-px face is read in a native 128² window');
  t.ok(smooth.peak < 1.6 && smooth.peak > 0.5, `smooth luma peak ${smooth.peak.toFixed(2)} (noise floor ≈ 1.1)`);
  t.ok(smooth.peakChroma < 1.6, `smooth chroma peak ${smooth.peakChroma.toFixed(2)}`);
  const moire = screenMoire(render((x, y) => skin(face(x, y) + 8 * Math.cos(2 * Math.PI * (0.23 * x + 0.17 * y)))), BOX);
  t.ok(moire.peak > 3.5, `moiré luma peak ${moire.peak.toFixed(2)}`);
  t.ok(moire.peak - smooth.peak > 2, 'at least 100× above the smooth image');
});

t.test('a screen pixel grid re-sampled by a camera at a non-integer pitch beats into moiré', async (t) => {
  // display pixels of pitch 2.7 camera pixels, each lit over 70 % of its width and height (dark gaps between),
  // the display turned by θ in the camera's view
  const cell = (x: number, y: number) => ((x / 2.7) % 1 < 0.7 ? 1 : 0.55) * ((y / 2.7) % 1 < 0.7 ? 1 : 0.55);
  const shot = (deg: number) => {
    const c = Math.cos((deg * Math.PI) / 180), s = Math.sin((deg * Math.PI) / 180);
    return screenMoire(render((x, y) => skin(face(x, y) * cell(100 + x * c + y * s, 100 - x * s + y * c))), BOX).peak;
  };
  const [held, square] = [shot(5), shot(0)];
  t.ok(held > 3.5, `grid turned 5° (a hand-held screen): luma peak ${held.toFixed(2)}`);
  // square to the camera, the grid's strongest peaks lie ON the axes, which the measure leaves out (edges, scan
  // lines and the window's leakage live there); only the weaker diagonal cross terms are counted
  t.ok(square > 2 && square < held, `grid square to the camera: ${square.toFixed(2)} (cross terms only)`);
});

t.test('sub-pixel colour stripes show most in R−B; axis-aligned stripes are ignored', async (t) => {
  const stripes = screenMoire(render((x, y) => {
    const v = face(x, y), ph = 2 * Math.PI * (0.27 * x + 0.09 * y);
    return [v + 10 * Math.cos(ph), v * 0.8, v * 0.7 - 10 * Math.cos(ph)];
  }), BOX);
  t.ok(stripes.peakChroma > 4, `stripes chroma peak ${stripes.peakChroma.toFixed(2)}`);
  t.ok(stripes.peakChroma > stripes.peak, 'chroma above luma for colour-misaligned stripes');
  const lines = screenMoire(render((x, y) => skin(face(x, y) + 12 * Math.cos(2 * Math.PI * 0.25 * y))), BOX);
  t.ok(lines.peak < 1.8, `horizontal scan lines (on the axis) are not counted: ${lines.peak.toFixed(2)}`);
});

t.test('small faces and the window', async (t) => {
  t.same(moireWindow(200, 200, [10, 10, 40, 40]), null, 'a 30-px face is too small');
  t.same(screenMoire(render((x, y) => skin(face(x, y))), [10, 10, 40, 40]), { peak: 0, peakChroma: 0, window: 0 });
  t.same(moireWindow(200, 200, [150, 150, 230, 240]), { x: 136, y: 136, n: 64 }, 'a window leaving the photo is shifted inside');
  const n = 64, noise = new Float64Array(n * n).map(() => rnd() * 255);
  const floor = isolatedPeak(spectrum(noise, n), n);
  t.ok(floor > 0.6 && floor < 1.4, `white noise: the largest of ~1,000 bins is ${floor.toFixed(2)} (≈ log10(ln 1000 / ln 2) = 1.0)`);
});
