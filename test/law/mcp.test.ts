// The eight tools through the SDK's own SSE client against a running server with the shared sample imported.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../helpers/server.js';
import { sseEvents, type SseEvent } from '../helpers/sse.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000' } });
t.teardown(() => srv.close());

const client = new Client({ name: 'sejong-test', version: '1.0.0' });
await client.connect(new SSEClientTransport(new URL(srv.url + '/mcp/sse')));
t.teardown(() => client.close());

type R = { isError?: boolean; content: Array<{ type: string; text: string }> };
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const r = (await client.callTool({ name, arguments: args })) as R;
  if (r.isError) throw new Error(r.content[0]!.text);
  return JSON.parse(r.content[0]!.text);
}
async function callErr(name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as R;
  if (!r.isError) throw new Error(`expected a tool error from ${name} ${JSON.stringify(args)}`);
  return r.content[0]!.text;
}

t.test('tools/list: the eight tools plus verify_citation and compare_versions, with schemas and metadata', async (t) => {
  const { tools } = await client.listTools();
  t.same(tools.map((x) => x.name).sort(), ['compare_versions', 'get_article', 'get_changelog', 'get_history', 'get_law', 'get_relations', 'get_table', 'list_laws', 'search_laws', 'verify_citation']);
  for (const x of tools) {
    t.type(x.title, 'string', `${x.name} has a title`);
    t.same({ r: x.annotations?.readOnlyHint, i: x.annotations?.idempotentHint, o: x.annotations?.openWorldHint }, { r: true, i: true, o: false }, `${x.name} annotations`);
    t.equal((x.outputSchema as any)?.type, 'object', `${x.name} has an outputSchema`);
  }
  const search = tools.find((x) => x.name === 'search_laws')!;
  t.same((search.inputSchema as any).required, ['query']);
  t.equal((search.inputSchema as any).properties.limit.maximum, 100);
  t.equal(client.getServerVersion()?.name, 'sejong-law');
});

t.test('search_laws: 민법 제750조 names the statute and the article', async (t) => {
  const r = await call('search_laws', { query: '민법 제750조' });
  t.equal(r.results[0].law_name, '민법');
  t.equal(r.results[0].law_id, '001706');
  t.equal(r.results[0].entity_type, 'law');
  t.equal(r.results[0].articles[0].no, '750');
  t.equal(r.results[0].articles[0].title, '불법행위의 내용');
  const a = await call('get_article', { law_id: r.results[0].law_id, article_no: '750' });
  t.match(a.article.content, /고의 또는 과실로 인한 위법행위로 타인에게 손해를 가한 자는/);
  t.equal(a.article.label, '제750조');
});

t.test('search_laws: abbreviation 개인정보법 → 개인정보 보호법; text search; filters; cursor', async (t) => {
  const r = await call('search_laws', { query: '개인정보법' });
  t.equal(r.results[0].law_name, '개인정보 보호법');
  t.equal(r.results[0].match, 'abbreviation');
  const r2 = await call('search_laws', { query: '불법행위 손해배상' });
  t.equal(r2.results[0].law_name, '민법');
  // the 불법행위 chapter of 민법 is 제750조 … 제766조
  t.ok(r2.results[0].articles.some((a: any) => Number(a.no.split('-')[0]) >= 750 && Number(a.no.split('-')[0]) <= 766));
  const dec = await call('search_laws', { query: '개인정보 보호법', type: 'decree' });
  t.ok(dec.results.every((x: any) => x.category === 'decree'));
  t.equal(dec.results[0].law_name, '개인정보 보호법 시행령');
  const adm = await call('search_laws', { query: '전자금융', type: 'admrul' });
  t.equal(adm.results[0].entity_type, 'admrul');
  t.equal(adm.results[0].admrul_name, '전자금융감독규정');
  t.equal(adm.results[0].admrul_id, '2100000274812');
  const min = await call('search_laws', { query: '보건', ministry: '보건복지부', limit: 5 });
  t.ok(min.results.length > 0 && min.results.every((x: any) => x.ministry.includes('보건복지부')));
  // paging: pages do not overlap and the cursor is opaque
  const p1 = await call('search_laws', { query: '법률', limit: 3 });
  t.ok(p1.total > 3);
  t.type(p1.next_cursor, 'string');
  const p2 = await call('search_laws', { query: '법률', limit: 3, cursor: p1.next_cursor });
  t.equal(p2.results.length, 3);
  t.notOk(p2.results.some((x: any) => p1.results.some((y: any) => (y.law_id ?? y.admrul_id) === (x.law_id ?? x.admrul_id))));
  // middle dots: · and ㆍ match the same
  const dot = await call('search_laws', { query: '해외농업·산림자원 개발협력법' });
  t.match(dot.results[0].law_name ?? dot.results[0].admrul_name, /해외농업ㆍ산림자원 개발협력법/);
  // a branch article named in the query, and a statute name followed by words
  const br = await call('search_laws', { query: '개인정보 보호법 제7조의2', limit: 1 });
  t.equal(br.results[0].law_id, '011357');
  t.same(br.results[0].articles, [{ no: '7-2', title: (await call('get_article', { law_id: '011357', article_no: '7-2' })).article.title }]);
  const ed = await call('search_laws', { query: '개인정보 보호법', type: 'enforcement decree', limit: 1 });
  t.equal(ed.results[0].law_id, '011468');
  const rest = await call('search_laws', { query: '민법 불법행위', limit: 1 });
  t.equal(rest.results[0].law_name, '민법');
  const none = await call('search_laws', { query: 'zzqqxx없는말' });
  t.equal(none.total, 0);
  t.same(none.results, []);
});

