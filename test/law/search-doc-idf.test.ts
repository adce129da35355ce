// A term's rarity among instruments (src/law/search/doc-idf.ts, switch docIdf): distinct owners of a posting and the
// idf weighed by instrument rarity against article rarity.
import t from 'tap';
import { docFrequency, withDocRarity } from '../../src/law/search/doc-idf.js';

// ten articles: instrument 0 holds articles 0 – 5, instrument 1 articles 6 – 7, instrument 2 articles 8 – 9
const owner = Uint32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 2, 2]);
const posting = (ids: number[]) => ({ ids: Uint32Array.from(ids), tfs: Uint8Array.from(ids.map(() => 1)) });

t.test('the distinct instruments of a posting are its owner changes', async (t) => {
  t.equal(docFrequency(posting([0, 1, 2, 3]), owner), 1);
  t.equal(docFrequency(posting([5, 6, 9]), owner), 3);
  t.equal(docFrequency(posting([6, 7, 8]), owner), 2);
  t.equal(docFrequency(posting([]), owner), 0);
});

t.test('a term concentrated in one instrument weighs more than one spread as thinly over many', async (t) => {
  const N = 1000, D = 100;
  // the same article frequency (40 articles): in one instrument, or in 40
  const concentrated = withDocRarity(2, 40, 1, N, D, 1), spread = withDocRarity(2, 40, 40, N, D, 1);
  t.ok(concentrated > 2, `concentrated ${concentrated} above the article idf`);
  t.ok(spread < 2, `spread ${spread} below it`);
  // weight 0 leaves the idf as it is; a term in one article of one instrument is as rare either way
  t.equal(withDocRarity(2, 40, 1, N, D, 0), 2);
  t.equal(withDocRarity(2, 1, 1, N, D, 1), 2);
  // the factor never falls below 0.1
  t.equal(withDocRarity(2, 1, 100, N, D, 50), 0.2);
});
