// Evidence a decree or rule gives its parent statute. The everyday words of a plain question are written far more
// often in the 시행령/시행규칙 of a law (its lists and tables: 탁주 in 주류 면허 등에 관한 법률 시행령, 조현병 in the
// 정신건강 시행령, 치매 in 치매관리법 시행규칙) than in the 법률 a lawyer cites; without this the parent gets nothing
// from its own family's text. Learned from the corpus: the family (the shared corpus folder of a 법률 and its
// subordinate instruments, DocRec.family) links them; no list is written by hand.
import type { DocRec } from '../parse.js';

/** per catalogue position: the position of the current 법률 of its family (−1: none, or the document is that 법률) */
export function familyParents(catalog: DocRec[], older: Uint8Array): Int32Array {
  const lawOf = new Map<string, number>();
  catalog.forEach((d, i) => { if (d.category === 'law' && d.family && !d.repealed && !older[i] && !lawOf.has(d.family)) lawOf.set(d.family, i); });
  return Int32Array.from(catalog, (d, i) => {
    const p = d.family && (d.category === 'decree' || d.category === 'rule') ? lawOf.get(d.family) : undefined;
    return p === undefined || p === i ? -1 : p;
  });
}

/**
 * The lift per parent position: share × the best text score among its family's matching decrees and rules (the best
 * child, not their sum: a law with many subordinate instruments would otherwise gain by their number).
 */
export class FamilyLift {
  private best = new Map<number, number>();
  constructor(private readonly parents: Int32Array, private readonly share: number) {}

  /** note a child's text score (position p); ignored for documents without a parent */
  note(p: number, textScore: number): void {
    const q = this.parents[p] ?? -1;
    if (q < 0 || this.share <= 0) return;
    const s = this.share * textScore;
    if (s > (this.best.get(q) ?? 0)) this.best.set(q, s);
  }

  /** the parents and their lifts */
  entries(): IterableIterator<[number, number]> { return this.best.entries(); }
}
