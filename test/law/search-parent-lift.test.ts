// A decree's or rule's evidence lifts the 법률 it carries out for plain questions (parent-lift.ts, search.ts
// parentLift; issue #15, plain27). The table over made-up catalogue records here; the lift on the full corpus is
// asserted in search-quality.test.ts (its store is imported there, so CI runs it).
import t from 'tap';
import type { DocRec } from '../../src/law/parse.js';
import { nameKey } from '../../src/law/normalize.js';
import { parentPositions } from '../../src/law/search/parent-lift.js';

const doc = (name: string, category: DocRec['category'], repealed = false) => ({ name, category, repealed } as DocRec);

t.test('a 시행령 or 시행규칙 points at the current 법률 of its name; nothing else has a parent', async (t) => {
  const catalog = [doc('소방기본법', 'law'), doc('소방기본법 시행령', 'decree'), doc('소방기본법 시행규칙', 'rule'),
    doc('옛법', 'law', true), doc('옛법 시행령', 'decree'), doc('없는법 시행령', 'decree'), doc('소방기본법 시행령', 'admrul'),
    doc('공무원 여비 규정', 'decree'), doc('대통령령 시행령', 'decree'), doc('대통령령', 'decree')];
  const byName = new Map<string, DocRec[]>();
  for (const d of catalog) byName.set(nameKey(d.name), [...(byName.get(nameKey(d.name)) ?? []), d]);
  const p = parentPositions(catalog, byName, new Map(catalog.map((d, i) => [d, i])));
  t.same([...p], [-1, 0, 0, -1, -1, -1, -1, -1, -1, -1], 'a repealed, absent or non-법률 parent and an 행정규칙 named so: none');
});
