// The enhancement tasks in-process: privacy regions byte-identical, no seam, quality up on degraded cards.
import t from 'tap';
import sharp from 'sharp';
import { renderCard } from '../helpers/id-cards.js';
import { enhanceDirect } from './direct.js';
import { defaultRegions } from '../../src/enhance/privacy.js';
import { regionRect, planTiles } from '../../src/tasks/lib/tiling.js';
import { enhanceRgb, IDENTITY_PARAMS } from '../../src/tasks/lib/enhance-filters.js';
import { blendTiles, cutRect } from '../../src/tasks/lib/enhance-pixels.js';
import enhancePrepare from '../../src/tasks/enhance-prepare.js';

const rawOf = async (img: Buffer | Uint8Array) => {
  const { data, info } = await sharp(Buffer.from(img)).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
};

/** Mean |I(x) − I(x−1)| over all rows and channels, per column x (1..w−1). */
function columnProfile(px: Uint8Array, w: number, h: number): Float64Array {
  const p = new Float64Array(w);
  for (let y = 0; y < h; y++) for (let x = 1; x < w; x++) for (let c = 0; c < 3; c++) p[x] += Math.abs(px[(y * w + x) * 3 + c]! - px[(y * w + x - 1) * 3 + c]!);
  for (let x = 1; x < w; x++) p[x] /= h * 3;
  return p;
}

function transpose(px: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(px.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) out[(x * h + y) * 3 + c] = px[(y * w + x) * 3 + c]!;
  return out;
}

t.test('privacy regions: blurred before the tiles see them, byte-identical to the input afterwards', async (t) => {
  const card = await renderCard('jumin', { seed: 21, masked: false, degrade: { blur: 1, noise: 10, tint: [0.6, 0.6, 0.6] } });
  const regions = defaultRegions('jumin', 'fullMask');
  const r = await enhanceDirect(card.image, regions);
  const input = await rawOf(card.image);
  const png = await rawOf(Buffer.from(r.png));
  t.equal(png.width, 1280);
  t.equal(png.height, 807);
  let changedOutside = 0;
  const inRegion = new Uint8Array(1280 * 807);
  for (const reg of regions) {
    const rr = regionRect(reg, 1280, 807);
    let diff = 0;
    for (let y = rr.y; y < rr.y + rr.h; y++) for (let x = rr.x; x < rr.x + rr.w; x++) {
      inRegion[y * 1280 + x] = 1;
      for (let c = 0; c < 3; c++) if (png.data[(y * 1280 + x) * 3 + c] !== input.data[(y * 1280 + x) * 3 + c]) diff++;
    }
    t.equal(diff, 0, `${reg.field}: ${rr.w}x${rr.h} px identical to the input (lossless PNG output)`);
    t.same(Buffer.from(cutRect(r.raw!, 1280, rr)), Buffer.from(cutRect(input.data, 1280, rr)), `${reg.field}: raw composite byte-identical`);
    // what the tiles saw there: a blur (high-frequency energy far below the original's)
    const work = new Uint8Array(1280 * 807 * 3);
    for (let k = 0; k < r.prepared.tiles.length; k++) {
      const tile = r.prepared.plan.tiles[k]!;
      const pt = r.prepared.tiles[k]!;
      for (let y = 0; y < tile.read.h; y++) work.set(pt.data.subarray(y * tile.read.w * 3, (y + 1) * tile.read.w * 3), ((tile.read.y + y) * 1280 + tile.read.x) * 3);
    }
    const energy = (px: Uint8Array) => {
      let e = 0;
      for (let y = rr.y; y < rr.y + rr.h; y++) for (let x = rr.x + 1; x < rr.x + rr.w; x++) e += Math.abs(px[(y * 1280 + x) * 3 + 1]! - px[(y * 1280 + x - 1) * 3 + 1]!);
      return e / (rr.h * (rr.w - 1));
    };
    t.ok(energy(work) < energy(input.data) * 0.2, `${reg.field}: the tiles saw a blur (gradient ${energy(work).toFixed(2)} vs ${energy(input.data).toFixed(2)})`);
  }
  for (let i = 0; i < inRegion.length; i++) if (!inRegion[i] && (png.data[i * 3] !== input.data[i * 3])) changedOutside++;
  t.ok(changedOutside > 1280 * 807 * 0.3, `outside the regions the card was enhanced (${changedOutside} px changed)`);
});