t.test('search_laws / list_laws: limits and bad values are tool errors', async (t) => {
  t.match(await callErr('search_laws', { query: '민법', limit: 101 }), /limit/);
  t.match(await callErr('search_laws', { query: '민법', limit: 0 }), /limit/);
  t.match(await callErr('search_laws', { query: '' }), /query/);
  t.match(await callErr('search_laws', {}), /query/);
  t.match(await callErr('search_laws', { query: '민법', type: 'ordinance' }), /type/);
  t.match(await callErr('search_laws', { query: '민법', cursor: 'garbage' }), /cursor/);
  t.match(await callErr('search_laws', { query: '민법', bogus: 1 }), /bogus|Unrecognized|unrecognized/);
  const p = await call('search_laws', { query: '법', limit: 100 });
  t.ok(p.results.length <= 100);
  t.match(await callErr('list_laws', { limit: 501 }), /limit/);
  t.match(await callErr('list_laws', { sort: 'size' }), /sort/);
  const d = await call('list_laws', {});
  t.equal(d.results.length, 50);
  // 500 entries do not fit in one answer under 50 KB: the page is cut, says so, and the cursor continues after it
  const big = await call('list_laws', { limit: 500 });
  t.ok(big.results.length > 20 && big.results.length < 500);
  t.match(big.note, /50 KB/);
  const big2 = await call('list_laws', { limit: 500, cursor: big.next_cursor });
  const idOf = (x: any) => x.law_id ?? x.admrul_id;
  const nameOf = (x: any) => x.law_name ?? x.admrul_name;
  t.notOk(big2.results.some((x: any) => big.results.some((y: any) => idOf(y) === idOf(x))));
  t.ok(nameOf(big.results.at(-1)).localeCompare(nameOf(big2.results[0]), 'ko') <= 0);
});

t.test('list_laws: filters, sort, keyset cursor', async (t) => {
  const laws = await call('list_laws', { type: 'law', limit: 10 });
  t.ok(laws.results.every((x: any) => x.category === 'law'));
  const names = laws.results.map((x: any) => x.law_name);
  t.same(names, [...names].sort((a: string, b: string) => a.localeCompare(b, 'ko')));
  const next = await call('list_laws', { type: 'law', limit: 10, cursor: laws.next_cursor });
  t.notOk(next.results.some((x: any) => names.includes(x.law_name) && laws.results.find((y: any) => y.law_name === x.law_name).law_id === x.law_id));
  const byDate = await call('list_laws', { sort: 'date', type: 'law', limit: 5 });
  const dates = byDate.results.map((x: any) => x.enforcement_date);
  t.ok(dates.length === 5);
  const adm = await call('list_laws', { subtype: '고시', limit: 5 });
  t.ok(adm.results.every((x: any) => x.entity_type === 'admrul' && x.admrul_type === '고시'));
  t.equal(adm.total, 251);
  const m = await call('list_laws', { ministry: '개인정보보호위원회', type: 'law' });
  t.ok(m.results.some((x: any) => x.law_name === '개인정보 보호법'));
});

