// The index build (src/law/search/build.ts): every term's posting list as a straightforward pass over the stored
// articles makes it (title three times, text, the document's name; article order; counts capped at 255), and the
// term table that numbers the terms through its growth.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { termIds } from '../../src/law/normalize.js';
import { TermTable } from '../../src/law/search/build.js';

const rule = (title: string, seq: string, arts: string[]) => `---\n제목: ${title}\n행정규칙구분: 고시\n소관부처: 해양수산부\n시행일자: "2020-01-01"\n발령번호: "2020-1"\nadmRulSeq: "${seq}"\n---\n# ${title}\n\n${arts.map((a, i) => `제${i + 1}조(${a.split(' ')[0]}) ${a}`).join('\n\n')}\n`;

t.test('postings per term: article order, counts, title three times, the name in every article', async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-build-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const docs: Array<[string, string, string[]]> = [
    ['갯벌 관리 고시', '2100000000001', ['목적 이 고시는 갯벌 보전에 관한 사항을 정한다.', '관리 갯벌 갯벌 갯벌 관리 계획을 세운다.', `반복 ${'가나'.repeat(300)}`]],
    ['어선 검사 규정', '2100000000002', ['목적 이 규정은 어선 검사에 관한 사항을 정한다.', '검사 어선의 검사는 매년 한다.']],
  ];
  for (const [name, seq, arts] of docs) {
    fs.mkdirSync(path.join(tmp, 'kr', name), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'kr', name, '고시.md'), rule(name, seq, arts));
  }
  const store = new Store(path.join(tmp, 'db'));
  t.teardown(() => store.close());
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([path.join(tmp, 'kr')]);
  const gen = law.info().index_gen;
  // the reference: one article after another, each term's count in it
  const want = new Map<number, Array<[number, number]>>();
  let docId = 0;
  for (const id of JSON.parse(law.idx.get([gen, 'meta'])!.toString()).ids as string[]) {
    const nameTerms = termIds(law.get(id)!.name);
    for (const a of law.articles(id)) {
      if (a.deleted) continue;
      const terms = [...termIds(a.title), ...termIds(a.title), ...termIds(a.title), ...termIds(a.content), ...nameTerms];
      if (!terms.length) continue;
      const tf = new Map<number, number>();
      for (const x of terms) tf.set(x, (tf.get(x) ?? 0) + 1);
      for (const [x, n] of tf) { const l = want.get(x) ?? []; l.push([docId, Math.min(255, n)]); want.set(x, l); }
      docId++;
    }
  }
  t.equal(law.search.N, docId, 'every article with terms is indexed');
  let checked = 0, capped = 0;
  for (const [x, list] of want) {
    const b = law.idx.getBinary([gen, x])!;
    const n = b.length / 5;
    const c = new Uint8Array(b); // aligned copy
    const got = Array.from(new Uint32Array(c.buffer, 0, n), (d, i) => [d, c[n * 4 + i]!]);
    t.same(got, list, `term ${x}`);
    if (list.some(([, n]) => n === 255)) capped++;
    checked++;
  }
  t.ok(checked >= 20, `${checked} terms checked`);
  t.equal(capped, 2, 'the repeated 가나 and 나가 bigrams are capped at 255 in their article');
  t.equal([...law.idx.getKeys({ start: [gen, 0], end: [gen, 2 ** 31] })].length, want.size, 'no other term is stored');
});

t.test('the term table numbers terms in order of first appearance through its growth', async (t) => {
  const tt = new TermTable();
  const ids = Array.from({ length: 300_000 }, (_, i) => (i * 7919 * 32768 + i) % 2 ** 30);
  const nums = ids.map((x) => tt.numberOf(x));
  t.same(nums.slice(0, 3), [0, 1, 2]);
  t.equal(new Set(nums).size, 300_000);
  t.ok(nums.every((x, i) => x === i), 'each new term the next number');
  t.ok(ids.every((x, i) => tt.numberOf(x) === i), 'found again after the table grew');
  t.equal(tt.ids.length, 300_000);
  t.equal(tt.count.length >= 300_000 && tt.last.length === tt.count.length && tt.tf.length === tt.count.length, true);
});