t.test('no seam: tiled output equals the whole-image filter, and blending hides tiles that disagree', async (t) => {
  const card = await renderCard('driver', { seed: 5, degrade: { blur: 1.2, noise: 12 } });
  const r = await enhanceDirect(card.image, []);
  // reassemble the working image the tiles were cut from, filter it whole, compare
  const p = r.prepared;
  const work = new Uint8Array(p.width * p.height * 3);
  p.plan.tiles.forEach((tile, k) => {
    for (let y = 0; y < tile.read.h; y++) work.set(p.tiles[k]!.data.subarray(y * tile.read.w * 3, (y + 1) * tile.read.w * 3), ((tile.read.y + y) * p.width + tile.read.x) * 3);
  });
  const whole = enhanceRgb(work, p.width, p.height, p.estimate.params);
  let maxDiff = 0;
  for (let i = 0; i < whole.length; i++) maxDiff = Math.max(maxDiff, Math.abs(whole[i]! - r.raw![i]!));
  t.ok(maxDiff <= 1, `tiled result = whole-image result (max difference ${maxDiff})`);

  // pixel-difference profile across tile borders no worse than inside tiles: how much the processing changed the
  // neighbour differences at each column (row), output over input, at the borders vs. inside the tiles
  const input = await rawOf(card.image);
  for (const axis of ['column', 'row'] as const) {
    const tr = (px: Uint8Array) => (axis === 'column' ? px : transpose(px, p.width, p.height));
    const [w, h] = axis === 'column' ? [p.width, p.height] : [p.height, p.width];
    const pOut = columnProfile(tr(r.raw!), w, h), pIn = columnProfile(tr(input.data), w, h);
    const ratio = (x: number) => (pOut[x]! + 1) / (pIn[x]! + 1);
    const borders = new Set<number>();
    for (const tile of p.plan.tiles) {
      const [start, len, first] = axis === 'column' ? [tile.x, tile.w, tile.col === 0] : [tile.y, tile.h, tile.row === 0];
      if (!first) borders.add(start);
      if (start + len < w) borders.add(start + len);
    }
    const inside = [...Array(w).keys()].filter((x) => x > 0 && ![...borders].some((b) => Math.abs(b - x) <= 2)).map(ratio).sort((a, b) => a - b);
    // one column's value depends on the text that happens to cross it: compare the means, and each border with the range inside
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    const atBorders = [...borders].map(ratio);
    t.ok(mean(atBorders) <= mean(inside) + 0.05, `${axis}s: mean change at the ${borders.size} tile borders ${mean(atBorders).toFixed(3)} <= inside ${mean(inside).toFixed(3)} (+0.05)`);
    const max = inside[inside.length - 1]!;
    for (const b of borders) t.ok(ratio(b) <= max, `${axis} ${b}: ${ratio(b).toFixed(3)} within the range inside tiles (max ${max.toFixed(3)})`);
  }

  // tiles that disagree (each brightened by a different offset) still blend without a step
  const W = 1280, H = 807;
  const flat = new Uint8Array(W * H * 3).fill(100);
  const plan = planTiles(W, H, { tile: 320, overlap: 32, halo: 0 });
  const outs = plan.tiles.map((tile) => cutRect(flat, W, tile).map((v) => v + (tile.index % 2 ? 16 : 0)));
  const blended = blendTiles(W, H, plan.tiles, outs);
  let maxStep = 0;
  for (let y = 0; y < H; y++) for (let x = 1; x < W; x++) maxStep = Math.max(maxStep, Math.abs(blended[(y * W + x) * 3]! - blended[(y * W + x - 1) * 3]!));
  for (let x = 0; x < W; x++) for (let y = 1; y < H; y++) maxStep = Math.max(maxStep, Math.abs(blended[(y * W + x) * 3]! - blended[((y - 1) * W + x) * 3]!));
  t.ok(maxStep <= 2, `a 16-level disagreement between neighbours is spread over the overlap (largest step ${maxStep}, a hard seam would be 16)`);
});

