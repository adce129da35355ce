// The law worker threads of this process as the thread tests see them (Linux /proc: threads named sejong-law), and
// one MCP round trip that makes them work.
import fs from 'node:fs';
import type { TestServer } from './server.js';

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'n', version: '0' } } };

/** the tids of this process's threads named sejong-law */
export function lawThreadIds(): string[] {
  return fs.readdirSync('/proc/self/task').filter((tid) => {
    try {
      return fs.readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim() === 'sejong-law';
    } catch {
      return false; // the thread ended while we listed
    }
  });
}

/** one MCP session and one get_article call (민법 750) through it: the article number that came back */
export async function callArticle(srv: TestServer): Promise<string> {
  const r = await fetch(srv.url + '/mcp', { method: 'POST', headers: H, body: JSON.stringify(INIT) });
  const sid = r.headers.get('mcp-session-id')!;
  await r.arrayBuffer();
  const hs = { ...H, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
  await (await fetch(srv.url + '/mcp', { method: 'POST', headers: hs, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).arrayBuffer();
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_article', arguments: { law_id: '001706', article_no: '750' } } };
  const body = (await (await fetch(srv.url + '/mcp', { method: 'POST', headers: hs, body: JSON.stringify(call) })).json()) as { result: { content: Array<{ text: string }> } };
  return (JSON.parse(body.result.content[0]!.text) as { article: { no: string } }).article.no;
}
