// The final order of the hits (search.ts rank): by score, then the shorter name, then the id.
/**
 * out sorted by byScore, in place. The same order as out.sort(byScore) (byScore is a total order on distinct
 * documents): the scores are sorted as numbers (a native typed-array sort, no comparator call), each hit goes to the
 * first free place of its score, and only hits of equal score are put in order by byScore. Why by hand: the sort with
 * a comparator was the dearest line of rank() (up to 1,000 hits, ≈ 10 calls each).
 */
export function sortByScore<H extends Ranked>(out: H[]): void {
  const n = out.length;
  if (n < 2) return;
  const sorted = new Float64Array(n);
  for (let i = 0; i < n; i++) sorted[i] = -out[i]!.score;
  // (a NaN score has no place by number: byScore's own sort)
  if (sorted.some(Number.isNaN)) { out.sort(byScore); return; }
  sorted.sort(); // ascending: the best score first
  const placed: Array<H | undefined> = new Array(n);
  const taken = new Uint32Array(n);
  let ties = false;
  for (const h of out) {
    // the first place holding this score
    const x = -h.score;
    let lo = 0, hi = n - 1;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (sorted[mid]! < x) lo = mid + 1; else hi = mid; }
    if (taken[lo]) ties = true;
    placed[lo + taken[lo]!++] = h;
  }
  for (let i = 0; i < n; i++) out[i] = placed[i]!;
  if (!ties) return;
  // runs of equal scores in byScore's order
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && out[j]!.score === out[i]!.score) j++;
    if (j - i > 1) { const run = out.slice(i, j).sort(byScore); for (let k = i; k < j; k++) out[k] = run[k - i]!; }
    i = j;
  }
}

/** what the order of hits reads: the score, then the name's length and the id */
export interface Ranked { score: number; doc: { id: string; name: string } }
export const byScore = (a: Ranked, b: Ranked) => b.score - a.score || a.doc.name.length - b.doc.name.length || a.doc.id.localeCompare(b.doc.id);
