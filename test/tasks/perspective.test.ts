import t from 'tap';
import sharp from 'sharp';
import perspective from '../../src/tasks/perspective.js';
import { cardScene, cardImage } from '../helpers/images.js';
import type { Pt } from '../../src/tasks/lib/geometry.js';

const err = (a: Pt[], b: Pt[]): number => Math.max(...a.map((p, i) => Math.hypot(p[0] - b[i]![0], p[1] - b[i]![1])));

t.test('perspective: corners of a card at a known perspective on a textured table', async (t) => {
  const cases: Array<[Pt, Pt, Pt, Pt]> = [
    [[260, 210], [930, 170], [990, 640], [210, 690]],
    [[100, 120], [1000, 80], [1080, 800], [60, 760]],
    [[330, 260], [860, 300], [900, 610], [250, 600]],
  ];
  for (const corners of cases) {
    const s = await cardScene({ corners });
    const r = await perspective({ image: s.jpeg });
    const e = err(r.corners, s.corners);
    t.ok(r.found, 'found');
    t.ok(e < 4, `max corner error ${e.toFixed(2)} px < 4 px`);
    t.ok(r.confidence > 0.6, `confidence ${r.confidence}`);
    t.equal(r.cardType, 'id-1');
    const truth = (Math.atan2(corners[1][1] - corners[0][1], corners[1][0] - corners[0][0]) * 180) / Math.PI;
    t.ok(Math.abs(r.rotationAngle - truth) < 1, `rotationAngle ${r.rotationAngle} vs ${truth.toFixed(2)}`);
    const meta = await sharp(r.jpeg).metadata();
    t.same([meta.format, meta.width, meta.height], ['jpeg', 1280, 807]);
  }
});

t.test('perspective: the warped crop matches the flat card', async (t) => {
  const s = await cardScene({});
  const r = await perspective({ image: s.jpeg, outputWidth: 856, outputHeight: 540 });
  const card = cardImage();
  const { data } = await sharp(r.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
  // compare grey levels inside the card (away from the rounded corners)
  let sum = 0, n = 0;
  for (let y = 40; y < 500; y += 3) for (let x = 40; x < 816; x += 3) {
    const i = y * 856 + x;
    const g = 0.299 * card.data[i * 4]! + 0.587 * card.data[i * 4 + 1]! + 0.114 * card.data[i * 4 + 2]!;
    sum += Math.abs(g - data[i]!);
    n++;
  }
  t.ok(sum / n < 12, `mean abs grey difference ${(sum / n).toFixed(2)} < 12`);
});

t.test('perspective: given corners are used; bad corners are rejected naming the field', async (t) => {
  const s = await cardScene({});
  const r = await perspective({ image: s.jpeg, corners: [[990, 640], [260, 210], [930, 170], [210, 690]] });
  t.equal(r.source, 'given');
  t.same(r.corners, s.corners, 'any order in, TL-TR-BR-BL out');
  const bad = await perspective({ image: s.jpeg, corners: [[1, 2], [3, 4]] as never }).catch((e) => e);
  t.same([bad.code, bad.field], ['INVALID_REQUEST', 'corners']);
  const outside = await perspective({ image: s.jpeg, corners: [[0, 0], [5000, 0], [5000, 5000], [0, 5000]] }).catch((e) => e);
  t.same([outside.code, outside.field], ['INVALID_REQUEST', 'corners']);
  const size = await perspective({ image: s.jpeg, outputWidth: 99999 }).catch((e) => e);
  t.same([size.code, size.field], ['INVALID_REQUEST', 'output_width']);
});

t.test('perspective: light and noisy desks; a card as white as the desk is reported as not found', async (t) => {
  const corners: [Pt, Pt, Pt, Pt] = [[300, 250], [880, 200], [930, 600], [260, 650]];
  for (const table of [{ rgb: [200, 200, 195] as [number, number, number], noise: 6 }, { rgb: [120, 120, 120] as [number, number, number], noise: 25 }]) {
    const s = await cardScene({ corners, plainTable: table });
    const r = await perspective({ image: s.jpeg });
    t.ok(r.found && err(r.corners, corners) < 2, `desk ${table.rgb}: found, corner error ${err(r.corners, corners).toFixed(2)} px`);
  }
  // the card's light corner is as bright as this desk: one side has no edge; better "not found" than a wrong crop
  const white = await cardScene({ corners, plainTable: { rgb: [225, 228, 230], noise: 4 } });
  const r = await perspective({ image: white.jpeg });
  t.equal(r.found, false, `near-white desk: found=false (confidence ${r.confidence})`);
});

t.test('perspective: no card on a plain table gives found=false', async (t) => {
  const plain = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#7a5a3a' } }).jpeg().toBuffer();
  const r = await perspective({ image: plain });
  t.equal(r.found, false);
  t.equal(r.confidence, 0);
});
