// sortByScore (src/law/search/sort-by-score.ts): the order of a sort by score with byScore's tie-breaks (shorter name, then id),
// on hit lists with many equal scores.
import t from 'tap';
import { sortByScore } from '../../src/law/search/sort-by-score.js';

interface H { score: number; doc: { id: string; name: string } }
const hit = (score: number, id: string, name: string): H => ({ score, doc: { id, name } });
const order = (hs: H[]) => hs.map((h) => h.doc.id);

t.test('best score first; equal scores: the shorter name, then the id', async (t) => {
  const hs = [hit(1, 'b', '민법'), hit(3, 'c', '형법'), hit(1, 'a', '민법'), hit(2, 'd', '상법'), hit(1, 'e', '근로기준법'), hit(3, 'f', '헌법')];
  sortByScore(hs);
  t.same(order(hs), ['c', 'f', 'd', 'a', 'b', 'e']);
  t.same(hs.map((h) => h.score), [3, 3, 2, 1, 1, 1]);
});

t.test('the same order as Array.prototype.sort with the comparator, on 200 drawn lists', async (t) => {
  let x = 7;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let k = 0; k < 200; k++) {
    const n = 1 + Math.floor(rnd() * 300);
    // few distinct scores (many ties) for half the lists, scores as the ranking makes them for the rest
    const hs = Array.from({ length: n }, (_, i) => hit(k % 2 ? Math.floor(rnd() * 5) : rnd() * 40 * (1 + rnd()), `id${i}`, 'x'.repeat(1 + Math.floor(rnd() * 4))));
    const want = hs.slice().sort((a, b) => b.score - a.score || a.doc.name.length - b.doc.name.length || a.doc.id.localeCompare(b.doc.id));
    sortByScore(hs);
    t.same(order(hs), order(want), `list ${k} (${n} hits)`);
  }
});

t.test('no hit, one hit', async (t) => {
  const none: H[] = [];
  sortByScore(none);
  t.same(none, []);
  const one = [hit(5, 'a', '민법')];
  sortByScore(one);
  t.same(order(one), ['a']);
});
