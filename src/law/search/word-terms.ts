// The terms a plain question scores, chosen word by word (plain21, issue 15). The general selection (bm25.ts
// selectTerms) keeps the 8 rarest bigrams of the whole query: a long mapped term (인터넷컴퓨터게임시설제공업: 12
// bigrams) or a rare fragment (병원비's 원비) fills the eight, and the question's subject words (학교, 초등학교, 건물)
// are not scored at all, so the law that holds them never meets the coordination. Here every word first gives its
// rarest bigram, then the second rarest of every word, and so on: the words a question is made of are all heard.
import { SEARCH_SWITCHES } from './switches.js';

/** a scored term: its id, document frequency and weight */
export interface WordTerm { t: number; df: number; idf: number }

/**
 * The terms of a question's words (one list per word, in the query's order; a term already taken by an earlier word
 * is left out), round by round: each word's r-th rarest bigram in round r, a round's terms rarest first. A bigram in
 * more than 8 % of the articles is never taken beyond a word's first. Stops at `max` terms or when the next term's
 * postings no longer fit the budget (at least one term). nTerms = the terms kept (the coordination counts them).
 */
export function selectWordTerms(words: WordTerm[][], N: number, max: number): { post: WordTerm[]; nTerms: number } {
  const seen = new Set<number>();
  const lists = words.map((w) => w.filter((x) => !seen.has(x.t) && (seen.add(x.t), true)).sort((a, b) => a.df - b.df)).filter((l) => l.length > 0);
  const common = N * 0.08;
  // a word made of common bigrams only (시간, 사람) is heard only when rarer words leave room: its first bigram
  // goes last in round 0
  const post: WordTerm[] = [];
  let budget = SEARCH_SWITCHES.postings;
  for (let r = 0; post.length < max && r < SEARCH_SWITCHES.plainWordRounds; r++) {
    const round = lists.map((l) => l[r]).filter((x): x is WordTerm => x !== undefined && (r === 0 || x.df <= common));
    if (!round.length) break;
    round.sort((a, b) => a.df - b.df);
    for (const x of round) {
      if (post.length >= max || (post.length > 0 && budget - x.df < 0)) return { post, nTerms: post.length };
      if (r === 0 && x.df > common && post.length >= 2) continue;
      budget -= x.df;
      post.push(x);
    }
  }
  return { post, nTerms: post.length };
}

/**
 * The general selection (the rarest bigrams, `chosen`) completed word by word: a word of the question none of whose
 * bigrams was chosen adds its rarest bigram (not one in more than 8 % of the articles), the rarest such words first,
 * up to `max` terms in all and within the postings budget left. The chosen terms stay as they are.
 */
export function completeWords(chosen: WordTerm[], words: WordTerm[][], N: number, max: number): { post: WordTerm[]; nTerms: number } {
  const have = new Set(chosen.map((x) => x.t));
  let budget = SEARCH_SWITCHES.postings - chosen.reduce((s, x) => s + x.df, 0);
  const add: WordTerm[] = [];
  for (const w of words) {
    if (!w.length || w.some((x) => have.has(x.t))) continue;
    const r = w.reduce((a, b) => (b.df < a.df ? b : a));
    if (r.df <= N * SEARCH_SWITCHES.plainWordAddDf && !add.some((x) => x.t === r.t)) add.push(r);
  }
  add.sort((a, b) => a.df - b.df);
  const post = [...chosen];
  for (const x of add) {
    if (post.length >= max || budget - x.df < 0) break;
    budget -= x.df;
    post.push(x);
  }
  return { post, nTerms: post.length };
}
