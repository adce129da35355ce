// The SDK's JSON-response transport keeps one _streamMapping entry per POST for the session's life (upstream
// modelcontextprotocol/typescript-sdk#2559); releaseSettledJsonStreams (src/law/mcp-sdk-fixes.ts) deletes each entry
// once its answer is handed over. Checked on a real transport and McpServer: without the fix the entries pile up
// (the test asserts it, so an SDK release that fixes the leak shows here), with it none stay, and the answers are
// the same.
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { releaseSettledJsonStreams } from '../../src/law/mcp-sdk-fixes.js';

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'f', version: '0' } } };

/** a session on a fresh transport, then `calls` tools/list requests; the entries left and the tool names answered */
async function session(fix: boolean, calls: number): Promise<{ applied: boolean; left: number; tools: string[][] }> {
  const server = new McpServer({ name: 'fix-test', version: '0' });
  server.registerTool('echo', { description: 'echo' }, async () => ({ content: [{ type: 'text', text: 'x' }] }));
  const tr = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  const applied = fix ? releaseSettledJsonStreams(tr) : false;
  await server.connect(tr);
  const post = (body: unknown, sid?: string) => tr.handleRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...H, ...(sid ? { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' } : {}) }, body: JSON.stringify(body) }));
  const init = await post(INIT);
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();
  const tools: string[][] = [];
  for (let i = 0; i < calls; i++) {
    const r = await (await post({ jsonrpc: '2.0', id: 10 + i, method: 'tools/list' }, sid)).json() as { result: { tools: Array<{ name: string }> } };
    tools.push(r.result.tools.map((x) => x.name));
  }
  const left = ((tr as unknown as { _streamMapping: Map<string, unknown> })._streamMapping).size;
  await server.close();
  return { applied, left, tools };
}

t.test('without the fix every answered POST leaves an entry (the SDK 1.32.2 leak this works around)', async (t) => {
  const r = await session(false, 12);
  t.equal(r.left, 13, 'the initialize and 12 tools/list entries are all still held');
});

t.test('with releaseSettledJsonStreams no entry outlives its answer, and the answers are unchanged', async (t) => {
  const r = await session(true, 12);
  t.equal(r.applied, true, 'the transport has the private map the fix patches');
  t.equal(r.left, 0, 'no stream entry left after 13 answered POSTs');
  t.same(r.tools, Array.from({ length: 12 }, () => ['echo']), 'every tools/list answered with the tool');
});
