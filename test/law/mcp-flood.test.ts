// The open MCP endpoint under a flood, in both modes (the per-address limits in memory, or in Redis): 1,500 initialize
// calls from one address never evict an active client's session (SSE or Streamable HTTP); idle sessions make room
// first; per-address rate limit answers 429 + Retry-After; two servers keep their own sessions. Shared mode: two
// nodes on one Redis share one address's message budget and session cap; Redis lost: 503 SERVICE_BUSY.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';
import { ManualClock } from '../../src/clock.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'flood', version: '0' } } };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function pool<T>(n: number, conc: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(Array.from({ length: conc }, async () => { while (next < n) { const i = next++; out[i] = await fn(i); } }));
  return out;
}

const article = async (c: Client, no: string) => {
  const r = (await c.callTool({ name: 'get_article', arguments: { law_id: '001706', article_no: no } })) as { content: Array<{ text: string }> };
  return JSON.parse(r.content[0]!.text).article.no as string;
};

const MODES = ['embedded', 'shared'] as const;
const skip = (storage: (typeof MODES)[number]) => (storage === 'shared' ? enginesMissing() : undefined);

for (const storage of MODES) {
  const server = async (o: TestServerOptions) => startTestServer({ dataDir: await sampleDataDir(), storage, ...o });

  t.test(`${storage}: 1,500 initialize calls from one address: active SSE and Streamable HTTP clients keep working`, { skip: skip(storage) }, async (t) => {
    const clock = new ManualClock(Date.now());
    const srv = await server({ manualClock: clock, env: { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000', SEJONG_MCP_SESSIONS_PER_CLIENT: '40', SEJONG_MCP_MAX_SESSIONS: '60', SEJONG_MCP_IDLE_SECONDS: '300' } });
    t.teardown(() => srv.close());
    const sse = new Client({ name: 'active-sse', version: '1' });
    await sse.connect(new SSEClientTransport(new URL(srv.url + '/mcp/sse')));
    const http = new Client({ name: 'active-http', version: '1' });
    await http.connect(new StreamableHTTPClientTransport(new URL(srv.url + '/mcp')));
    t.teardown(async () => { await sse.close(); await http.close(); });

    const statuses = await pool(1500, 50, async () => {
      const r = await fetch(srv.url + '/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
      const body = await r.json() as any;
      return { status: r.status, retry: r.headers.get('retry-after'), code: body.error?.code as number | undefined };
    });
    const ok = statuses.filter((s) => s.status === 200).length;
    const refused = statuses.filter((s) => s.status === 429);
    t.equal(ok, 38, 'the address holds at most 40 sessions: 2 active + 38 new');
    t.equal(refused.length, 1500 - 38);
    t.ok(refused.every((s) => Number(s.retry) >= 1 && s.code === -32029));
    // the active clients still answer
    t.equal(await article(sse, '750'), '750');
    t.equal(await article(http, '751'), '751');
    const h = await (await fetch(srv.url + '/mcp/health')).json() as any;
    t.equal(h.sessions.sse + h.sessions.streamable_http, 40);

    // later: the flood's sessions are idle, the active clients used theirs since; new sessions evict idle ones (LRU)
    clock.advance(200_000);
    t.equal(await article(sse, '752'), '752');
    t.equal(await article(http, '753'), '753');
    clock.advance(200_000);
    const again = await pool(100, 10, async () => (await fetch(srv.url + '/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) })).status);
    t.equal(again.filter((s) => s === 200).length, 38, 'the 38 idle flood sessions made room, the 2 active ones did not');
    t.equal(await article(sse, '754'), '754');
    t.equal(await article(http, '750'), '750');
  });

  t.test(`${storage}: per-address rate limit: 429 with Retry-After and a JSON-RPC error`, { skip: skip(storage) }, async (t) => {
    const srv = await server({ env: { SEJONG_MCP_RATE_PER_SECOND: '0.01', SEJONG_MCP_RATE_BURST: '10' } });
    t.teardown(() => srv.close());
    const init = await fetch(srv.url + '/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
    t.equal(init.status, 200);
    const sid = init.headers.get('mcp-session-id')!;
    const list = () => fetch(srv.url + '/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    const rs = [];
    for (let i = 0; i < 15; i++) rs.push(await list());
    const limited = rs.filter((r) => r.status === 429);
    t.ok(limited.length >= 4, `${limited.length} of 15 refused`);
    t.ok(rs.filter((r) => r.status === 200).length <= 10);
    const body = await limited[0]!.json() as any;
    t.equal(body.error.code, -32029);
    t.match(body.error.message, /RATE_LIMITED/);
    t.ok(Number(limited[0]!.headers.get('retry-after')) >= 1);
    // the SSE message endpoint is limited the same way
    const sse = await fetch(srv.url + '/mcp/messages?sessionId=nope', { method: 'POST', headers: HEADERS, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    t.equal(sse.status, 404);
  });

  t.test(`${storage}: two servers keep their own sessions`, { skip: skip(storage) }, async (t) => {
    const env = { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000' };
    const a = await server({ env });
    const b = await server({ env, sharedEnv: a.sharedEnv });
    t.teardown(async () => { await a.close(); await b.close(); });
    const init = await fetch(a.url + '/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
    const sid = init.headers.get('mcp-session-id')!;
    t.match(sid, /^[0-9a-f-]{36}$/);
    const onB = await fetch(b.url + '/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    t.equal(onB.status, 404);
    const ha = await (await fetch(a.url + '/mcp/health')).json() as any;
    const hb = await (await fetch(b.url + '/mcp/health')).json() as any;
    t.equal(ha.sessions.streamable_http, 1);
    t.equal(hb.sessions.streamable_http, 0);
  });
}

const rpc = (url: string, sid: string, id: number) => fetch(url + '/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }) });

t.test('shared: two nodes share one address\'s message budget and session cap; Redis lost: 503, back: recovered', { skip: enginesMissing() }, async (t) => {
  const { env: sharedEnv, redis } = await sharedModeEnv();
  const env = { SEJONG_MCP_RATE_PER_SECOND: '0.01', SEJONG_MCP_RATE_BURST: '7', SEJONG_MCP_SESSIONS_PER_CLIENT: '2' };
  const a = await startTestServer({ dataDir: await sampleDataDir(), storage: 'shared', sharedEnv, env });
  const b = await startTestServer({ dataDir: await sampleDataDir(), storage: 'shared', sharedEnv, env });
  t.teardown(async () => { await a.close(); await b.close(); await redis.remove(); });
  const init = (url: string) => fetch(url + '/mcp', { method: 'POST', headers: HEADERS, body: JSON.stringify(INIT) });
  const onA = await init(a.url);
  const onB = await init(b.url);
  t.same([onA.status, onB.status], [200, 200], 'one session on each node');
  const third = await init(a.url);
  t.equal(third.status, 429, 'a third session on node A is refused: the address holds two across the nodes');
  const refusal = await third.json() as any;
  t.equal(refusal.error.code, -32029);
  t.match(refusal.error.message, /already holds 2 MCP sessions \(at most 2\)/);
  t.match(third.headers.get('retry-after'), /^\d+$/);
  // 7 tokens, 3 spent on the initialize calls: 4 messages more, alternating between the nodes
  const sa = onA.headers.get('mcp-session-id')!;
  const sb = onB.headers.get('mcp-session-id')!;
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await rpc(i % 2 ? b.url : a.url, i % 2 ? sb : sa, 10 + i)).status);
  t.same(statuses, [200, 200, 200, 200, 429, 429], 'the budget is the address\'s, not each node\'s (each node alone would allow 7)');
  const h = await Promise.all([a, b].map(async (s) => (await (await fetch(s.url + '/mcp/health')).json() as any).sessions.streamable_http));
  t.same(h, [1, 1]);

  await redis.stop();
  const busy = await rpc(a.url, sa, 20);
  t.equal(busy.status, 503, 'Redis away: 503, not 500');
  t.equal(busy.headers.get('retry-after'), '2');
  const busyBody = await busy.json() as any;
  t.same([busyBody.jsonrpc, busyBody.error.code], ['2.0', -32030]);
  t.match(busyBody.error.message, /SERVICE_BUSY: Redis is not reachable/);
  const sse = await fetch(b.url + '/mcp/sse');
  const event = await sse.text();
  t.match(event, /event: error\ndata: .*"code":"SERVICE_BUSY"/, 'a new SSE stream is refused with SERVICE_BUSY');
  t.equal((await init(b.url)).status, 503, 'a new Streamable HTTP session too');

  await redis.start(); // a fresh Redis: the budget starts full again
  const recovered = async (s: TestServer, sid: string) => {
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) {
      status = (await rpc(s.url, sid, 30 + i)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    return status;
  };
  t.equal(await recovered(a, sa), 200, 'node A recovers by itself; the session from before the outage goes on');
  t.equal(await recovered(b, sb), 200, 'node B too (each node reconnects on its own)');
  // each node takes its sessions' slots again at their next use or its next refresh (every 15 s)
  t.same(await Promise.all([a, b].map((s) => s.services.ext.mcp!.sessions.refresh())), [0, 0], 'no session lost its slot');
  t.equal((await init(a.url)).status, 429, 'both sessions count again after the restart');
});
