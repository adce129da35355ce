// The law worker threads run at SEJONG_LAW_WORKER_NICE above the event loop (Linux: niceness is per thread), so an
// MCP burst cannot take a core from /health and the status polls; both hosts of the tools are checked: the MCP law
// worker (SEJONG_MCP_THREAD=worker, the default) and the Piscina law pool (SEJONG_MCP_THREAD=main).
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sampleDataDir } from './fixture.js';
import { skipFileWithoutShared } from '../helpers/shared.js';

await skipFileWithoutShared('law-corpus', 'sample');

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'n', version: '0' } } };

/** this process's threads named sejong-law, with their niceness */
function lawThreads(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim() === 'sejong-law' ? [os.getPriority(Number(tid))] : [];
    } catch {
      return []; // the thread ended while we listed
    }
  });
}

/** one MCP session and one get_article call through it: the article number that came back */
async function callArticle(srv: TestServer): Promise<string> {
  const r = await fetch(srv.url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify(INIT) });
  const sid = r.headers.get('mcp-session-id')!;
  await r.arrayBuffer();
  const hs = { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
  await (await fetch(srv.url + '/mcp', { method: 'POST', headers: hs, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).arrayBuffer();
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: '750' } } };
  const body = await (await fetch(srv.url + '/mcp', { method: 'POST', headers: hs, body: JSON.stringify(call) })).json() as any;
  return JSON.parse(body.result.content[0].text).article.no;
}

for (const where of ['worker', 'main'] as const) {
  t.test(`SEJONG_MCP_THREAD=${where}: the law thread runs at the event loop's niceness + 4`, { skip: process.platform !== 'linux' && 'Linux only (/proc, per-thread niceness)' }, async (t) => {
    const main = os.getPriority();
    const srv = await startTestServer({ dataDir: await sampleDataDir(), env: { SEJONG_LAW_WORKERS: '1', SEJONG_LAW_WORKER_NICE: '4', SEJONG_MCP_THREAD: where } });
    t.teardown(() => srv.close());
    t.equal(await callArticle(srv), '750', 'the tool ran in the law thread');
    t.same(lawThreads(), [Math.min(19, main + 4)], 'one law thread, at niceness main + 4');
    t.equal(os.getPriority(), main, 'the event loop keeps its niceness');
  });
}
