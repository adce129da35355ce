// Short names a corpus declares (「full name」(이하 "X법"이라 한다)) are derived from the imported documents at the
// index build and stored with the generation (search/declared-table.ts, derived-names.ts, LawStore 'derived-names'):
// a small corpus gets its own, and a store built before the record existed derives them at open. The corpus: the
// sample's 전공의법 statute and a rule written here that declares a short name for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { Importer } from '../../src/law/import.js';
import { run } from '../../src/law/cli.js';
import { SAMPLE, reopenedLaw } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const FULL = '전공의의 수련환경 개선 및 지위 향상을 위한 법률';
const rule = `---\n제목: 전공의 수련시간 관리 고시\n행정규칙구분: 고시\n소관부처: 보건복지부\n시행일자: "2026-01-01"\n발령번호: "2026-1"\nadmRulSeq: "2100000000011"\n---\n# 전공의 수련시간 관리 고시\n\n`
  + `제1조(목적) 이 고시는 「${FULL}」(이하 "수련환경법"이라 한다) 제7조에 따른 수련시간의 관리에 필요한 사항을 정한다.\n\n`
  + '제2조(기록) 수련병원등의 장은 전공의의 수련시간을 매주 기록한다.\n';

async function imported(t: { teardown(fn: () => void): void }): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-law-declared-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const kr = path.join(tmp, 'kr');
  fs.mkdirSync(path.join(kr, '전공의수련시간관리고시'), { recursive: true });
  fs.writeFileSync(path.join(kr, '전공의수련시간관리고시', '고시.md'), rule);
  fs.cpSync(path.join(SAMPLE, 'statutes/kr/전공의의수련환경개선및지위향상을위한법률/법률.md'), path.join(kr, '전공의법', '법률.md'), { recursive: true });
  const store = new Store(path.join(tmp, 'db'));
  const law = openLaw(store);
  law.reload();
  await new Importer(law).run([kr]);
  await store.close();
  return path.join(tmp, 'db');
}

t.test('a short name the imported rule declares is stored with the generation and names the statute', async (t) => {
  const law = reopenedLaw(t, await imported(t));
  t.same(law.derivedNames()?.declared, [['수련환경법', FULL, 1]], 'stored: derived from this corpus\'s own text');
  t.ok(law.derivedNames()!.spelled.stems.some(([stem]) => stem === '전공의수련시간관리'), 'the spelled stems too');
  t.equal(law.search.fullNameOf('수련환경법'), FULL);
  const hits = law.search.query('수련환경법', {}, null);
  t.equal(hits[0]?.doc.name, FULL);
  t.equal(hits[0]?.match, 'abbreviation');
  // a short name nobody declared stays unknown (수련환경법 is no spelled short name either: no 법률 starts with 수련)
  t.equal(law.search.fullNameOf('수련지위법'), undefined);
});

t.test('a store built before the table was stored (no record): derived from the articles at open, same answers', async (t) => {
  const dir = await imported(t);
  {
    const law = reopenedLaw(t, dir);
    await law.transaction(() => law.sys.remove('derived-names'));
  }
  const law = reopenedLaw(t, dir);
  t.equal(law.derivedNames(), undefined);
  t.equal(law.search.fullNameOf('수련환경법'), FULL);
  t.equal(law.search.query('수련환경법', {}, null)[0]?.doc.name, FULL);
});

t.test('`sejong law reindex` stores the tables of such a store (a new generation)', async (t) => {
  const dir = await imported(t);
  {
    const law = reopenedLaw(t, dir);
    await law.transaction(() => law.sys.remove('derived-names'));
  }
  const env = process.env.SEJONG_DATA_DIR;
  process.env.SEJONG_DATA_DIR = dir;
  t.teardown(() => { if (env === undefined) delete process.env.SEJONG_DATA_DIR; else process.env.SEJONG_DATA_DIR = env; });
  t.equal(await run(['reindex']), 0);
  const law = reopenedLaw(t, dir);
  t.equal(law.indexGen(), 2);
  t.same(law.derivedNames()?.declared, [['수련환경법', FULL, 1]]);
  t.equal(law.search.fullNameOf('수련환경법'), FULL);
});
