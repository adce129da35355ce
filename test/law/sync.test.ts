// `sejong law sync` against the fake law.go.kr (test/fakes/lawgo.ts): list quirks, updates, additions, error pages;
// then the running server shows the new text, the diff, the amendment and the changelog entry.
import fs from 'node:fs';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { syncLaw } from '../../src/law/sync.js';
import { run } from '../../src/law/cli.js';
import { getChangelog, getHistory } from '../../src/law/tools.js';
import { startFakeLawGo, type FakeLawItem } from '../fakes/lawgo.js';
import { startTestServer } from '../helpers/server.js';
import { SAMPLE, sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const FAMILY = `${SAMPLE}/statutes/kr/전공의의수련환경개선및지위향상을위한법률`;
const dir = await sampleDataDir([FAMILY]);
const fake = await startFakeLawGo({ oc: 'test-oc', referer: 'https://sejong.example' });
t.teardown(() => fake.close());

const base = fs.readFileSync(`${SAMPLE}/lawgo-api/detail/285051.xml`, 'utf8');
const amended = base
  .replace('<공포일자>20260330</공포일자>', '<공포일자>20261120</공포일자>')
  .replace('<공포번호>36225</공포번호>', '<공포번호>36999</공포번호>')
  .replace('<시행일자>20260330</시행일자>', '<시행일자>20261120</시행일자>')
  .replace('이 영은 「전공의의', '이 영은 개정된 「전공의의');
fake.xml.set('285051', base);
fake.xml.set('999001', amended);
fake.xml.set('285213', fs.readFileSync(`${SAMPLE}/lawgo-api/detail/285213.xml`, 'utf8'));
const item = (mst: string, id: string, name: string, date: string, kind = '대통령령'): FakeLawItem => ({ 법령일련번호: mst, 법령ID: id, 법령명한글: name, 공포일자: date, 공포번호: '1', 제개정구분명: '일부개정', 법령구분명: kind, 소관부처명: '보건복지부', 시행일자: date });
fake.items = [
  item('285051', '012702', '전공의의 수련환경 개선 및 지위 향상을 위한 법률 시행령', '20260330'),
  item('285213', '010674', '금융위원회와 그 소속기관 직제', '20260331'),
  item('777', '099999', '없는 법 시행령', '20261119'),
  item('999001', '012702', '전공의의 수련환경 개선 및 지위 향상을 위한 법률 시행령', '20261120'),
];

const env = { SEJONG_DATA_DIR: dir, SEJONG_LAW_OC: 'test-oc', SEJONG_LAW_API_URL: fake.url, SEJONG_LAW_REFERER: 'https://sejong.example' };
const NOW = Date.UTC(2026, 10, 21, 3, 0, 0); // 2026-11-21 12:00 KST

t.test('sync: unchanged, added, updated, and a missing MST reported', async (t) => {
  const store = new Store(dir);
  const law = openLaw(store);
  law.reload();
  t.equal(law.get('012702')?.mst, '285051');
  const r = await syncLaw(loadConfig(env), law, { now: NOW, since: '20260101' });
  t.equal(r.listed, 4);
  t.equal(r.unchanged, 1);
  t.equal(r.added, 1);
  t.equal(r.updated, 1);
  t.equal(r.errors.length, 1);
  t.match(r.errors[0], /MST=777.*일치하는 법령이 없습니다/);
  t.equal(law.get('012702')?.mst, '999001');
  t.equal(law.get('010674')?.name, '금융위원회와 그 소속기관 직제');
  // the index was rebuilt: the new statute is searchable at once
  t.equal(law.search.query('금융위원회와 그 소속기관 직제', {}, null)[0]?.doc.id, '010674');
  const hist = getHistory({ law, now: NOW }, { law_id: '012702' });
  t.same(hist.revisions.slice(0, 2).map((x: any) => x.mst), ['999001', '285051']);
  const ch = getChangelog({ law, now: NOW }, { date: '20261120' });
  t.equal(ch.total, 1);
  t.equal((ch.changes as any[])[0].law_id, '012702');
  // every request carried the OC key and the Referer
  t.ok(fake.requests.every((q) => q.query.OC === 'test-oc' && q.referer === 'https://sejong.example'));
  t.ok(fake.requests.some((q) => q.path === '/DRF/lawSearch.do' && q.query.ancYd === '20260101~20261121'));
  // one hit comes as an object (quirk): a second sync since 20261120 sees it as unchanged
  const again = await syncLaw(loadConfig(env), law, { now: NOW, since: '20261120' });
  t.equal(again.listed, 1);
  t.equal(again.unchanged, 1);
  await store.close();
});

t.test('sync: error pages become clear errors', async (t) => {
  const store = new Store(dir);
  const law = openLaw(store);
  law.reload();
  await t.rejects(syncLaw(loadConfig({ ...env, SEJONG_LAW_OC: 'wrong' }), law, { now: NOW }), /사용자 정보 검증에 실패/);
  await t.rejects(syncLaw(loadConfig({ ...env, SEJONG_LAW_REFERER: '' }), law, { now: NOW }), /Referer/);
  await t.rejects(syncLaw(loadConfig({ ...env, SEJONG_LAW_OC: '' }), law, { now: NOW }), /SEJONG_LAW_OC/);
  fake.mode = 'down';
  await t.rejects(syncLaw(loadConfig(env), law, { now: NOW }), /HTTP 500.*점검/);
  fake.mode = 'ok';
  await t.rejects(syncLaw(loadConfig({ ...env, SEJONG_LAW_API_URL: 'http://127.0.0.1:9' }), law, { now: NOW }), /unreachable/);
  await store.close();
});

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const w = process.stdout.write, ew = process.stderr.write;
  (process.stdout as any).write = (s: string) => { out.push(String(s)); return true; };
  (process.stderr as any).write = (s: string) => { out.push(String(s)); return true; };
  try {
    return { code: await fn(), out: out.join('') };
  } finally {
    process.stdout.write = w;
    process.stderr.write = ew;
  }
}

