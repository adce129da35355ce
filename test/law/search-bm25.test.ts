// BM25 over the bigram index (src/law/search/bm25.ts): the coordination fallback on hand-made posting lists.
import t from 'tap';
import { Bm25, type ArticleTables, type WeightedPosting } from '../../src/law/search/bm25.js';

// six articles in six documents; term A in articles 0 – 4, term B in 0 – 4, term C (rare) in article 5 only, D in 5 only
const tables: ArticleTables = { N: 6, avgdl: 10, owner: Uint32Array.from([0, 1, 2, 3, 4, 5]), seq: new Uint32Array(6), len: Uint16Array.from([10, 10, 10, 10, 10, 10]), docs: 6 };
const posting = (ids: number[]): WeightedPosting => ({ p: { ids: Uint32Array.from(ids), tfs: Uint8Array.from(ids.map(() => 1)) }, idf: 1 });
const post = () => [posting([5]), posting([5]), posting([0, 1, 2, 3, 4]), posting([0, 1, 2, 3, 4])];

t.test('coordination: the strict share when enough articles hold it, lowered while too few do', async (t) => {
  const bm = new Bm25();
  // need 3 of 4 terms: no article holds three; the most held (2) is the level, all six articles qualify
  t.equal(bm.run(post(), tables, 4, 3).n, 6);
  // need 2: article 5 (C, D) and articles 0 – 4 (A, B) all hold two
  t.equal(bm.run(post(), tables, 4, 2).n, 6);
  // one more term held by article 5 only: with enough = 1 it alone qualifies (3 of 5 terms) …
  const five = () => [posting([5]), ...post()];
  const strict = bm.run(five(), tables, 5, 3);
  t.equal(strict.n, 1);
  t.equal(strict.owners[0], 5);
  // … with enough = 4 the level is lowered to 2 and the articles holding the main terms come back, ranked below it
  const relaxed = bm.run(five(), tables, 5, 3, 4);
  t.equal(relaxed.n, 6);
  const best5 = relaxed.best[[...relaxed.owners].indexOf(5)]!, best0 = relaxed.best[[...relaxed.owners].indexOf(0)]!;
  t.ok(best5 > best0, `${best5} > ${best0}`);
});
