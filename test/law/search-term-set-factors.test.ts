// The WordWeights factor of a set of scored terms (term-set-factors.ts; plain24's table, made per set on first read
// since speed24): the words' coverage × the idf-weighted wholeness of the words held. Worked values, no corpus.
import t from 'tap';
import { TermSetFactors } from '../../src/law/search/term-set-factors.js';

// two bigrams of word 0, one of word 1, one mapped term of word 2, one term of no word
const terms = [{ idf: 2, g: 0 }, { idf: 1, g: 0 }, { idf: 3, g: 1 }, { idf: 1.5, g: 2, m: true }, { idf: 1 }];
const near = (a: number, b: number) => Math.abs(a - b) < 1e-12;

t.test('coverage × wholeness, set by set', async (t) => {
  const f = new TermSetFactors(terms, { cover: 1, whole: 2 });
  // half of word 0 (its first bigram: (1/2)^2 at idf 2) and word 1 whole (idf 3): 3.5 / 5, two of three words
  t.ok(near(f.of(0b101), (3.5 / 5) * (2 / 3)), String(f.of(0b101)));
  // a mapped term is its group whole: 1 × one of three words
  t.ok(near(f.of(0b1000), 1 / 3));
  // every word whole: 1
  t.ok(near(f.of(0b1111), 1));
  // the term of no word counts in neither part: no word held, coverage 0
  t.equal(f.of(0b10000), 0);
  t.ok(near(f.of(0b10111), (2 / 3) * 1), 'word 0 and 1 whole, the wordless term ignored');
});

t.test('a set asked again answers the same value; whole 0 and cover 0 leave the other part alone', async (t) => {
  const f = new TermSetFactors(terms, { cover: 1, whole: 2 });
  const first = f.of(0b11);
  t.equal(f.of(0b11), first);
  t.ok(near(first, 1 / 3), 'word 0 whole, one of three words');
  const onlyCover = new TermSetFactors(terms, { cover: 1, whole: 0 });
  t.ok(near(onlyCover.of(0b101), 2 / 3));
  const onlyWhole = new TermSetFactors(terms, { cover: 0, whole: 1 });
  t.ok(near(onlyWhole.of(0b101), (2 * 0.5 + 3) / 5));
  // one word only: no coverage factor
  const one = new TermSetFactors([{ idf: 1, g: 4 }, { idf: 1, g: 4 }], { cover: 1, whole: 1 });
  t.ok(near(one.of(0b01), 0.5));
});
