// Every version from a legalize-kr git history: import (and incremental re-import) of a repository built at test time
// from the sample's history files, versions as in force on a date (by 시행일자), history, changelog, diff, enforcements.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { Store } from '../../src/store/env.js';
import { openLaw } from '../../src/law/open.js';
import { GitImporter } from '../../src/law/history/git-import.js';
import { historyOf } from '../../src/law/history/db.js';
import { diffArticles, enforcementsBetween, versionInForce } from '../../src/law/history/versions.js';
import { compareVersions, compareVersionsSchema, getArticle, getChangelog, getHistory, getLaw } from '../../src/law/tools.js';
import { startTestServer } from '../helpers/server.js';
import { TestRepo, sampleVersions } from './git-fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample', 'history');

const PIPA = 'kr/개인정보보호법/법률.md';
const MINBEOP = 'kr/민법/법률.md';
const pipa = sampleVersions([PIPA]);
const minbeop = sampleVersions([MINBEOP]);
const repo = new TestRepo();
t.teardown(() => repo.remove());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-hist-'));
const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
const NOW = Date.UTC(2026, 5, 10, 3, 0, 0);
const ctx = { law, now: NOW };

t.test('import of the first versions, a commit outside kr/ skipped', async (t) => {
  t.equal(pipa.length, 13);
  for (const e of pipa.slice(0, 8)) repo.commitVersion(e);
  const head = repo.commitOther('README.md', 'not a statute');
  const st = await new GitImporter(law).run(repo.dir);
  t.equal(st.commits, 8);
  t.equal(st.versions, 8);
  t.equal(st.docs_updated, 1);
  t.same(st.errors, []);
  t.equal(historyOf(law).state().last_commit, head);
  const d = law.get('011357')!;
  t.equal(d.mst, pipa[7]!.법령MST);
  t.equal(d.revision_type, '일부개정');
  const h = getHistory(ctx, { law_id: '011357' });
  t.equal(h.total, 8);
  t.same(h.revisions.map((r) => r.mst), pipa.slice(0, 8).map((e) => e.법령MST).reverse());
  const first = h.revisions[h.revisions.length - 1]!;
  t.same([first.promulgation_date, first.enforcement_date, first.revision_type, first.promulgation_no, first.text_available], ['20110329', '20110930', '제정', pipa[0]!.공포번호, true]);
  const ch = getChangelog(ctx, { date: '20130806' });
  t.equal(ch.total, 1);
  t.same((ch.changes as any[])[0], { entity_type: 'law', law_id: '011357', law_name: '개인정보 보호법', law_type: '법률', revision_type: '일부개정', ministry: '개인정보보호위원회', promulgation_no: pipa.find((e) => e.공포일자 === '2013-08-06')!.공포번호, mst: '142563', in_corpus: true });
});

t.test('re-import reads only the new commits', async (t) => {
  const again = await new GitImporter(law).run(repo.dir);
  t.equal(again.commits, 0);
  for (const e of [...pipa.slice(8), ...minbeop]) repo.commitVersion(e);
  const st = await new GitImporter(law).run(repo.dir);
  t.equal(st.commits, 7);
  t.equal(st.versions, 7);
  t.equal(st.docs_updated, 2);
  t.equal(law.get('011357')!.mst, '283839');
  t.equal(getHistory(ctx, { law_id: '011357' }).total, 13);
  t.equal(historyOf(law).versions('011357').length, 13);
  // each distinct article text is stored once: far fewer texts than article versions
  const refs = historyOf(law).versions('011357').reduce((s, v) => s + v.article_count, 0);
  let texts = 0;
  for (const _ of historyOf(law).texts.getKeys({})) texts++;
  t.ok(refs > 3 * (texts - 2000), `article refs ${refs}, stored texts ${texts}`);
});

t.test('as in force on a date: chosen by enforcement date, pending versions reported', async (t) => {
  const d = law.get('011357')!;
  // 2013-09-01: 142563 was promulgated 2013-08-06 but takes effect 2014-08-07
  const f = versionInForce(law, d, '20130901');
  t.equal(f.version!.mst, '136728');
  t.same(f.pending.map((v) => v.mst), ['142563']);
  t.equal(versionInForce(law, d, '20130901', 'promulgation').version!.mst, '142563');
  const a = getArticle(ctx, { law_id: '011357', article_no: '2', date: '20130901' }) as any;
  t.equal(a.as_of.version.mst, '136728');
  t.equal(a.as_of.version.enforcement_date, '20130323');
  t.equal(a.as_of.later_version_pending, true);
  t.equal(a.as_of.pending[0].enforcement_date, '20140807');
  t.equal(a.article.no, '2');
  t.ok(a.article.paragraphs.length > 0);
  // today (2026-06-10): the 2026-03-10 version is promulgated, in force only from 2026-09-11
  const now = getLaw(ctx, { law_id: '011357', include: 'meta', date: '20260610' }) as any;
  t.equal(now.meta.mst, '270351');
  t.equal(now.meta.enforcement_date, '20251002');
  t.same(now.as_of.pending.map((p: any) => p.mst), ['283839']);
  const later = getLaw(ctx, { law_id: '011357', include: 'articles', date: '20260911' }) as any;
  t.equal(later.as_of.version.mst, '283839');
  t.equal(later.as_of.later_version_pending, false);
  t.equal(later.articles.length, law.tocOf('011357').length);
});

t.test('date errors: before the first version, bad dates', async (t) => {
  t.throws(() => getArticle(ctx, { law_id: '011357', article_no: '1', date: '20100101' }), { field: 'date', code: 'NOT_FOUND' } as any);
  t.throws(() => getLaw(ctx, { law_id: '011357', date: '20131340' }), { field: 'date' } as any);
});

