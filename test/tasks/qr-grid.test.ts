// The grid reader (src/tasks/lib/qr-grid.ts, qr-grid-read.ts): finder triples → module grid → sampled modules →
// redrawn code. Checked against the true module matrix of codes drawn here, and end to end on blurred codes.
import t from 'tap';
import { qrMatrix } from '../../src/tasks/qr-generate.js';
import { homography, warp, type Pt } from '../../src/tasks/lib/geometry.js';
import { gridFor, orient, refine, render, sampleModules, threshold, versionsFor, PX, QUIET } from '../../src/tasks/lib/qr-grid.js';
import { gridTriples } from '../../src/tasks/lib/qr-grid-read.js';
import { hardQr } from '../helpers/qr-hard.js';
import qrRecognize, { GRID_BUDGET } from '../../src/tasks/qr-recognize.js';

/** A code drawn at `ms` px per module, turned by `deg`, box-blurred `blur` times (3×3), on a 1.5× larger canvas. */
function drawn(data: string, ms: number, deg: number, blur: number): { g: Uint8Array; w: number; n: number; truth: Uint8Array } {
  const m = qrMatrix(data, 'M'), u = 8, S = (m.size + 8) * u;
  const sym = new Uint8Array(S * S).fill(255);
  for (let y = 0; y < m.size; y++) for (let x = 0; x < m.size; x++) if (m.modules[y * m.size + x]) {
    for (let yy = 0; yy < u; yy++) sym.fill(0, (4 * u + y * u + yy) * S + 4 * u + x * u, (4 * u + y * u + yy) * S + 4 * u + x * u + u);
  }
  const side = (m.size + 8) * ms, W = Math.round(side * 1.5), c = W / 2, a = (deg * Math.PI) / 180;
  const corners: Pt[] = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([x, y]) => [c + side * (x! * Math.cos(a) - y! * Math.sin(a)), c + side * (x! * Math.sin(a) + y! * Math.cos(a))] as Pt);
  let g = warp({ data: sym, width: S, height: S, channels: 1 }, homography(corners, [[0, 0], [S, 0], [S, S], [0, S]]), W, W, [255]).data;
  for (let k = 0; k < blur; k++) {
    const o = new Uint8Array(g.length);
    for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
      let s = 0, n = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) { const X = x + dx, Y = y + dy; if (X >= 0 && Y >= 0 && X < W && Y < W) { s += g[Y * W + X]!; n++; } }
      o[y * W + x] = Math.round(s / n);
    }
    g = o;
  }
  return { g, w: W, n: m.size, truth: m.modules };
}

t.test('orient: the corner finder first, the row neighbour second, whatever the order given', async (t) => {
  const A = { x: 10, y: 10, module: 2 }, B = { x: 70, y: 12, module: 2 }, C = { x: 8, y: 70, module: 2 };
  for (const order of [[A, B, C], [C, A, B], [B, C, A], [C, B, A]]) t.same(orient(order), [A, B, C]);
});

t.test('a turned, blurred code: the fitted grid at the best-fitting version samples every module right', async (t) => {
  const data = 'https://sejong.example/grid?n=0123456789abcdef';
  const { g, w, n, truth } = drawn(data, 4, 12, 2);
  const ts = [...gridTriples({ data: g, width: w, height: w })];
  t.ok(ts.length >= 1, `${ts.length} finder triples`);
  const v = (n - 17) / 4;
  t.ok(versionsFor(ts[0]!).includes(v), `version ${v} among ${versionsFor(ts[0]!).join(', ')}`);
  const grids = versionsFor(ts[0]!).map((vv) => gridFor(g, w, w, ts[0]!, vv)).sort((a, b) => b.fit - a.fit);
  t.equal(grids[0]!.n, n, 'the true version fits the fixed patterns best');
  const fitted = refine(g, w, w, grids[0]!);
  t.ok(fitted.fit >= grids[0]!.fit, `refining does not lower the fit (${grids[0]!.fit.toFixed(1)} → ${fitted.fit.toFixed(1)})`);
  const dark = threshold(sampleModules(g, w, w, fitted.H, n), n, 4, 0.6);
  let wrong = 0;
  for (let i = 0; i < n * n; i++) if (dark[i] !== truth[i]) wrong++;
  t.equal(wrong, 0, `${wrong} of ${n * n} modules wrong`);
  // the redrawn code: quiet zone light, the top-left finder's corner module dark, its position mapped back
  const code = render(dark, n, fitted.H);
  t.equal(code.width, (n + 2 * QUIET) * PX);
  t.equal(code.data[0], 255);
  t.equal(code.data[(QUIET * PX + 1) * code.width + QUIET * PX + 1], 0);
  const [x0, y0] = code.toSource(QUIET * PX, QUIET * PX);
  const [x1, y1] = code.toSource((QUIET + n) * PX, QUIET * PX);
  t.ok(Math.abs(Math.hypot(x1 - x0, y1 - y0) - 4 * n) < 4, `top edge ${Math.hypot(x1 - x0, y1 - y0).toFixed(1)} px ≈ ${4 * n}`);
});

t.test('qr-recognize reads blurred codes off the grid that zxing alone misses (tuning seeds)', async (t) => {
  // blur 2002/2003/2006 and small 2004 (tuning range 2000+): zxing alone and every earlier variant fail; the grid
  // reader decodes them. The budget floor is raised here so the outcome does not depend on the machine's load.
  const saved = { ...GRID_BUDGET };
  GRID_BUDGET.floorMs = 10_000;
  t.teardown(() => Object.assign(GRID_BUDGET, saved));
  for (const [kind, seed] of [['blur', 2002], ['blur', 2003], ['blur', 2006], ['small', 2004]] as const) {
    const s = await hardQr(kind, seed);
    const o = await qrRecognize({ image: s.bytes });
    t.equal(o.data, s.data, `${s.name}: decoded (${o.tried.join(', ')})`);
    t.equal(o.method, 'grid', `${s.name}: by the grid reader`);
    t.equal(o.tried.at(-1), 'grid');
    const xs = o.position!.map((p) => p[0]), ys = o.position!.map((p) => p[1]);
    t.ok(Math.min(...xs) >= 0 && Math.min(...ys) >= 0, `${s.name}: corners inside the image (${JSON.stringify(o.position)})`);
  }
});
