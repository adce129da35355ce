// BM25 over the bigram index (src/law/search/bm25.ts): the coordination fallback on hand-made posting lists.
import t from 'tap';
import { Bm25, kthSmallest, selectTerms, type ArticleTables, type WeightedPosting } from '../../src/law/search/bm25.js';

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

// articles 0 – 39 in documents of four articles each; the postings drawn from a fixed seed (sorted, as stored)
const many: ArticleTables = { N: 40, avgdl: 12, owner: Uint32Array.from({ length: 40 }, (_, i) => i >> 2), seq: Uint32Array.from({ length: 40 }, (_, i) => i & 3), len: Uint16Array.from({ length: 40 }, (_, i) => 5 + (i * 7) % 20), docs: 10 };
function drawn(seed: number, terms: number): WeightedPosting[] {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: terms }, (_, k) => {
    const ids = Array.from({ length: 40 }, (_, i) => i).filter(() => rnd() < 0.3);
    return { p: { ids: Uint32Array.from(ids), tfs: Uint8Array.from(ids.map(() => 1 + Math.floor(rnd() * 4))) }, idf: 0.5 + k * 0.3 };
  });
}
/** the article scores as one float32 sum per article, term by term (the formula of bm25.ts), and the terms held */
function reference(post: WeightedPosting[], t: ArticleTables): { sc: Float32Array; held: Uint8Array } {
  const sc = new Float32Array(t.N), held = new Uint8Array(t.N);
  for (const { p, idf } of post) p.ids.forEach((d, i) => { const tf = p.tfs[i]!; held[d]!++; sc[d]! += (idf * tf * 2.2) / (tf + 1.2 * 0.25 + (0.9 / t.avgdl) * t.len[d]!); });
  return { sc, held };
}

t.test('a kept article scores its float32 sum of every term; one Bm25 reused answers as a fresh one', async (t) => {
  const reused = new Bm25();
  for (let seed = 1; seed <= 30; seed++) {
    const post = drawn(seed, 2 + (seed % 5)), nTerms = post.length, need = 1 + (seed % nTerms);
    const a = reused.run(post, many, nTerms, need), b = new Bm25().run(post, many, nTerms, need);
    t.same([a.n, [...a.owners], [...a.count], [...a.best], Array.from({ length: a.n }, (_, i) => a.seqsOf(i))],
      [b.n, [...b.owners], [...b.count], [...b.best], Array.from({ length: b.n }, (_, i) => b.seqsOf(i))], `seed ${seed}`);
    // the level: need, or (enough = 1) the most terms any article holds when none holds need
    const { sc, held } = reference(post, many);
    const c = Math.min(need, Math.max(...held));
    const docs = [...new Set([...held.keys()].filter((d) => held[d]! >= c).map((d) => d >> 2))];
    t.same([...a.owners].sort((x, y) => x - y), docs.sort((x, y) => x - y), `seed ${seed}: the documents with an article holding ${c} terms`);
    // each document's best: the best of its articles holding c terms, score × share of terms held
    for (let i = 0; i < a.n; i++) {
      const o = a.owners[i]!;
      const arts = [0, 1, 2, 3].map((s) => o * 4 + s).filter((d) => held[d]! >= c);
      t.equal(a.best[i], Math.max(...arts.map((d) => sc[d]! * (held[d]! / nTerms))), `seed ${seed} document ${o}`);
      t.equal(a.count[i], arts.length, `seed ${seed} document ${o}: articles counted`);
    }
  }
});

// speed25: score() meets the kept articles in each term's postings by a merge or, when they are few against a long
// posting, by a galloping search: 3,000 articles, a rare term and long common ones, both ways taken
const wide: ArticleTables = { N: 3000, avgdl: 12, owner: Uint32Array.from({ length: 3000 }, (_, i) => Math.floor(i / 3)), seq: Uint32Array.from({ length: 3000 }, (_, i) => i % 3), len: Uint16Array.from({ length: 3000 }, (_, i) => 3 + (i * 11) % 30), docs: 1000 };
function sparse(seed: number): WeightedPosting[] {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  return [0.004, 0.01, 0.5, 0.7, 0.9].map((share, k) => {
    const ids = Array.from({ length: 3000 }, (_, i) => i).filter(() => rnd() < share);
    return { p: { ids: Uint32Array.from(ids), tfs: Uint8Array.from(ids.map(() => 1 + Math.floor(rnd() * 4))) }, idf: 2 - k * 0.3 };
  });
}

t.test('few kept articles against long postings: the same scores, documents in the order their articles were first met', async (t) => {
  const bm = new Bm25();
  for (let seed = 1; seed <= 12; seed++) {
    const post = sparse(seed), nTerms = post.length, need = 2 + (seed % 3);
    const a = bm.run(post, wide, nTerms, need);
    const { sc, held } = reference(post, wide);
    const c = Math.min(need, Math.max(...held));
    // the documents in the order of their kept articles' first posting, term by term
    const order = new Set<number>();
    for (const { p } of post) for (const d of p.ids) if (held[d]! >= c) order.add(wide.owner[d]!);
    t.same([...a.owners], [...order], `seed ${seed}: ${order.size} documents holding ${c} terms, in order`);
    for (let i = 0; i < a.n; i++) {
      const o = a.owners[i]!;
      const arts = [0, 1, 2].map((s) => o * 3 + s).filter((d) => held[d]! >= c);
      t.equal(a.best[i], Math.max(...arts.map((d) => sc[d]! * (held[d]! / nTerms))), `seed ${seed} document ${o}`);
    }
  }
});

t.test('selectTerms word by word (plain24): each word\'s rarest term first, up to max; else the rarest overall', async (t) => {
  // word 0 has three rare bigrams, word 1 and word 2 one common bigram each, a term of no word
  const terms = () => [
    { t: 1, df: 10, g: 0 }, { t: 2, df: 11, g: 0 }, { t: 3, df: 12, g: 0 },
    { t: 4, df: 500, g: 1 }, { t: 5, df: 900, g: 2 }, { t: 6, df: 20 },
  ];
  // the rarest three: all of word 0's
  t.same(selectTerms(terms(), 0, 6, 100_000, 3).post.map((x) => x.t), [1, 2, 3]);
  // word by word: word 0's rarest, then word 1's and word 2's, before word 0's second; the term of no word last
  t.same(selectTerms(terms(), 0, 6, 100_000, 3, true).post.map((x) => x.t), [1, 4, 5]);
  const all = selectTerms(terms(), 0, 6, 100_000, 12, true);
  t.same(all.post.map((x) => x.t), [1, 4, 5, 2, 3, 6]);
  t.equal(all.nTerms, 6);
});

t.test('kthSmallest answers the sorted copy\'s k-th value (the text-hit cut), ties and repeated calls included', async (t) => {
  let x = 7;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const n of [1, 2, 3, 10, 257, 5000]) {
    // a few distinct values (many ties) or all distinct
    for (const levels of [3, 0]) {
      const xs = Float64Array.from({ length: n }, () => (levels ? Math.floor(rnd() * levels) : rnd() * 100));
      const sorted = xs.slice().sort(), before = xs.slice();
      for (const k of [0, n >> 1, n - 1, Math.floor(rnd() * n)]) t.equal(kthSmallest(xs, k), sorted[k], `n ${n} levels ${levels} k ${k}`);
      t.same([...xs], [...before], 'the input is left as it was');
    }
  }
});
