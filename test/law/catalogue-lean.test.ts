// The in-memory catalogue's lean records (law/catalogue-lean.ts): every field as stored, the table list read from the
// stored document record when asked (not held), an assignment kept on the record, and a record written back (or a
// spread copy of one) keeping its stored table list.
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { leanCatalogue } from '../../src/law/catalogue-lean.js';
import type { DocRec } from '../../src/law/parse.js';
import { sampleDataDir } from './fixture.js';

t.test('catalogue records hold every field but the table list, which is read from law.docs on access', async (t) => {
  const dir = await sampleDataDir();
  const store = new Store(dir);
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  const stored = [...law.docs.getRange({})].map((x) => x.value);
  const withTables = stored.filter((d) => d.tables.length > 0);
  t.ok(withTables.length > 0, 'the sample has documents with annex tables');
  t.equal(law.catalog.length, stored.length);
  for (const d of stored) {
    const c = law.get(d.id)!;
    t.notOk(Object.hasOwn(c, 'tables'), `${d.id}: no own table list`);
    const { tables, ...rest } = d;
    t.same({ ...c }, rest, `${d.id}: every other field as stored`);
    t.same(c.tables, tables, `${d.id}: the table list as stored`);
  }
  // an assignment stays on the record (a caller editing its copy)
  const one = law.get(withTables[0]!.id)!;
  one.tables = [];
  t.same(one.tables, [], 'assigned');
  t.equal(law.docs.get(one.id)!.tables.length, withTables[0]!.tables.length, 'the stored record untouched');
});

t.test('a lean record written back, or a spread copy of one, keeps the stored table list', async (t) => {
  const dir = await sampleDataDir();
  const store = new Store(dir);
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  const d = [...law.docs.getRange({})].map((x) => x.value).find((x) => x.tables.length > 0)!;
  const copy = { ...law.get(d.id)!, name: d.name + ' (개정)' };
  await law.transaction(() => law.putDoc(copy, law.articles(d.id), []));
  t.same(law.docs.get(d.id)!.tables, d.tables, 'spread copy: tables kept');
  t.equal(law.docs.get(d.id)!.name, d.name + ' (개정)', 'the edit written');
  law.reload();
  await law.transaction(() => law.putDoc(law.get(d.id)!, law.articles(d.id), []));
  t.same(law.docs.get(d.id)!.tables, d.tables, 'the lean record itself: tables kept');
});

t.test('leanCatalogue: equal strings become one, values unchanged, tables read per access', async (t) => {
  const docs: DocRec[] = [0, 1].map((i) => ({
    id: `d${i}`, entity_type: 'law', name: `법 ${i}`, law_type: ['법', '률'].join(''), category: 'law', ministries: [['법무', '부'].join('')],
    enforcement_date: null, promulgation_date: '20240101', promulgation_no: null, mst: null, revision_type: null, article_count: 3,
    path: null, family: null, tables: [{ table_no: '1', kind: '별표', title: `표 ${i}` }], cites: [['민', '법'].join('')], source: 'md',
  }));
  let reads = 0;
  const source = { get: (id: string) => { reads++; return docs.find((d) => d.id === id); } };
  const lean = leanCatalogue(docs, source);
  t.equal(reads, 0, 'no table list read at load');
  t.same(lean.map((d) => ({ ...d })), docs.map(({ tables: _t, ...r }) => r));
  t.same(lean[1]!.tables, docs[1]!.tables);
  t.same(lean[0]!.tables, docs[0]!.tables);
  t.equal(reads, 2, 'one read per access');
});
