// Phrase lookup of query analysis: which (from, to) pairs of a vocabulary list occur in a query's compact form, in the
// list's order. A linear scan tried every phrase (about 1,200 with the life vocabulary) with a substring search per
// query; the pairs are grouped once by their key's first two characters and only the groups of the query's own
// bigrams are searched (a key of two or more characters that occurs in the text starts with one of its bigrams).

import { pairCode as head } from '../normalize.js';

type Pair = readonly [string, ...unknown[]];

interface PhraseIndex { byHead: Map<number, number[]>; short: number[] }

/** one index per list (the lists are module constants, never changed after they are built) */
const INDEXES = new WeakMap<readonly Pair[], PhraseIndex>();

function indexOf(list: readonly Pair[]): PhraseIndex {
  let ix = INDEXES.get(list);
  if (ix) return ix;
  ix = { byHead: new Map(), short: [] };
  list.forEach(([k], i) => {
    if (k.length < 2) { ix!.short.push(i); return; }
    const l = ix!.byHead.get(head(k, 0));
    if (l) l.push(i); else ix!.byHead.set(head(k, 0), [i]);
  });
  INDEXES.set(list, ix);
  return ix;
}

/** the pairs of list whose key occurs in text, in list order (as `list.filter(([k]) => text.includes(k))`) */
export function phrasesIn<T extends Pair>(list: readonly T[], text: string): T[] {
  const ix = indexOf(list);
  const at = ix.short.slice();
  const seen = new Set<number>();
  for (let i = 0; i + 1 < text.length; i++) {
    const h = head(text, i);
    if (seen.has(h)) continue;
    seen.add(h);
    const l = ix.byHead.get(h);
    if (l) for (const j of l) at.push(j);
  }
  at.sort((a, b) => a - b);
  const out: T[] = [];
  for (const j of at) if (text.includes(list[j]![0])) out.push(list[j]!);
  return out;
}
