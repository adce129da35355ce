// Diag: the short names the corpus declares (「full name」(이하 "short"이라 한다)), as a store holds them. Since
// session 14 every index build (import, sync) derives them from the documents it indexes and stores them with the
// generation (src/law/search/declared-table.ts, derived-names.ts); nothing is generated into the source tree.
// Prints the table stored with the generation in force; --why reads every article again and prints the short names
// left out too, each with its reason (the rules of declared-table.ts).
// Usage: npm run bench -- law-declared-abbr --data DIR [--why]
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { DeclaredCollector } from '../src/law/search/declared-table.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const dataDir = arg('--data');
if (!dataDir) { console.error('Usage: law-declared-abbr --data DIR [--why]'); process.exit(2); }
const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
const stored = law.derivedNames();
console.log(stored
  ? `stored with generation ${law.indexGen()}: ${stored.declared.length} declared short names kept`
  : `no table stored with generation ${law.indexGen()} (built before session 14): the index derives it at open; a sync or re-import stores it`);
for (const [short, full, n] of stored?.declared ?? []) console.log(`+ ${short} → ${full} (${n} instruments)`);
if (process.argv.includes('--why')) {
  const c = new DeclaredCollector();
  for (const { key, value } of law.arts.getRange({})) c.visit(key[0], value.content);
  const { kept, dropped } = c.table(law.byName);
  for (const [short, fulls, n, why] of dropped) console.log(`- ${short} → ${fulls} (${n} instruments): ${why}`);
  const same = stored && JSON.stringify(stored.declared) === JSON.stringify(kept);
  console.log(`${c.articles} articles read; ${kept.length + dropped.length} short names declared, ${kept.length} kept${stored ? (same ? ' (the stored table)' : ' (the stored table DIFFERS: documents written since the build?)') : ''}`);
}
await store.close();
