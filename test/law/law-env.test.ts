// Where the statute store lives (law/open.ts lawEnv): its own LMDB environment in <data>/law with 1 KiB pages (fewer
// file pages of a read stay mapped: bench/RESULTS.md rss19), or — in a data directory imported before that — the main
// environment, as it was. Closing the main store closes the law environment with it, after its writes are flushed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { LAW_ENV_DIR, LAW_PAGE_SIZE, lawEnv, openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { LawStore } from '../../src/law/store.js';
import { SearchIndex } from '../../src/law/search.js';
import { moveLawEnv } from '../../src/law/move-env.js';

const rule = `---\n제목: 갯벌 관리 고시\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "2100000000001"\n---\n# 갯벌 관리 고시\n\n제1조(목적) 이 고시는 갯벌 보전에 관한 사항을 정한다.\n`;

function tmpDir(t: { teardown(fn: () => void): void }): string {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-env-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  fs.mkdirSync(path.join(tmp, 'kr', '갯벌 관리 고시'), { recursive: true });
  fs.writeFileSync(path.join(tmp, 'kr', '갯벌 관리 고시', '고시.md'), rule);
  return tmp;
}

t.test('a fresh data directory: the law is imported into <data>/law, 1 KiB pages, and read back after the store closes', async (t) => {
  const tmp = tmpDir(t);
  const dir = path.join(tmp, 'db');
  const store = new Store(dir);
  const law = openLaw(store);
  t.not(law.store, store, 'not the main environment');
  t.equal(law.store.path, path.join(dir, LAW_ENV_DIR));
  t.equal(lawEnv(store), law.store, 'one law environment per store');
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  t.equal((law.store.root.getStats() as { pageSize: number }).pageSize, LAW_PAGE_SIZE);
  t.equal(store.root.openDB({ name: 'law.docs', create: false } as { name: string }), undefined, 'the main environment holds no law database');
  await store.close(); // closes and flushes the law environment too

  const again = new Store(dir);
  t.teardown(() => again.close());
  const law2 = openLaw(again);
  law2.reload();
  t.same(law2.catalog.map((d) => d.name), ['갯벌 관리 고시']);
  t.equal(law2.search.query('갯벌 보전', {}, null)[0]?.doc.id, '2100000000001');
});

t.test('a data directory whose main environment holds the law (imported before <data>/law) keeps reading it there', async (t) => {
  const tmp = tmpDir(t);
  const dir = path.join(tmp, 'db');
  const store = new Store(dir);
  t.teardown(() => store.close());
  await store.transaction(() => store.db('law.sys').put('info', { imported_at: '2026-01-01T00:00:00Z', corpus_date: null, last_sync: null, index_gen: 0, sources: [] }));
  const law = openLaw(store);
  t.equal(law.store, store, 'the main environment');
  t.equal(law.info().imported_at, '2026-01-01T00:00:00Z');
  t.equal(fs.existsSync(path.join(dir, LAW_ENV_DIR)), false, 'no law environment is made');
});

t.test('move-env: a data dir of the older layout gets its law moved into <data>/law, byte for byte', async (t) => {
  const tmp = tmpDir(t);
  const dir = path.join(tmp, 'db');
  const store = new Store(dir);
  const old = new LawStore(store, (s) => new SearchIndex(s)); // the older layout: the law in the main environment
  old.reload();
  await new Importer(old).run([path.join(tmp, 'kr')]);
  const text = Buffer.from('제1조(목적) 이 고시는 갯벌 보전에 관한 사항을 정한다. '.repeat(200)); // long: LZ4-compressed by lmdb-js
  await store.transaction(() => store.db('law.gat', { encoding: 'binary', compression: true } as object).put(['x', 1], text));
  t.equal(openLaw(store).store, store, 'read in the main environment before the move');

  const r = await moveLawEnv(store);
  t.ok(r.databases.includes('law.docs') && r.databases.includes('law.idx') && r.databases.includes('law.gat'), r.databases.join(' '));
  t.equal(store.root.openDB({ name: 'law.docs', create: false } as { name: string }), undefined, 'dropped from the main environment');
  await store.close();

  const again = new Store(dir);
  t.teardown(() => again.close());
  const law = openLaw(again);
  t.equal(law.store.path, path.join(dir, LAW_ENV_DIR));
  t.equal((law.store.root.getStats() as { pageSize: number }).pageSize, LAW_PAGE_SIZE);
  law.reload();
  t.same(law.catalog.map((d) => d.name), ['갯벌 관리 고시']);
  t.equal(law.search.query('갯벌 보전', {}, null)[0]?.doc.id, '2100000000001');
  t.same(law.store.db('law.gat', { encoding: 'binary', compression: true } as object).get(['x', 1]), text, 'a compressed value reads back the same');
  await t.rejects(moveLawEnv(again), /exists already/, 'a second move is refused');
});
