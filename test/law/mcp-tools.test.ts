// Tools agents call well: forgiving arguments, bounded answers with cursors, structuredContent, verify_citation,
// compare_versions, repealed marks in get_relations, REST by name.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000' } });
t.teardown(() => srv.close());
const client = new Client({ name: 'tools-test', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(srv.url + '/mcp')));
t.teardown(() => client.close());

type R = { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> };
async function raw(name: string, args: Record<string, unknown>): Promise<R> {
  return (await client.callTool({ name, arguments: args })) as R;
}
async function call(name: string, args: Record<string, unknown>): Promise<any> {
  const r = await raw(name, args);
  if (r.isError) throw new Error(r.content[0]!.text);
  return JSON.parse(r.content[0]!.text);
}

t.test('article_no as number, 제60조의2, 60조의2, 60-2; law_id as a name or abbreviation', async (t) => {
  const want = (await call('get_article', { law_id: '011357', article_no: '7-2' })).article.content;
  for (const no of ['제7조의2', '7조의2', '7-2', '제7조의 2']) t.equal((await call('get_article', { law_id: '011357', article_no: no })).article.content, want, no);
  t.equal((await call('get_article', { law_id: '민법', article_no: 750 })).article.title, '불법행위의 내용');
  t.equal((await call('get_article', { law_id: 1706, article_no: 750 })).law_name, '민법');
  t.equal((await call('get_law', { law_id: '근로기준법', include: 'meta' })).meta.law_id, '001872');
  t.equal((await call('get_law', { law_id: '개인정보법', include: 'meta' })).meta.law_id, '011357');
  const e = await raw('get_article', { law_id: '민법', article_no: '칠백오십' });
  t.equal(e.isError, true);
  t.match(e.content[0]!.text, /article_no/);
});

t.test('structuredContent beside the text; every long answer under 50 KB with a cursor', async (t) => {
  const r = await raw('get_law', { law_id: '001706' });
  t.same(r.structuredContent, JSON.parse(r.content[0]!.text));
  const size = (x: R) => Buffer.byteLength(JSON.stringify(x));
  t.ok(size(r) < 50_000, `get_law 민법 answer ${size(r)} bytes`);
  const body = r.structuredContent as any;
  t.ok(body.articles_total > 1000);
  t.match(body.note, /cursor/);
  // walk every page: all articles once, in order
  const seen: string[] = body.articles.map((a: any) => a.no);
  let cur = body.next_cursor;
  for (let i = 0; cur && i < 100; i++) {
    const p = await raw('get_law', { law_id: '001706', cursor: cur });
    t.ok(size(p) < 50_000);
    const b = p.structuredContent as any;
    seen.push(...b.articles.map((a: any) => a.no));
    cur = b.next_cursor;
  }
  t.equal(seen.length, body.articles_total);
  t.equal(new Set(seen).size, seen.length);
  const all = await raw('get_article', { law_id: '민법' });
  t.ok(size(all) < 50_000);
  const a2 = all.structuredContent as any;
  t.equal(a2.total, body.articles_total);
  const p2 = await call('get_article', { law_id: '민법', cursor: a2.next_cursor });
  t.equal(p2.offset, a2.count);
  t.match((await raw('get_article', { law_id: '민법', cursor: 'x' })).content[0]!.text, /cursor/);
  const s = await raw('search_laws', { query: '법', limit: 100 });
  t.ok(size(s) < 50_000);
});

t.test('verify_citation: real, in force, the paragraph text; wrong article and unknown name', async (t) => {
  const ok = await call('verify_citation', { citation: '민법 제750조' });
  t.equal(ok.valid, true);
  t.equal(ok.exists, true);
  t.equal(ok.in_force, true);
  t.equal(ok.canonical, '민법 제750조');
  t.match(ok.text, /고의 또는 과실로 인한 위법행위/);
  const para = await call('verify_citation', { citation: '「개인정보 보호법」 제15조 제1항 제2호' });
  t.equal(para.parsed.article_no, '15');
  t.equal(para.parsed.paragraph, 1);
  t.equal(para.parsed.item, '2');
  t.equal(para.valid, true);
  t.equal(para.canonical, '개인정보 보호법 제15조 제1항 제2호');
  t.match(para.text, /^2\. /);
  const noArt = await call('verify_citation', { citation: '민법 제9999조' });
  t.equal(noArt.valid, false);
  t.equal(noArt.exists, false);
  t.match(noArt.problem, /no 제9999조/);
  const noPara = await call('verify_citation', { citation: '민법 제750조 제5항' });
  t.equal(noPara.valid, false);
  t.match(noPara.problem, /no paragraph 5/);
  const later = await call('verify_citation', { citation: '근로기준법 제60조 제2항' });
  t.equal(later.law.law_id, '001872');
  t.equal(later.status, 'not_yet_in_force');
  t.equal(later.in_force, false);
  const unknown = await call('verify_citation', { citation: '없는법률이름 제1조' });
  t.equal(unknown.valid, false);
  t.match(unknown.problem, /no statute or rule named/);
  t.match((await raw('verify_citation', { citation: '' })).content[0]!.text, /citation/);
});

t.test('compare_versions: the REST diff over MCP', async (t) => {
  const m = await call('compare_versions', { law_id: '011357', from: '20200101', to: 20260310 });
  const rest = await (await srv.req('/api/v1/laws/011357/diff?from=20200101&to=20260310')).json() as any;
  t.same(m.summary, rest.summary);
  t.equal(m.changes_total, rest.changes.length);
  t.same(m.changes.map((c: any) => c.no), rest.changes.slice(0, m.changes.length).map((c: any) => c.no));
  t.match((await raw('compare_versions', { law_id: '011357', from: '20260101', to: '20200101' })).content[0]!.text, /after/);
  t.match((await raw('compare_versions', { law_id: '011357', from: '18000101' })).content[0]!.text, /No stored text/);
});

t.test('get_relations marks repealed instruments; REST by name', async (t) => {
  const r = await call('get_relations', { law_id: '근로기준법' });
  const all = [...r.hierarchy.law, ...r.hierarchy.decree, ...r.hierarchy.rule];
  const old = all.find((x: any) => x.law_id === '001769');
  if (old) t.equal(old.repealed, true);
  t.ok(all.filter((x: any) => x.law_id === '001872').every((x: any) => !x.repealed));
  const byName = await srv.req('/api/v1/laws/' + encodeURIComponent('근로기준법'));
  t.equal(byName.status, 200);
  t.equal(((await byName.json()) as any).meta.law_id, '001872');
  const none = await srv.req('/api/v1/laws/' + encodeURIComponent('없는법'));
  t.equal(none.status, 404);
});

t.test('form (별지) titles come out as text, not box-drawing lines', async (t) => {
  const r = await call('get_law', { law_id: '2100000274812', include: 'tables' });
  const forms = r.tables.filter((x: any) => x.kind === '별지');
  t.ok(forms.length > 0);
  t.ok(forms.every((x: any) => x.title && !/[\u2500-\u257f]/.test(x.title)));
  t.equal(forms.find((x: any) => x.table_no === '3').title, '전자금융업 영위 예비허가 신청서');
  const one = await call('get_table', { law_id: '2100000274812', table_no: '별지 3' });
  t.equal(one.title, '전자금융업 영위 예비허가 신청서');
});