t.test('get_law: meta, article list, tables; include', async (t) => {
  const r = await call('get_law', { law_id: '011357' });
  t.equal(r.entity_type, 'law');
  t.equal(r.meta.law_name, '개인정보 보호법');
  t.equal(r.meta.enforcement_date, '20260911');
  t.equal(r.meta.status, 'in_force');
  const later = await call('get_law', { law_id: '001872', include: 'meta' });
  t.equal(later.meta.enforcement_date, '20270101');
  t.equal(later.meta.status, 'not_yet_in_force');
  t.equal(r.meta.ministry, '개인정보보호위원회');
  t.ok(r.articles_total > 100);
  t.ok(r.articles.some((a: any) => a.no === '7-2'));
  const meta = await call('get_law', { law_id: '011357', include: 'meta' });
  t.notOk('articles' in meta);
  t.match(await callErr('get_law', { law_id: '999999' }), /No statute or rule/);
  t.match(await callErr('get_law', { law_id: '011357', include: 'everything' }), /include/);
  const adm = await call('get_law', { law_id: '2100000274812' });
  t.equal(adm.entity_type, 'admrul');
  t.ok(adm.tables.some((x: any) => x.table_no === '2-2' && x.kind === '별표' && x.structured));
});

t.test('get_article: branch article 15-2, range, all, errors', async (t) => {
  const a = await call('get_article', { law_id: '011357', article_no: '7-2' });
  t.equal(a.article.no, '7-2');
  t.equal(a.article.label, '제7조의2');
  t.ok(a.article.title.length > 0);
  const b = await call('get_article', { law_id: '011357', article_no: '제7조의2' });
  t.equal(b.article.content, a.article.content);
  // 항/호/목 structure
  const def = await call('get_article', { law_id: '011357', article_no: '2' });
  t.equal(def.article.paragraphs[0].items[0].no, '1');
  t.equal(def.article.paragraphs[0].items[0].sub[0].no, '가');
  t.match(def.article.content, /\n  1\. "개인정보"란/);
  const range = await call('get_article', { law_id: '001706', range: '750-752' });
  t.same(range.articles.map((x: any) => x.no), ['750', '751', '752']);
  const r2 = await call('get_article', { law_id: '011357', range: '7-2-8' });
  t.equal(r2.articles[0].no, '7-2');
  t.equal(r2.articles[r2.articles.length - 1].no, '8');
  const all = await call('get_article', { law_id: '011357' });
  t.ok(all.total > 100);
  t.ok(all.count < all.total);
  t.type(all.next_cursor, 'string');
  t.match(await callErr('get_article', { law_id: '001706', article_no: '99999' }), /no article/);
  t.match(await callErr('get_article', { law_id: '001706', article_no: 'abc' }), /article_no/);
  t.match(await callErr('get_article', { law_id: '001706', range: '9-3' }), /range/);
  t.match(await callErr('get_article', { law_id: '001706', article_no: '1', range: '1-2' }), /either/);
});

t.test('get_table: annex box table → rows and cells with spans', async (t) => {
  // a long annex comes in pages (text first, then table rows); walk to the first page with table rows
  let r = await call('get_table', { law_id: '2100000274812', table_no: '2-2' });
  t.equal(r.kind, '별표');
  t.match(r.title, /클라우드컴퓨팅서비스 제공자의 건전성 및 안전성 평가기준/);
  t.ok(r.parts_total > 1);
  for (let i = 0; !r.tables.length && r.next_cursor && i < 20; i++) r = await call('get_table', { law_id: '2100000274812', table_no: '2-2', cursor: r.next_cursor });
  const tb = r.tables[0];
  t.equal(tb.row_offset, 0);
  t.equal(tb.rows[0][0].text, '구분');
  t.equal(tb.rows[0][0].colspan, 2);
  const cell = tb.rows[1][0];
  t.match(cell.text, /정보보호 정책 및 법규 준수/);
  t.ok(cell.rowspan > 1);
  t.match(tb.rows[1][2].text, /1\.1\.1\./);
  const same = await call('get_table', { law_id: '2100000274812', table_no: '별표 2의2' });
  t.equal(same.title, r.title);
  const x = await call('get_law', { law_id: '012702', include: 'tables' });
  t.ok(Array.isArray(x.tables));
  t.match(await callErr('get_table', { law_id: '2100000274812', table_no: '99' }), /no annex/);
  t.match(await callErr('get_table', { law_id: '2100000274812', table_no: '???' }), /table_no/);
});