t.test('CLI: help, usage errors, sync exit codes', async (t) => {
  const saved = { ...process.env };
  t.teardown(() => { for (const k of Object.keys(env)) { if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k]; } });
  const help = await capture(() => run(['--help']));
  t.equal(help.code, 0);
  t.match(help.out, /sejong law import <path>/);
  t.equal((await capture(() => run(['import']))).code, 2);
  t.equal((await capture(() => run(['import', '/nonexistent/path']))).code, 2);
  t.equal((await capture(() => run(['frobnicate']))).code, 2);
  Object.assign(process.env, env, { SEJONG_LAW_OC: 'wrong' });
  const bad = await capture(() => run(['sync', '--since', '20260101']));
  t.equal(bad.code, 1);
  t.match(bad.out, /사용자 정보 검증에 실패/);
  t.equal((await capture(() => run(['sync', '--since', '2026-01-01']))).code, 2);
  const stats = await capture(() => run(['stats']));
  t.equal(stats.code, 0);
  t.equal(JSON.parse(stats.out).statutes, 4);
});

t.test('server after sync: REST shows the new version, the diff and the amendment', async (t) => {
  const srv = await startTestServer({ dataDir: dir });
  t.teardown(() => srv.close());
  const cur = (await (await srv.req('/api/v1/laws/012702')).json()) as any;
  t.equal(cur.meta.mst, '999001');
  t.equal(cur.meta.promulgation_date, '20261120');
  t.match(cur.articles.find((a: any) => a.no === '1').content, /개정된/);
  const diff = (await (await srv.req('/api/v1/laws/012702/diff?from=20260401&to=20261121')).json()) as any;
  t.equal(diff.from.mst, '285051');
  t.equal(diff.to.mst, '999001');
  t.equal(diff.summary.changed, 1, JSON.stringify(diff.changes.map((c: any) => [c.no, c.old, c.new])).slice(0, 3000));
  t.equal(diff.changes[0].no, '1');
  t.notMatch(diff.changes[0].old, /개정된/);
  t.match(diff.changes[0].new, /개정된/);
  const am = (await (await srv.req('/api/v1/amendments?since=20261101')).json()) as any;
  t.same(am.results.map((x: any) => x.law_id), ['012702']);
  const added = (await (await srv.req('/api/v1/laws/010674')).json()) as any;
  t.ok(added.tables.length > 0);
});
