// The search index is composed by openLaw and writes only its own database: the store records the generation it
// built (LawStore.rebuildIndex), and a generation built but never recorded is not reused. Generates its own rules.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';

const rule = (title: string, seq: string, body: string) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "${seq}"\n---\n# ${title}\n\n제1조(목적) 이 고시는 ${body}에 관한 사항을 정한다.\n`;

const gens = (law: ReturnType<typeof openLaw>) => [...new Set([...law.idx.getKeys({})].map((k) => (k as [number, unknown])[0]))];

t.test('the index builds a generation, the store records it, older ones go after', async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-gen-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  for (const [name, seq, body] of [['갯벌 관리 고시', '2100000000001', '갯벌 보전'], ['어선 검사 규정', '2100000000002', '어선 검사']]) {
    fs.mkdirSync(path.join(tmp, 'kr', name!), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'kr', name!, '고시.md'), rule(name!, seq!, body!));
  }
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  t.equal(law.info().index_gen, 1, 'the import recorded the first generation');
  t.same(gens(law), [1]);
  t.equal(law.search.query('어선 검사', {}, null)[0]?.doc.id, '2100000000002');

  // build alone: a new generation is stored and opened, the store's info record is untouched
  const before = law.sys.get('info');
  const built = await law.search.build();
  t.equal(built.gen, 2);
  t.equal(law.search.gen, 2);
  t.same(law.sys.get('info'), before, 'the index does not write the info record');
  t.same(gens(law), [1, 2], 'nothing dropped before the store records the generation');

  // generation 2 was never recorded (as after a crash): the next rebuild goes past it and drops both older ones
  const stats = await law.rebuildIndex();
  t.equal(stats.docs, 2);
  t.equal(law.info().index_gen, 3);
  t.same(gens(law), [3]);
  law.reload();
  t.equal(law.search.gen, 3);
  t.equal(law.search.query('갯벌', {}, null)[0]?.doc.id, '2100000000001');
});