t.test('identity parameters change nothing', async (t) => {
  const card = await renderCard('alien', { seed: 2 });
  const input = await rawOf(card.image);
  const out = enhanceRgb(input.data, input.width, input.height, IDENTITY_PARAMS);
  let maxDiff = 0;
  for (let i = 0; i < out.length; i++) maxDiff = Math.max(maxDiff, Math.abs(out[i]! - input.data[i]!));
  t.ok(maxDiff <= 1, `max difference ${maxDiff}`);
});

// The quality scale no longer rewards darkening paper (docs/image.md#quality): a noisy card already scores 100, so
// the score is only checked not to fall; the enhancer is judged by OCR accuracy (enhance-ocr.test.ts).
t.test('quality score does not fall on cards degraded with blur, noise and low light', async (t) => {
  const cases = { blur: { blur: 1.6 }, noise: { noise: 16 }, lowLight: { tint: [0.4, 0.4, 0.4] as [number, number, number] }, all: { blur: 1.2, noise: 10, tint: [0.5, 0.5, 0.45] as [number, number, number] } };
  let i = 0;
  for (const [name, degrade] of Object.entries(cases)) {
    const doc = (['jumin', 'driver', 'alien'] as const)[i++ % 3];
    const card = await renderCard(doc, { seed: 100 + i, degrade });
    const r = await enhanceDirect(card.image, defaultRegions(doc, 'juminMask'));
    const b = r.prepared.qualityBefore.overallScore, a = r.qualityAfter.overallScore;
    t.ok(a >= b - 5, `${doc} ${name}: overallScore ${b} → ${a}`);
  }
});

t.test('a corrupt image is a 400-class task error naming the field', async (t) => {
  const card = await renderCard('jumin', { seed: 1 });
  const broken = card.image.subarray(0, 200);
  await t.rejects(enhancePrepare({ image: new Uint8Array(broken), regions: [] }), { code: 'INVALID_REQUEST', field: 'image', message: /truncated/ });
});

t.test('enhance-prepare scales a card over ENHANCE_MAX_PIXELS down before the work (issue 12: a 143 KB all-zero 7000x7000 PNG)', async (t) => {
  const png = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
  t.ok(png.length < 300_000, `a small file (${png.length} bytes)`);
  const big = await enhancePrepare({ image: png, regions: [], field: 'image', maxPixels: 50_000_000 });
  t.same([big.width, big.height], [4000, 4000], '7000x7000 works at 4000x4000 (16 megapixels)');
  t.equal(big.plan.tiles.length, 196, '196 tiles (14 x 14), not 625');
  const wide = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: '#808080' } }).png().toBuffer();
  const w = await enhancePrepare({ image: wide, regions: [{ field: 'photo', x: 0.5, y: 0.5, w: 0.25, h: 0.25 }], field: 'image', maxPixels: 50_000_000 });
  t.same([w.width, w.height], [5059, 3162], 'aspect kept within one pixel');
  t.ok(w.width * w.height <= 16_000_000, 'within the working size');
  t.same(w.regionRects[0], { field: 'photo', x: 2529, y: 1581, w: 1266, h: 791 }, 'privacy regions are fractions: they follow the scaled image');
  // at the limit nothing changes
  const ok = await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#808080' } }).png().toBuffer();
  const p = await enhancePrepare({ image: ok, regions: [], field: 'image', maxPixels: 50_000_000 });
  t.same([p.width, p.height], [4000, 4000]);
});
