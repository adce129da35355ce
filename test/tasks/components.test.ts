import t from 'tap';
import { forEachComponent } from '../../src/tasks/lib/components.js';

t.test('8-connected components, with and without a cap', async (t) => {
  // a long one-pixel diagonal stroke (40 px) and a separate 2x2 speck
  const w = 50, h = 50;
  const m = new Uint8Array(w * h);
  for (let i = 0; i < 40; i++) m[(i + 5) * w + (i + 5)] = 1;
  m[2 * w + 45] = m[2 * w + 46] = m[3 * w + 45] = m[3 * w + 46] = 1;
  const sizes: number[] = [];
  forEachComponent(m, w, h, (px) => sizes.push(px.length));
  t.same(sizes.sort((a, b) => a - b), [4, 40], 'diagonal pixels join one component');
  const capped: number[] = [];
  forEachComponent(m, w, h, (px) => capped.push(px.length), { cap: 10 });
  t.same(capped.sort((a, b) => a - b), [4, 11], 'a capped component is reported once (cap + 1 pixels), never split into specks');
});

t.test('4-connected: diagonal neighbours are separate components', async (t) => {
  // 3x3 diagonal: 8-connected one component of 3, 4-connected three of 1
  const mask = Uint8Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  const sizes = (connectivity?: 4 | 8): number[] => {
    const out: number[] = [];
    forEachComponent(mask, 3, 3, (p) => out.push(p.length), connectivity ? { connectivity } : {});
    return out;
  };
  t.same(sizes(), [3]);
  t.same(sizes(8), [3]);
  t.same(sizes(4), [1, 1, 1]);
});