t.test('get_relations: decree → parent law, family, admin rules', async (t) => {
  const r = await call('get_relations', { law_id: '011468' });
  t.equal(r.parent.law_name, '개인정보 보호법');
  t.equal(r.hierarchy.law[0].law_id, '011357');
  t.equal(r.hierarchy.decree[0].law_id, '011468');
  const law = await call('get_relations', { law_id: '011357' });
  t.ok(law.children.some((c: any) => c.law_id === '011468'));
  t.ok(law.hierarchy.admin_rules_total > 0);
  t.ok(law.hierarchy.admin_rules.every((x: any) => x.entity_type === 'admrul'));
  t.ok(law.cited_by_total >= 0 && Array.isArray(law.cites));
  const rule = await call('get_relations', { law_id: '2100000279224' });
  t.equal(rule.parent.law_name, '개인정보 보호법');
  t.equal(rule.hierarchy.law[0].law_id, '011357');
});

t.test('get_history: revisions of 개인정보 보호법 with dates and types', async (t) => {
  const r = await call('get_history', { law_id: '011357' });
  t.equal(r.total, 13);
  t.equal(r.revisions[0].promulgation_date, '20260310');
  t.equal(r.revisions[0].revision_type, '일부개정');
  t.equal(r.revisions[0].current, true);
  t.equal(r.revisions[r.revisions.length - 1].revision_type, '제정');
  const w = await call('get_history', { law_id: '011357', from_date: '20200101', to_date: '20231231' });
  t.ok(w.total > 0 && w.total < 13);
  t.ok(w.revisions.every((x: any) => x.promulgation_date >= '20200101' && x.promulgation_date <= '20231231'));
  t.equal((await call('get_history', { law_id: '011357', from_date: '2020-01-01' })).from_date, '20200101');
  t.match(await callErr('get_history', { law_id: '011357', from_date: 'last year' }), /from_date/);
  t.match(await callErr('get_history', { law_id: '011357', from_date: '20201340' }), /from_date/);
  t.match(await callErr('get_history', { law_id: '011357', from_date: '20240101', to_date: '20200101' }), /after/);
  const hon = await call('get_history', { law_id: '001444' });
  t.equal(hon.total, 10);
  t.equal(hon.revisions[hon.revisions.length - 1].promulgation_date, '19480717');
});

t.test('get_changelog: a date with changes, an empty date, default today, bad date', async (t) => {
  const r = await call('get_changelog', { date: '20260605' });
  t.ok(r.total > 0);
  t.ok(r.changes.some((c: any) => c.law_name === '응급의료에 관한 법률 시행규칙' && c.revision_type === '일부개정'));
  const e = await call('get_changelog', { date: '20200101' });
  t.equal(e.total, 0);
  t.same(e.nearest_dates, { before: null, after: '20260310' });
  const gap = await call('get_changelog', { date: '20260607' });
  t.equal(gap.total, 0);
  t.same(gap.nearest_dates, { before: '20260605', after: null });
  const today = await call('get_changelog', {});
  t.match(today.date, /^\d{8}$/);
  t.equal((await call('get_changelog', { date: 20260605 })).total, r.total);
  t.match(await callErr('get_changelog', { date: '06/05' }), /date/);
});

