// The catalogue record (LawStore): every document record stored as one record with each index generation, so opening
// the law reads contiguous pages instead of 16k scattered ones; any document written outside an index build removes
// it, and the catalogue is then read record by record again — never a stale list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { StoreFileReader, type StoreFileRecord } from '../../src/law/store-file.js';

const rule = (title: string, seq: string, body: string) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "${seq}"\n---\n# ${title}\n\n제1조(목적) 이 고시는 ${body}에 관한 사항을 정한다.\n`;

function corpus(t: { teardown(fn: () => void): void }, rules: Array<[string, string, string]>): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-cat-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const [name, seq, body] of rules) {
    fs.mkdirSync(path.join(tmp, 'kr', name), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'kr', name, '고시.md'), rule(name, seq, body));
  }
  return tmp;
}

/** a store with two rules imported (the catalogue and its summary record written by the import) */
/** the catalogue's document records as the generation's side file holds them */
function recordedDocs(law: ReturnType<typeof openLaw>): Array<{ id: string; name: string }> {
  const reader = StoreFileReader.open(law.dir, law.sys.get('store-long') as StoreFileRecord)!;
  try { return reader.catalogue<Array<{ id: string; name: string }>>()!; } finally { reader.close(); }
}

async function importedTwoRules(t: { teardown(fn: () => void): void }) {
  const tmp = corpus(t, [['갯벌 관리 고시', '2100000000001', '갯벌 보전'], ['어선 검사 규정', '2100000000002', '어선 검사']]);
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  return { store, law };
}

t.test('the catalogue comes from its record after an import, and a document write outside a build voids it', async (t) => {
  const { store, law } = await importedTwoRules(t);
  const rec = law.sys.get('catalogue') as { gen: number; articles: number; docs?: unknown };
  t.equal(rec.gen, law.info().index_gen, 'written with the generation the import recorded');
  t.equal(rec.docs, undefined, 'the document records are in the generation\'s side file (store-file.ts)');
  const docs = recordedDocs(law);
  t.same(docs.map((d) => d.id).sort(), ['2100000000001', '2100000000002']);
  t.notOk(docs.some((d) => 'tables' in d), 'the record leaves the table lists out (read from law.docs on demand)');

  // a second store over the same files (another process or thread) reads the record: the same catalogue
  const other = openLaw(store);
  other.reload();
  t.ok(rec.gen > 0, 'a generation was built');
  t.equal(rec.articles, law.search.N, 'the record carries the indexed article count');
  t.equal(other.indexedArticles(), law.search.N, 'health reads it from the record (the index not opened for it)');
  t.same(other.catalog.map((d) => [d.id, d.name]).sort(), law.catalog.map((d) => [d.id, d.name]).sort());
  t.equal(other.search.query('어선 검사', {}, null)[0]?.doc.id, '2100000000002');

  // a document written without an index build (as a sync does before it rebuilds): the record goes, reload scans
  const doc = { ...law.get('2100000000001')!, name: '갯벌 관리 및 복원 고시' };
  await law.transaction(() => law.putDoc(doc, law.articles(doc.id), []));
  t.equal(law.sys.get('catalogue'), undefined, 'the record is removed by the first write');
  other.reload();
  t.equal(other.get('2100000000001')?.name, '갯벌 관리 및 복원 고시', 'the new name is seen, not the record\'s');

  // the next build writes a fresh record
  await law.rebuildIndex();
  const again = law.sys.get('catalogue') as { gen: number };
  t.equal(again.gen, law.info().index_gen);
  t.equal(recordedDocs(law).find((d) => d.id === '2100000000001')?.name, '갯벌 관리 및 복원 고시');
});

t.test('a record of another generation is not used', async (t) => {
  const tmp = corpus(t, [['어선 검사 규정', '2100000000002', '어선 검사']]);
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  await law.transaction(() => law.sys.put('catalogue', { gen: law.info().index_gen + 7, docs: [] }));
  law.reload();
  t.equal(law.catalog.length, 1, 'read record by record: the stale record names another generation');
});

t.test('health counts come from the summary record without loading the catalogue, and from the catalogue once the record is void', async (t) => {
  const { store, law } = await importedTwoRules(t);
  const other = openLaw(store);
  other.reload();
  const loaded = () => (other as unknown as { loaded?: unknown }).loaded !== undefined;
  t.same(other.counts(), { statutes: 0, admin_rules: 2, articles: 2 });
  t.equal(other.indexedArticles(), law.search.N);
  t.equal(loaded(), false, 'the catalogue (16k records with the full corpus) is not loaded for them');
  t.equal(other.get('2100000000002')?.name, '어선 검사 규정', 'a lookup loads it');
  t.equal(loaded(), true);

  await law.transaction(() => law.putDoc({ ...law.get('2100000000001')!, article_count: 5 }, law.articles('2100000000001'), []));
  t.equal(law.sys.get('catalogue-summary'), undefined, 'the summary goes with the catalogue record');
  other.reload();
  t.same(other.counts(), { statutes: 0, admin_rules: 2, articles: 6 }, 'counted from the documents');
});