t.test('diff of two versions, upcoming enforcements', async (t) => {
  const d = law.get('011357')!;
  // on 2014-09-01 142563 (promulgated 2013-08-06, in force 2014-08-07) is in force, but 152302 (2014-03-24) is the
  // newest promulgated text in force and already contains it
  const a = versionInForce(law, d, '20140301').version!, b = versionInForce(law, d, '20140901').version!;
  t.equal(a.mst, '136728');
  t.equal(b.mst, '152302');
  const r = diffArticles(a.load(), b.load());
  t.ok(r.summary.changed + r.summary.added > 0);
  const c24 = r.changes.find((c) => c.no === '24-2');
  t.equal(c24?.change, 'added');
  t.match(String(c24?.new), /주민등록번호/);
  for (const c of r.changes) if (c.change === 'changed') t.ok(c.old !== c.new || c.old_title !== c.new_title);
  const cv = compareVersions(ctx, { law_id: '011357', from: '20130901', to: '20140901', basis: 'enforcement' }) as any;
  t.same([cv.from.mst, cv.to.mst, cv.basis], ['136728', '152302', 'enforcement']);
  const cp = compareVersions(ctx, { law_id: '011357', from: '20130901', to: '20140901' }) as any;
  t.same([cp.from.mst, cp.to.mst], ['142563', '152302']);
  const bad = compareVersionsSchema.safeParse({ law_id: '011357', from: '20130901', basis: 'x' });
  t.equal(bad.success, false);
  t.match(bad.error?.issues[0]?.message, /basis must be promulgation \(default\) or enforcement/);
  const e = enforcementsBetween(law, '20260610', '20261231', 50);
  t.same(e.results.map((x) => [x.law_id, x.mst, x.enforcement_date]), [['011357', '283839', '20260911']]);
  t.same(enforcementsBetween(law, '20140301', '20140901', 50).results.map((x) => [x.mst, x.enforcement_date]), [['152302', '20140324'], ['142563', '20140807']]);
});

t.test('--limit: a run stops after N commits and the next one continues', async (t) => {
  const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-hist2-'));
  const s2 = new Store(dir2);
  t.teardown(async () => { await s2.close(); fs.rmSync(dir2, { recursive: true, force: true }); });
  const l2 = openLaw(s2);
  l2.reload();
  const first = await new GitImporter(l2, () => {}, { limit: 4, buildIndex: false }).run(repo.dir);
  t.equal(first.commits, 4);
  t.equal(historyOf(l2).versions('011357').length, 4);
  const rest = await new GitImporter(l2, () => {}, { buildIndex: false }).run(repo.dir);
  t.equal(rest.commits, 15 - 4); // 13 + 2 민법 versions; the README commit is not under kr/
  t.equal(historyOf(l2).versions('011357').length, 13);
  t.equal(historyOf(l2).state().last_commit, repo.git('rev-parse', 'HEAD'));
});

t.test('CLI: bad --git arguments', async (t) => {
  const { run } = await import('../../src/law/cli.js');
  const err: string[] = [];
  const w = process.stderr.write.bind(process.stderr);
  (process.stderr as any).write = (s: string) => { err.push(String(s)); return true; };
  try {
    t.equal(await run(['import', '--git', path.join(dataDir, 'no-such-repo')]), 2);
    t.equal(await run(['import', '--git', repo.dir, '--limit', 'x']), 2);
  } finally {
    (process.stderr as any).write = w;
  }
  t.match(err[0], /give the path of a legalize-kr git clone \(received .*no-such-repo\)/);
  t.match(err[1], /--limit takes a positive number of commits/);
});

t.test('REST: law as of a date, diff by enforcement, enforcements', async (t) => {
  await store.close();
  closed = true;
  const srv = await startTestServer({ dataDir });
  t.teardown(() => srv.close());
  const get = async (u: string) => { const r = await srv.req(u); return { status: r.status, body: (await r.json()) as any }; };
  const one = await get('/api/v1/laws/011357?date=20130901');
  t.equal(one.status, 200);
  t.equal(one.body.meta.mst, '136728');
  t.equal(one.body.as_of.later_version_pending, true);
  t.ok(one.body.articles.length > 50);
  const early = await get('/api/v1/laws/011357?date=20000101');
  t.equal(early.status, 404);
  t.equal(early.body.error.field, 'date');
  const bad = await get('/api/v1/laws/011357?date=2013');
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, 'date');
  const df = await get('/api/v1/laws/011357/diff?from=20130901&to=20140901&basis=enforcement');
  t.equal(df.status, 200);
  t.equal(df.body.from.mst, '136728');
  t.equal(df.body.to.mst, '152302');
  t.equal(df.body.changes.find((c: any) => c.no === '24-2')?.change, 'added');
  const am = await get('/api/v1/amendments?since=20200101');
  t.equal(am.status, 200);
  const pa = am.body.results.find((r: any) => r.law_id === '011357');
  t.same(pa.versions.map((v: any) => v.mst), ['283839', '270351', '248613', '213857']);
  t.equal(pa.revisions_since, 4);
  const en = await get('/api/v1/enforcements?after=20260610&before=20261231');
  t.equal(en.status, 200);
  t.equal(en.body.results[0].mst, '283839');
  const en2 = await get('/api/v1/enforcements?after=20260610&before=20260101');
  t.equal(en2.status, 400);
  t.equal(en2.body.error.field, 'before');
});

let closed = false;
t.teardown(async () => { if (!closed) await store.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });
