// The grid searches' four-point homography (src/tasks/lib/qr-homography.ts): the closed form must map the four
// anchors exactly and agree with geometry.ts's solved homography everywhere else.
import t from 'tap';
import { applyH, homography, type Pt } from '../../src/tasks/lib/geometry.js';
import { homographyFrom } from '../../src/tasks/lib/qr-homography.js';

const src: Pt[] = [[3.5, 3.5], [29.5, 3.5], [3.5, 29.5], [26.5, 26.5]];

t.test('maps the anchors and agrees with the solved homography (strong perspective)', async (t) => {
  const dst: Pt[] = [[40, 52], [190, 30], [61, 210], [171, 188]];
  const H = homographyFrom(src)(dst)!;
  t.equal(H[8], 1, 'scaled as geometry.ts scales it');
  for (const [i, p] of src.entries()) {
    const [x, y] = applyH(H, p[0], p[1]);
    t.ok(Math.abs(x - dst[i]![0]) < 1e-9 && Math.abs(y - dst[i]![1]) < 1e-9, `anchor ${i} → (${x.toFixed(6)}, ${y.toFixed(6)})`);
  }
  const ref = homography(src, dst);
  for (const [u, v] of [[0, 0], [33, 33], [16.5, 5], [0, 33]] as const) {
    const a = applyH(H, u, v), b = applyH(ref, u, v);
    t.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) < 1e-8, `(${u}, ${v}) → ${a.map((c) => c.toFixed(4))} = ${b.map((c) => c.toFixed(4))}`);
  }
});

t.test('the same source serves many destinations', async (t) => {
  const of = homographyFrom(src), first = of([[10, 10], [100, 10], [10, 100], [90, 90]])!;
  of([[0, 0], [50, 5], [5, 60], [40, 45]]);
  t.same([...applyH(first, 29.5, 3.5)].map((c) => Math.round(c * 1e6) / 1e6), [100, 10], 'an earlier matrix is not overwritten');
});

t.test('degenerate quads give undefined', async (t) => {
  t.equal(homographyFrom(src)([[0, 0], [10, 0], [20, 0], [30, 0]]), undefined, 'collinear destination');
  t.equal(homographyFrom([[0, 0], [1, 1], [2, 2], [3, 3]])([[0, 0], [10, 0], [0, 10], [10, 10]]), undefined, 'collinear source');
});
