// MCP sessions hosted in the law worker threads (law/mcp-workers.ts): a session stays on the thread that made it; a
// thread that dies ends its own sessions with a clear error (SSE: an error event; Streamable HTTP: 404, initialize
// again) while the server and the other thread's sessions go on; batches and notifications over the worker path;
// SEJONG_MCP_THREAD=main and SEJONG_LAW_WORKERS=0 answer the same on the main thread.
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sseEvents } from '../helpers/sse.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';
import type { McpWorkers } from '../../src/law/mcp-workers.js';
import { lawThreadLimits } from '../../src/law/search-pool.js';
import { Worker } from 'node:worker_threads';

await skipFileWithoutShared('law-corpus', 'sample');

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const UNLIMITED = { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'w', version: '0' } } };

async function open(srv: TestServer): Promise<string> {
  const r = await fetch(srv.url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify(INIT) });
  const sid = r.headers.get('mcp-session-id')!;
  await r.arrayBuffer();
  const n = await fetch(srv.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  if (n.status !== 202) throw new Error(`initialized: ${n.status}`);
  return sid;
}

const post = (srv: TestServer, sid: string, body: unknown) => fetch(srv.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify(body) });

async function article(srv: TestServer, sid: string, no: string): Promise<{ status: number; no?: string; body: any }> {
  const r = await post(srv, sid, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: no } } });
  const body = await r.json() as any;
  return { status: r.status, no: body.result ? JSON.parse(body.result.content[0].text).article.no : undefined, body };
}

const sessions = async (srv: TestServer) => ((await (await fetch(srv.url + '/mcp/health')).json()) as any).sessions;

/** the first SSE events of GET /mcp/sse until pred is met */
async function sseOpen(srv: TestServer) {
  const ac = new AbortController();
  const res = await fetch(srv.url + '/mcp/sse', { signal: ac.signal, headers: { accept: 'text/event-stream' } });
  const { next } = sseEvents(res);
  const ep = (await next())!;
  return { sid: /sessionId=(.*)$/.exec(ep.data)![1]!, next, close: () => ac.abort() };
}

t.test('two law workers: sessions spread and stay pinned; a dead worker ends only its sessions', async (t) => {
  const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { ...UNLIMITED, SEJONG_LAW_WORKERS: '2' } });
  t.teardown(() => srv.close());
  const backend = srv.services.ext.mcp!.backend as McpWorkers;
  t.equal(backend.where, 'worker');
  t.equal(backend.threads.length, 2);
  const sids = [await open(srv), await open(srv), await open(srv), await open(srv)];
  const home = (sid: string) => backend.threads.findIndex((th) => th.sessions.has(sid));
  const homes = sids.map(home);
  t.same([...homes].sort(), [0, 0, 1, 1], 'four sessions, two on each thread');
  for (const [i, sid] of sids.entries()) t.equal((await article(srv, sid, String(750 + i))).no, String(750 + i));
  t.same(sids.map(home), homes, 'each session still on the thread that made it');

  const sse = await sseOpen(srv);
  const sseHome = home(sse.sid);
  t.ok(sseHome >= 0, 'the SSE session is pinned too');
  t.same(await sessions(srv), { ...(await sessions(srv)), sse: 1, streamable_http: 4 });

  // the thread of sessions[0] dies
  const dead = homes[0]!;
  const old = backend.threads[dead]!.worker;
  await old.terminate();
  for (let i = 0; i < 100 && backend.threads[dead]!.worker === old; i++) await new Promise((r) => setTimeout(r, 20));
  t.not(backend.threads[dead]!.worker, old, 'a new thread took its place');
  for (const [i, sid] of sids.entries()) {
    const r = await article(srv, sid, '750');
    if (homes[i] === dead) {
      t.equal(r.status, 404, 'a session of the dead thread has ended');
      t.equal(r.body.error.code, -32001);
      t.match(r.body.error.message, /Session not found.*initialize again/);
    } else t.equal(r.no, '750', 'a session of the other thread goes on');
  }
  if (sseHome === dead) {
    const ev = await sse.next();
    t.equal(ev?.event, 'error');
    t.match(JSON.parse(ev!.data).message, /law worker hosting this session stopped/);
    t.equal(await sse.next(), null, 'its stream ended');
  } else {
    t.pass('the SSE session was on the other thread');
  }
  sse.close();
  const left = homes.filter((h) => h !== dead).length;
  let s = await sessions(srv);
  for (let i = 0; i < 50 && (s.streamable_http !== left || s.sse !== 0); i++) { await new Promise((r) => setTimeout(r, 20)); s = await sessions(srv); }
  t.same([s.streamable_http, s.sse], [left, 0], 'the dead thread\'s sessions gave back their slots');
  const fresh = await open(srv);
  t.equal((await article(srv, fresh, '751')).no, '751', 'new sessions work (the new thread opened the store)');
  t.equal((await fetch(srv.url + '/health')).status, 200);
});