t.test('Streamable HTTP at /mcp and health', async (t) => {
  const c2 = new Client({ name: 'sejong-test-2', version: '1.0.0' });
  await c2.connect(new StreamableHTTPClientTransport(new URL(srv.url + '/mcp')));
  const r = (await c2.callTool({ name: 'search_laws', arguments: { query: '근로기준법', limit: 1 } })) as R;
  const body = JSON.parse(r.content[0]!.text);
  t.equal(body.results[0].law_name, '근로기준법');
  t.equal(body.results[0].law_id, '001872'); // the current one, not the 1997 repeal stub 001769
  await c2.close();
  const h = await (await fetch(srv.url + '/mcp/health')).json() as any;
  t.equal(h.status, 'ok');
  t.equal(h.protocol_version, '2024-11-05');
  t.equal(h.corpus.statutes, 416 + 9);
  t.equal(h.corpus.admin_rules, 251);
  t.ok(h.sessions.sse >= 1);
  t.match(h.corpus.corpus_date, /^2026/);
});

t.test('a dropped SSE client frees its session', async (t) => {
  const before = ((await (await fetch(srv.url + '/mcp/health')).json()) as any).sessions.sse;
  const c3 = new Client({ name: 'drop', version: '1' });
  await c3.connect(new SSEClientTransport(new URL(srv.url + '/mcp/sse')));
  const during = ((await (await fetch(srv.url + '/mcp/health')).json()) as any).sessions.sse;
  t.equal(during, before + 1);
  await c3.close();
  let after = during;
  for (let i = 0; i < 50 && after !== before; i++) {
    await new Promise((r) => setTimeout(r, 50));
    after = ((await (await fetch(srv.url + '/mcp/health')).json()) as any).sessions.sse;
  }
  t.equal(after, before);
  const bad = await fetch(srv.url + '/mcp/messages?sessionId=nope', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  t.equal(bad.status, 404);
});

t.test('many concurrent SSE sessions', async (t) => {
  const health = async () => ((await (await fetch(srv.url + '/mcp/health')).json()) as any).sessions.sse as number;
  const before = await health();
  const clients = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const c = new Client({ name: `many-${i}`, version: '1' });
    await c.connect(new SSEClientTransport(new URL(srv.url + '/mcp/sse')));
    return c;
  }));
  t.equal(await health(), before + 20);
  const answers = await Promise.all(clients.map(async (c, i) => {
    const r = (await c.callTool({ name: 'get_article', arguments: { law_id: '001706', article_no: String(750 + (i % 5)) } })) as R;
    return JSON.parse(r.content[0]!.text).article.no as string;
  }));
  t.same(answers, Array.from({ length: 20 }, (_, i) => String(750 + (i % 5))));
  await Promise.all(clients.map((c) => c.close()));
  let after = await health();
  for (let i = 0; i < 50 && after !== before; i++) { await new Promise((r) => setTimeout(r, 50)); after = await health(); }
  t.equal(after, before);
});

t.test('raw HTTP+SSE exchange of revision 2024-11-05 (endpoint event, 202, message events)', async (t) => {
  const ac = new AbortController();
  const res = await fetch(srv.url + '/mcp/sse', { signal: ac.signal, headers: { accept: 'text/event-stream' } });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/event-stream/);
  const events = sseEvents(res);
  const nextEvent = async (): Promise<SseEvent> => {
    const e = await events.next();
    if (!e) throw new Error('stream ended');
    return e;
  };
  const ep = await nextEvent();
  t.equal(ep.event, 'endpoint');
  t.match(ep.data, /^\/mcp\/messages\?sessionId=[0-9a-f-]{36}$/);
  const post = (body: unknown) => fetch(new URL(ep.data, srv.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const p1 = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  t.equal(p1.status, 202);
  const init = await nextEvent();
  t.equal(init.event, 'message');
  const msg = JSON.parse(init.data);
  t.equal(msg.id, 1);
  t.equal(msg.result.protocolVersion, '2024-11-05');
  t.ok(msg.result.capabilities.tools);
  t.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: '750' } } });
  const call = JSON.parse((await nextEvent()).data);
  t.equal(call.id, 2);
  t.equal(JSON.parse(call.result.content[0].text).article.title, '불법행위의 내용');
  const bad = await fetch(new URL(ep.data, srv.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
  t.equal(bad.status, 400);
  ac.abort();
});
