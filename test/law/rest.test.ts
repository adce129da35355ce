// The legal REST API on the shared sample: auth, current text with ETag, amendments since, old/new diff, errors.
import t from 'tap';
import { startTestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared, shared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const srv = await startTestServer({ dataDir: await sampleDataDir() });
t.teardown(() => srv.close());
const json = async (p: string, init?: Parameters<typeof srv.req>[1]) => { const r = await srv.req(p, init); return { status: r.status, headers: r.headers, body: (r.status === 304 ? null : await r.json()) as any }; };

t.test('GET /api/v1/laws/:law_id', async (t) => {
  const r = await json('/api/v1/laws/001706');
  t.equal(r.status, 200);
  t.equal(r.body.meta.law_name, '민법');
  t.equal(r.body.entity_type, 'law');
  const a = r.body.articles.find((x: any) => x.no === '750');
  t.equal(a.title, '불법행위의 내용');
  t.equal(a.label, '제750조');
  t.ok(r.body.articles.length > 1000);
  const etag = r.headers.get('etag');
  t.ok(etag);
  const again = await srv.req('/api/v1/laws/001706', { headers: { 'if-none-match': etag! } });
  t.equal(again.status, 304);
  const rule = await json('/api/v1/laws/2100000274812');
  t.equal(rule.body.entity_type, 'admrul');
  t.equal(rule.body.meta.admrul_name, '전자금융감독규정');
  const none = await json('/api/v1/laws/999999');
  t.equal(none.status, 404);
  t.equal(none.body.error.code, 'NOT_FOUND');
  const nokey = await srv.req('/api/v1/laws/001706', { key: null });
  t.equal(nokey.status, 401);
  t.equal(((await nokey.json()) as any).error.code, 'INVALID_API_KEY');
});

t.test('GET /api/v1/amendments?since=', async (t) => {
  const r = await json('/api/v1/amendments?since=20260501&limit=5');
  t.equal(r.status, 200);
  t.ok(r.body.total > 5);
  const dates = r.body.results.map((x: any) => x.promulgation_date);
  t.same(dates, [...dates].sort());
  t.ok(dates.every((d: string) => d >= '20260501'));
  const seen = new Set(r.body.results.map((x: any) => x.law_id));
  let cursor = r.body.next_cursor, n = r.body.results.length;
  while (cursor) {
    const p = await json(`/api/v1/amendments?since=20260501&limit=5&cursor=${cursor}`);
    for (const x of p.body.results) { t.notOk(seen.has(x.law_id)); seen.add(x.law_id); }
    n += p.body.results.length;
    cursor = p.body.next_cursor;
  }
  t.equal(n, r.body.total);
  const future = await json('/api/v1/amendments?since=29990101');
  t.equal(future.body.total, 0);
  for (const bad of ['', '2026-05-01', '20261301', '20260230', 'abc']) {
    const e = await json(`/api/v1/amendments?since=${bad}`);
    t.equal(e.status, 400, bad);
    t.equal(e.body.error.code, 'INVALID_REQUEST');
    t.equal(e.body.error.field, 'since');
  }
  const lim = await json('/api/v1/amendments?since=20260501&limit=501');
  t.equal(lim.status, 400);
  t.equal(lim.body.error.field, 'limit');
  const cur = await json('/api/v1/amendments?since=20260501&cursor=zzz');
  t.equal(cur.body.error.field, 'cursor');
  const unk = await json('/api/v1/amendments?since=20260501&foo=1');
  t.equal(unk.status, 400);
});

t.test('GET /api/v1/laws/:law_id/diff', async (t) => {
  // 개인정보 보호법: every version's text is in the sample history
  const r = await json('/api/v1/laws/011357/diff?from=20230314&to=20260310');
  t.equal(r.status, 200);
  t.equal(r.body.from.promulgation_date, '20230314');
  t.equal(r.body.to.promulgation_date, '20260310');
  t.equal(r.body.to.current, true);
  t.ok(r.body.summary.changed > 0);
  for (const c of r.body.changes) {
    t.ok(['added', 'removed', 'changed'].includes(c.change));
    if (c.change === 'changed') t.not(c.old, c.new);
    if (c.change === 'added') t.notOk('old' in c);
  }
  const same = await json('/api/v1/laws/011357/diff?from=20260310&to=20260401');
  t.equal(same.body.same_version, true);
  t.same(same.body.changes, []);
  const early = await json('/api/v1/laws/011357/diff?from=19000101&to=20260310');
  t.equal(early.status, 400);
  t.equal(early.body.error.field, 'from');
  const order = await json('/api/v1/laws/011357/diff?from=20260310&to=20230314');
  t.equal(order.status, 400);
  const bad = await json('/api/v1/laws/011357/diff?from=20230314&to=20261399');
  t.equal(bad.body.error.field, 'to');
  const missing = await json('/api/v1/laws/011357/diff?from=20230314');
  t.equal(missing.body.error.field, 'to');
  const unknown = await json('/api/v1/laws/000000/diff?from=20230314&to=20260310');
  t.equal(unknown.status, 404);
  // 대한민국헌법: old versions from the law.go.kr XML, the current from Markdown
  const hon = await json('/api/v1/laws/001444/diff?from=19480717&to=19880225');
  t.equal(hon.status, 200);
  t.ok(hon.body.summary.added + hon.body.summary.changed + hon.body.summary.removed > 50);
});

t.test('empty store: tools and REST answer empty results', async (t) => {
  const empty = await startTestServer();
  t.teardown(() => empty.close());
  const h = (await (await fetch(empty.url + '/mcp/health')).json()) as any;
  t.equal(h.corpus.empty, true);
  t.equal(h.corpus.statutes, 0);
  const am = (await (await empty.req('/api/v1/amendments?since=20200101')).json()) as any;
  t.equal(am.total, 0);
  const law = empty.services.ext.law!;
  const { searchLaws, listLaws } = await import('../../src/law/tools.js');
  t.same(searchLaws({ law, now: Date.now() }, { query: '민법' }), { total: 0, results: [] });
  t.same(listLaws({ law, now: Date.now() }, {}), { total: 0, results: [] });
});

t.test('SEJONG_LAW_IMPORT is imported on the first start of an empty store', async (t) => {
  const fam = shared('law-corpus', 'sample', 'statutes', 'kr', '전공의의수련환경개선및지위향상을위한법률');
  const s = await startTestServer({ env: { SEJONG_LAW_IMPORT: `${fam},/nonexistent/path` } });
  t.teardown(() => s.close());
  const h = (await (await fetch(s.url + '/mcp/health')).json()) as any;
  t.equal(h.corpus.statutes, 3);
  t.equal(h.corpus.empty, false);
  const r = (await (await s.req('/api/v1/laws/012702')).json()) as any;
  t.equal(r.meta.law_name, '전공의의 수련환경 개선 및 지위 향상을 위한 법률 시행령');
});
