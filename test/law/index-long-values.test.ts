// The index's values longer than a chunk of the LMDB map (postings, title lists) live in a side file per generation
// beside the law environment (search/long-values.ts): a rebuild writes the new generation's file and removes the old
// one, and a store built before the side file (every value in LMDB, no table) still reads the same. Generates its own
// rules: one with 3,400 articles, so that its bigrams' postings (5 bytes an article) and its title list pass 16 KiB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { LAW_STORE_FORMAT } from '../../src/law/store.js';
import { Importer } from '../../src/law/import.js';
import { LONG_VALUE_BYTES, longFile, type LongTable } from '../../src/law/search/long-values.js';
import { termIds } from '../../src/law/normalize.js';
import { StoreFileReader, storeFile, type StoreFileRecord } from '../../src/law/store-file.js';

const ARTICLES = 3400;
const head = (title: string, seq: string) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "${seq}"\n---\n# ${title}\n\n`;
const big = head('갯벌 관리 고시', '2100000000001') + Array.from({ length: ARTICLES }, (_, i) => `제${i + 1}조(갯벌보전) 갯벌 보전 구역 ${i + 1}의 관리는 해양수산부가 한다.\n`).join('\n');
const small = head('어선 검사 규정', '2100000000002') + '제1조(목적) 이 규정은 어선 검사와 갯벌 보전에 관한 사항을 정한다.\n';

function corpus(t: { teardown(fn: () => void): void }): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-long-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const [name, text] of [['갯벌 관리 고시', big], ['어선 검사 규정', small]]) {
    fs.mkdirSync(path.join(tmp, 'kr', name!), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'kr', name!, '고시.md'), text!);
  }
  return tmp;
}

/** a store with the corpus imported (a fresh temp dir, closed and removed at the test's end) */
async function imported(t: { teardown(fn: () => void): void }): Promise<ReturnType<typeof openLaw>> {
  const tmp = corpus(t);
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  return law;
}

const tableOf = (law: ReturnType<typeof openLaw>, gen: number) => JSON.parse(law.idx.get([gen, 'long'])!.toString('utf8')) as LongTable;
const top = (law: ReturnType<typeof openLaw>, q: string) => law.search.query(q, {}, null).slice(0, 5).map((h) => ({ id: h.doc.id, score: h.score, seqs: h.seqs.slice(0, 5) }));
const QUERIES = ['갯벌 보전', '갯벌보전 구역 관리', '어선 검사', '해양수산부 관리'];

t.test('long postings and title lists go to the generation\'s side file; a rebuild replaces it', async (t) => {
  const law = await imported(t);
  t.equal(law.info().index_gen, 1);
  const file1 = longFile(law.dir, 1);
  t.ok(fs.existsSync(file1), 'idx-1.long beside the law environment');
  const table = tableOf(law, 1);
  const gyeol = termIds('갯벌')[0]!;
  const at = table.postings.findIndex((x, i) => i % 3 === 0 && x === gyeol);
  t.ok(at >= 0, 'the posting of 갯벌 (in every article of the big rule) is a long value');
  t.equal(table.postings[at + 2], (ARTICLES + 1) * 5, 'its length: one id and one count per article');
  t.equal(law.idx.get([1, gyeol]), undefined, 'and not in LMDB');
  t.equal(table.titles.length, 3, 'one long title list (the big rule\'s 3,400 titles)');
  t.equal(law.idx.get([1, `t${table.titles[0]}`]), undefined);
  t.equal(fs.statSync(file1).size, table.postings.reduce((n, x, i) => n + (i % 3 === 2 ? x : 0), 0) + table.titles[2]!, 'the file holds the values, end to end');
  for (let i = 2; i < table.postings.length; i += 3) t.ok(table.postings[i]! > LONG_VALUE_BYTES);
  const hits = law.search.query('갯벌', {}, null);
  t.equal(hits[0]?.doc.id, '2100000000001');
  t.equal(hits.find((h) => h.doc.id === '2100000000002')?.doc.name, '어선 검사 규정', 'the small rule matches 갯벌 through the long posting');
  const before = QUERIES.map((q) => top(law, q));
  // the big rule's table of contents (3,400 entries) is long: copied to the generation's toc file
  t.same(Object.keys((law.sys.get('store-long') as { at: object }).at), ['2100000000001']);
  t.ok(fs.existsSync(storeFile(law.dir, 1)));
  const toc = law.tocOf('2100000000001');
  t.equal(toc.length, ARTICLES);
  t.same(toc, law.toc.get('2100000000001'), 'the same list as law.toc holds');
  t.same(law.articleHead('2100000000001', 41), { no: '42', title: '갯벌보전' });

  // a rebuild writes generation 2's files and removes generation 1's
  await law.rebuildIndex();
  law.reload();
  t.equal(law.info().index_gen, 2);
  t.ok(fs.existsSync(longFile(law.dir, 2)));
  t.notOk(fs.existsSync(file1), 'the older generation\'s file is removed with its records');
  t.ok(fs.existsSync(storeFile(law.dir, 2)));
  t.notOk(fs.existsSync(storeFile(law.dir, 1)));
  t.same(law.tocOf('2100000000001'), toc);
  t.same(QUERIES.map((q) => top(law, q)), before, 'the same answers from the new generation');

  // a second reader that opened generation 2 keeps reading its file after a rebuild removed it (an open descriptor)
  const reader = openLaw(law.store);
  reader.reload();
  t.equal(reader.search.gen, 2);
  await law.rebuildIndex();
  t.notOk(fs.existsSync(longFile(law.dir, 2)));
  // (the rule 어선 검사 규정 holds 갯벌 in its text only: found through the long posting)
  t.same(reader.search.query('갯벌', {}, null).map((h) => h.doc.id).sort(), ['2100000000001', '2100000000002'], 'the posting of 갯벌 read from the removed file');
  t.equal(reader.tocOf('2100000000001').length, ARTICLES, 'and the table of contents from the removed toc file');

  // a document write outside a build (a sync) drops the toc file's record with the catalogue record: law.toc is read
  const arts = law.articles('2100000000001').slice(0, 2);
  await law.transaction(() => law.putDoc({ ...law.get('2100000000001')!, article_count: 2 }, arts, []));
  t.equal(law.sys.get('store-long'), undefined);
  law.reload();
  t.same(law.tocOf('2100000000001').map((e) => e.no), ['1', '2'], 'the list as written, not the file\'s');
});

t.test('a store built before the side file (every value in LMDB, no table) reads as before', async (t) => {
  const law = await imported(t);
  const before = QUERIES.map((q) => top(law, q));
  // rewrite generation 1 as the build wrote it before: the long values under their own keys, no table, no file
  const table = tableOf(law, 1), file = longFile(law.dir, 1), bytes = fs.readFileSync(file);
  await law.transaction(() => {
    for (let i = 0; i < table.postings.length; i += 3) law.idx.put([1, table.postings[i]!], bytes.subarray(table.postings[i + 1]!, table.postings[i + 1]! + table.postings[i + 2]!));
    for (let i = 0; i < table.titles.length; i += 3) law.idx.put([1, `t${table.titles[i]}`], bytes.subarray(table.titles[i + 1]!, table.titles[i + 1]! + table.titles[i + 2]!));
    law.idx.remove([1, 'long']);
  });
  fs.rmSync(file);
  const toc = law.tocOf('2100000000001');
  // the catalogue record as written before: its document records inline
  const reader = StoreFileReader.open(law.dir, law.sys.get('store-long') as StoreFileRecord)!;
  const docs = reader.catalogue<object[]>()!;
  reader.close();
  await law.transaction(() => { law.sys.remove('store-long'); law.sys.put('catalogue', { gen: 1, articles: 3401, docs: docs.map((d) => ({ ...d, enforcement_date: '2099-01-01' })) }); });
  fs.rmSync(storeFile(law.dir, 1));
  law.reload();
  t.same(QUERIES.map((q) => top(law, q)), before, 'the same answers read from LMDB alone');
  t.same(law.tocOf('2100000000001'), toc, 'the same table of contents from law.toc');
  t.same(law.catalog.map((d) => d.enforcement_date), ['2099-01-01', '2099-01-01'], 'the catalogue read from the old record (its records inline)');
  t.equal(law.search.query('갯벌보전', {}, null)[0]?.doc.id, '2100000000001');
  // and its next rebuild moves the long values out
  await law.rebuildIndex();
  law.reload();
  t.ok(fs.existsSync(longFile(law.dir, 2)));
  t.same(QUERIES.map((q) => top(law, q)), before);
});

t.test('the store records its format; a store of a newer format is refused, not read without what it moved', async (t) => {
  const law = await imported(t);
  t.equal(law.sys.get('store-format'), LAW_STORE_FORMAT, 'written by the index build');
  t.equal(LAW_STORE_FORMAT, 2);
  await law.transaction(() => law.sys.put('store-format', LAW_STORE_FORMAT + 1));
  t.throws(() => law.reload(), /format 3 was written by a newer sejong; this code reads formats up to 2/);
  // a store from before the record (format 1) reads
  await law.transaction(() => law.sys.remove('store-format'));
  law.reload();
  t.equal(law.search.query('갯벌보전', {}, null)[0]?.doc.id, '2100000000001');
});
