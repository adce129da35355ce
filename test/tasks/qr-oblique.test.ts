// QR codes the grid reader and the negative pass of qr-recognize read since session 11 (qr23), from the tuning
// seeds 5000..5023 of test/helpers/qr-hard.ts (none of them read before, with the grid budget lifted as here):
// a combined code under a perspective that makes one finder look 2–3× the size of another (the triple used to be
// rejected; the grid from three finders put the alignment pattern far off), and inverted codes (zxing's own
// invert retry covers only the first pass). Figures: bench/qr-hard.ts, bench/RESULTS.md "## qr23".
import t from 'tap';
import sharp from 'sharp';
import { hardQr, photoQr } from '../helpers/qr-hard.js';
import qrRecognize, { darkBorder, zxingReady, GRID_BUDGET } from '../../src/tasks/qr-recognize.js';
import { triples, SQUARE_ON, type Finder } from '../../src/tasks/lib/qr-locate.js';
import { gridFor, widen } from '../../src/tasks/lib/qr-grid.js';

// the grid reader's CPU-time budget lifted: the values below must not depend on the machine
GRID_BUDGET.floorMs = 10_000;

t.test('combined codes under strong perspective are read off the grid (seeds 5005, 5014)', async (t) => {
  await zxingReady();
  for (const seed of [5005, 5014]) {
    const s = await hardQr('combined', seed);
    const o = await qrRecognize({ image: s.bytes });
    t.equal(o.data, s.data, `combined-${seed}: the payload`);
    t.equal(o.method, 'grid', `combined-${seed}: read off the module grid`);
  }
});

t.test('inverted codes: the negative is read when the frame border is dark (seeds 5004–5006)', async (t) => {
  await zxingReady();
  for (const seed of [5004, 5005, 5006]) {
    const s = await photoQr('inverted', seed);
    const o = await qrRecognize({ image: s.bytes });
    t.equal(o.data, s.data, `inverted-${seed}: the payload`);
    t.match(o.method, /^inverted-/, `inverted-${seed}: by ${o.method}`);
    t.ok(o.tried.includes('original'), 'the original was tried first');
  }
});

t.test('darkBorder: a code on white is not, its negative is', async (t) => {
  const s = await hardQr('blur', 5001);
  const { data, info } = await sharp(s.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const g = { data: new Uint8Array(data), width: info.width, height: info.height };
  t.equal(darkBorder(g), false);
  t.equal(darkBorder({ ...g, data: g.data.map((v) => 255 - v) }), true);
});

t.test('triples: an oblique triple (finders 1:2.4 in size, sides 1:1.6) passes the wide tolerance only', async (t) => {
  // shadow-glare 5003's three finders as the search found them (image px)
  const f: Finder[] = [{ x: 78, y: 54, module: 3.8, hits: 10 }, { x: 189, y: 68, module: 3.1, hits: 8 }, { x: 107, y: 232, module: 8.8, hits: 29 }];
  t.equal(triples(f, 3, SQUARE_ON).length, 0, 'rejected as seen square-on');
  const wide = triples(f, 3, { sides: 0.7, hypotenuse: 0.4, module: 3 });
  t.equal(wide.length, 1, 'one triple, whichever finder is taken as its corner');
  t.same(new Set(wide[0]!.map((q) => q.x)), new Set([78, 189, 107]));
});

t.test('widen: the fourth anchor moved to where the fixed patterns fit better, never worse', async (t) => {
  const s = await hardQr('combined', 5014);
  const { data, info } = await sharp(s.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const g = new Uint8Array(data);
  // the finders of combined-5014 near where the search finds them; version 3 (29 modules)
  const tri = [{ x: 77, y: 79, module: 3.1 }, { x: 157, y: 46, module: 3.1 }, { x: 101, y: 145, module: 3.1 }];
  const g0 = gridFor(g, info.width, info.height, tri, 3);
  const g1 = widen(g, info.width, info.height, g0);
  t.equal(g1.n, 29);
  t.ok(g1.fit >= g0.fit, `fit ${g0.fit.toFixed(1)} → ${g1.fit.toFixed(1)}`);
  t.same(g1.dst.slice(0, 3), g0.dst.slice(0, 3), 'the three finders stay');
});