for (const [label, env] of [['law workers (default)', {}], ['SEJONG_MCP_THREAD=main', { SEJONG_MCP_THREAD: 'main' }], ['SEJONG_LAW_WORKERS=0', { SEJONG_LAW_WORKERS: '0' }]] as const) {
  t.test(`${label}: batch, notification → 202, bad JSON, DELETE`, async (t) => {
    const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { ...UNLIMITED, ...env } });
    t.teardown(() => srv.close());
    t.equal(srv.services.ext.mcp?.backend.where ?? 'worker', 'SEJONG_MCP_THREAD' in env || 'SEJONG_LAW_WORKERS' in env ? 'main' : 'worker');
    const sid = await open(srv);
    const batch = await post(srv, sid, [
      { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: '750' } } },
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
    ]);
    t.equal(batch.status, 200);
    const answers = await batch.json() as any[];
    t.same(answers.map((a) => a.id).sort(), ['a', 'b']);
    const a = answers.find((x) => x.id === 'a');
    t.equal(a.result.structuredContent.article.no, '750');
    t.same(answers.find((x) => x.id === 'b').result, {});
    const note = await post(srv, sid, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
    t.equal(note.status, 202);
    t.equal((await note.text()), '');
    const bad = await fetch(srv.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid }, body: '{not json' });
    t.equal(bad.status, 400);
    t.equal(((await bad.json()) as any).error.code, -32700);
    const badBatch = await fetch(srv.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid }, body: '[{not json' });
    t.equal(badBatch.status, 400);
    t.equal((await sessions(srv)).streamable_http, 1);
    const del = await fetch(srv.url + '/mcp', { method: 'DELETE', headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' } });
    t.equal(del.status, 200);
    t.equal((await article(srv, sid, '750')).status, 404, 'the ended session is gone');
    let n = (await sessions(srv)).streamable_http;
    for (let i = 0; i < 50 && n !== 0; i++) { await new Promise((r) => setTimeout(r, 20)); n = (await sessions(srv)).streamable_http; }
    t.equal(n, 0, 'DELETE gave back the slot');

    // HTTP+SSE: the body is checked where the session lives; a bad one is 400 naming the message, a good one 202
    const sse = await sseOpen(srv);
    const to = srv.url + `/mcp/messages?sessionId=${sse.sid}`;
    const wrong = await fetch(to, { method: 'POST', headers: H, body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { hello: 1 }]) });
    t.equal(wrong.status, 400);
    t.match(((await wrong.json()) as any).error.message, /Expected a JSON-RPC 2\.0 message for body\[1\]/);
    const notJson = await fetch(to, { method: 'POST', headers: H, body: '{nope' });
    t.equal(notJson.status, 400);
    t.match(((await notJson.json()) as any).error.message, /The body is not valid JSON/);
    const init = await fetch(to, { method: 'POST', headers: H, body: JSON.stringify({ ...INIT, params: { ...INIT.params, protocolVersion: '2024-11-05' } }) });
    t.equal(init.status, 202);
    const ev = await sse.next();
    t.equal(ev?.event, 'message');
    t.equal(JSON.parse(ev!.data).result.protocolVersion, '2024-11-05');
    sse.close();
  });
}

t.test('the law threads\' V8 limits: the young generation capped by SEJONG_LAW_YOUNG_MB (12 by default), 0 = V8\'s own; the old one by SEJONG_LAW_HEAP_MB', async (t) => {
  const bare = new Worker('', { eval: true });
  await new Promise((r) => bare.once('online', r));
  const v8Default = bare.resourceLimits!.maxYoungGenerationSizeMb ?? 0;
  await bare.terminate();
  t.equal(lawThreadLimits(12).maxYoungGenerationSizeMb, 12);
  t.equal(lawThreadLimits(0).maxYoungGenerationSizeMb, undefined, '0: no young limit given');
  t.equal(lawThreadLimits(12).maxOldGenerationSizeMb, 384);
  t.equal(lawThreadLimits(12, 512).maxOldGenerationSizeMb, 512);
  for (const [env, want, heap] of [[undefined, 12, 384], ['6', 6, 512], ['0', v8Default, 384]] as const) {
    const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { ...UNLIMITED, ...(env === undefined ? {} : { SEJONG_LAW_YOUNG_MB: env }), ...(heap === 512 ? { SEJONG_LAW_HEAP_MB: '512' } : {}) } });
    const backend = srv.services.ext.mcp!.backend as McpWorkers;
    const w = backend.threads[0]!.worker;
    if (!w.resourceLimits?.maxYoungGenerationSizeMb) await new Promise((r) => w.once('online', r));
    t.equal(w.resourceLimits!.maxYoungGenerationSizeMb, want, `SEJONG_LAW_YOUNG_MB=${env ?? '(unset)'}: the MCP law thread's young generation is ${want} MB`);
    t.equal(w.resourceLimits!.maxOldGenerationSizeMb, heap, `the old generation's limit is ${heap} MB`);
    await srv.close();
  }
  t.ok(v8Default > 12, `V8's own young generation limit (${v8Default} MB) is above the default cap`);
});
