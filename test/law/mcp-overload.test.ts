// Overload of the MCP law workers (law/mcp-workers.ts): with more than SEJONG_LAW_QUEUE_SIZE calls waiting for the
// threads, a call is answered at once with HTTP 503, JSON-RPC error -32030 (SERVICE_BUSY) and Retry-After, and the
// calls already waiting still complete; under a flood of tool calls from many sessions an active client's calls are
// answered with the right articles and /health stays up.
import t from 'tap';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';
import type { McpWorkers } from '../../src/law/mcp-workers.js';
import { transferOf } from '../../src/law/mcp-host.js';

await skipFileWithoutShared('law-corpus', 'sample');

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const UNLIMITED = { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000', SEJONG_MCP_SESSIONS_PER_CLIENT: '100' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'o', version: '0' } } };

async function open(srv: TestServer): Promise<string> {
  const r = await fetch(srv.url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify(INIT) });
  const sid = r.headers.get('mcp-session-id')!;
  await r.arrayBuffer();
  await (await fetch(srv.url + '/mcp', { method: 'POST', headers: { ...H, 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).arrayBuffer();
  return sid;
}

const call = (srv: TestServer, sid: string, id: number, no: string) =>
  fetch(srv.url + '/mcp', {
    method: 'POST',
    headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: no } } }),
  });

const articleNo = (body: any): string => JSON.parse(body.result.content[0].text).article.no;

t.test('more calls waiting than SEJONG_LAW_QUEUE_SIZE: 503, JSON-RPC -32030, Retry-After; the waiting calls complete', async (t) => {
  const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { ...UNLIMITED, SEJONG_LAW_WORKERS: '1', SEJONG_LAW_QUEUE_SIZE: '2' } });
  t.teardown(() => srv.close());
  const backend = srv.services.ext.mcp!.backend as McpWorkers;
  t.equal(backend.where, 'worker');
  const sid = await open(srv);
  // hold the thread's incoming messages (as if it were busy with a long search): the calls pile up in its queue
  const worker = backend.threads[0]!.worker;
  const held: Array<Parameters<typeof worker.postMessage>> = [];
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (...a: Parameters<typeof worker.postMessage>) => void held.push(a);
  const waiting = [call(srv, sid, 10, '750'), call(srv, sid, 11, '751'), call(srv, sid, 12, '752')];
  for (let i = 0; i < 200 && held.length < 3; i++) await new Promise((r) => setTimeout(r, 10));
  t.equal(held.length, 3, 'three calls went to the thread: one running, two waiting');
  t.equal(((await (await fetch(srv.url + '/mcp/health')).json()) as any).law_workers.queued, 2);

  const over = await call(srv, sid, 13, '753');
  t.equal(over.status, 503);
  t.equal(over.headers.get('retry-after'), '1');
  t.equal(over.headers.get('content-type'), 'application/json; charset=utf-8');
  const body = (await over.json()) as any;
  t.equal(body.jsonrpc, '2.0');
  t.equal(body.id, null);
  t.equal(body.error.code, -32030);
  t.equal(body.error.message, 'SERVICE_BUSY: all 1 law workers are busy and 2 calls are waiting; retry shortly');
  t.same(body.error.data, { retry_after: 1 });

  worker.postMessage = post;
  for (const a of held) post(...a);
  const done = await Promise.all(waiting.map(async (p) => { const r = await p; return [r.status, articleNo(await r.json())]; }));
  t.same(done, [[200, '750'], [200, '751'], [200, '752']], 'the calls that waited are answered');
  const after = await call(srv, sid, 14, '753');
  t.same([after.status, articleNo(await after.json())], [200, '753'], 'and a new call is taken again');
});

t.test('a flood of tool calls from 30 sessions: an active client keeps getting its articles, /health answers', async (t) => {
  const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { ...UNLIMITED, SEJONG_LAW_WORKERS: '1' } });
  t.teardown(() => srv.close());
  const active = new Client({ name: 'active', version: '1' });
  await active.connect(new StreamableHTTPClientTransport(new URL(srv.url + '/mcp')));
  t.teardown(() => active.close());
  const sids = await Promise.all(Array.from({ length: 30 }, () => open(srv)));

  let next = 0;
  const statuses = new Map<number, number>();
  const flood = Promise.all(sids.map(async (sid) => {
    while (next < 300) {
      const i = next++;
      const r = await fetch(srv.url + '/mcp', {
        method: 'POST',
        headers: { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_laws', arguments: { query: `근로 임금 제${1 + (i % 90)}조`, limit: 10 } } }),
      });
      await r.arrayBuffer();
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
  }));
  const mine: string[] = [];
  const health: number[] = [];
  for (let k = 0; k < 6; k++) {
    const r = (await active.callTool({ name: 'get_article', arguments: { law_id: '001706', article_no: String(750 + k) } })) as { content: Array<{ text: string }> };
    mine.push(JSON.parse(r.content[0]!.text).article.no);
    health.push((await fetch(srv.url + '/health')).status);
  }
  await flood;
  t.same(mine, ['750', '751', '752', '753', '754', '755'], 'every call of the active session answered with its article');
  t.same(health, [200, 200, 200, 200, 200, 200]);
  t.same([...statuses], [[200, 300]], 'the flood stayed within the queue: every call answered');
});

t.test('transferOf: only bytes spanning their own buffer are handed over (never a pooled Buffer or a view)', async (t) => {
  const whole = Buffer.allocUnsafeSlow(64);
  t.same(transferOf(whole), [whole.buffer]);
  const encoded = new TextEncoder().encode('event: message\ndata: {}\n\n');
  t.same(transferOf(encoded), [encoded.buffer]);
  t.equal(transferOf(Buffer.from('{"jsonrpc":"2.0"}')), undefined, 'a small Buffer lives in the shared pool');
  t.equal(transferOf(whole.subarray(0, 10)), undefined, 'a view of part of a buffer');
  t.equal(transferOf(new Uint8Array(new SharedArrayBuffer(8))), undefined, 'shared memory is not transferable');
  t.equal(transferOf(new Uint8Array(0)), undefined);
  t.equal(transferOf(undefined), undefined);
});
