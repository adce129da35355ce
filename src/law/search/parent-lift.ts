// A plain question answered in a decree's or rule's text is, mostly, about the statute they carry out: the evidence
// found in 「X 시행령」 or 「X 시행규칙」 gives 「X」 a floor (search.ts parentLift; issue #15, plain27). The parent is found
// by name, the corpus's own naming of subordinate instruments; no list.
import type { DocRec } from '../parse.js';
import { nameKey } from '../normalize.js';

const SUBORDINATE = /\s*시행(령|규칙)$/;

/** per catalogue position: the position of the 법률 a decree or rule carries out (-1: none) */
export function parentPositions(catalog: DocRec[], byName: Map<string, DocRec[]>, pos: Map<DocRec, number>): Int32Array {
  const out = new Int32Array(catalog.length).fill(-1);
  catalog.forEach((d, i) => {
    if ((d.category !== 'decree' && d.category !== 'rule') || !SUBORDINATE.test(d.name)) return;
    const p = byName.get(nameKey(d.name.replace(SUBORDINATE, '')))?.[0];
    if (p && p.category === 'law' && !p.repealed) out[i] = pos.get(p) ?? -1;
  });
  return out;
}
