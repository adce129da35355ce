import t from 'tap';
import sharp from 'sharp';
import contour from '../../src/tasks/contour.js';
import { pngHeader } from '../../src/tasks/lib/png1.js';
import { cardScene } from '../helpers/images.js';

t.test('contour: a card on a textured table gives the card outline, not the wood grain', async (t) => {
  const s = await cardScene({});
  const r = await contour({ image: s.jpeg });
  t.same(pngHeader(r.png), { width: s.width, height: s.height, bitDepth: 1, colourType: 0 }, 'same size, 1-bit');
  const { data } = await sharp(r.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const w = s.width, h = s.height;
  const near = (x: number, y: number, rad: number): boolean => {
    for (let dy = -rad; dy <= rad; dy++) for (let dx = -rad; dx <= rad; dx++) {
      const xx = Math.round(x) + dx, yy = Math.round(y) + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h && data[yy * w + xx]! > 128) return true;
    }
    return false;
  };
  // recall: points along the four sides (away from the rounded corners) have an edge within 2 px
  let hit = 0, total = 0;
  for (let k = 0; k < 4; k++) {
    const a = s.corners[k]!, b = s.corners[(k + 1) % 4]!;
    for (let u = 0.1; u <= 0.9; u += 0.01) {
      total++;
      if (near(a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, 2)) hit++;
    }
  }
  t.ok(hit / total > 0.95, `outline recall ${(hit / total * 100).toFixed(1)}%`);
  // the table (outside the card's bounding box grown by 10 px) is nearly free of edges
  const xs = s.corners.map((p) => p[0]), ys = s.corners.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs) - 10, Math.max(...xs) + 10, Math.min(...ys) - 10, Math.max(...ys) + 10];
  let outside = 0, outsideEdges = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (x >= x0 && x <= x1 && y >= y0 && y <= y1) continue;
    outside++;
    if (data[y * w + x]! > 128) outsideEdges++;
  }
  t.ok(outsideEdges / outside < 0.002, `table edge density ${(outsideEdges / outside * 100).toFixed(3)}%`);
  t.equal(r.edgePixels > 2000, true);
});

t.test('contour: a large image is processed at 4096 px and returned at its own size', async (t) => {
  const big = await sharp({ create: { width: 4200, height: 600, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from('<svg width="4200" height="600"><rect x="1000" y="100" width="2000" height="400" fill="#000"/></svg>') }])
    .png().toBuffer();
  const r = await contour({ image: big });
  t.same([r.width, r.height], [4200, 600]);
  t.equal(r.processedWidth, 4096);
  t.same(pngHeader(r.png).bitDepth, 1);
});
