// The law thread's heap under MCP, in-process: one Streamable HTTP session of McpHost (the SDK's web-standard
// transport in JSON-response mode, as the law worker hosts it) with search_laws over every law-quality question, then
// distinct variants; the heap after a full GC per round and the size of the transport's stream map. It grows one
// entry (~45 KB retained) per POST for the life of the session: modelcontextprotocol/typescript-sdk issue #2559 (the
// JSON branch resolves without cleanup()). FIX=1 deletes the settled entries after each round to show the difference.
// Usage: nice -n 19 node --expose-gc --import tsx bench/law-mcp-heap.ts DATA_DIR [rounds]
import v8 from 'node:v8';
import { McpHost } from '../src/law/mcp-host.js';
import { buildMcpServer } from '../src/law/mcp-server.js';
import { threadLaw } from '../src/law/search-worker.js';
import { runTool } from '../src/law/tools.js';
import { loadQuestions } from './law-quality/evaluate.js';
const dataPath = process.argv[2]!;
const gc = (globalThis as any).gc;
const heap = () => { gc(); gc(); const h = v8.getHeapStatistics(); const m = process.memoryUsage(); return `heap used ${(h.used_heap_size / 1048576).toFixed(1)} MB, arrayBuffers ${(m.arrayBuffers / 1048576).toFixed(1)}`; };
const run = (tool: string, args: unknown, now: number) => runTool(tool, { law: threadLaw(dataPath, 1), now }, args);
const host = new McpHost(() => buildMcpServer(run, () => undefined), () => undefined);
const qs = loadQuestions();
const h = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const url = 'http://127.0.0.1/mcp';
const enc = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));
let out = await host.handle({ method: 'POST', url, headers: h, body: enc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'rss', version: '1' } } }), now: Date.now() });
const sid = out.sessionId!;
await host.handle({ method: 'POST', url, headers: { ...h, 'mcp-session-id': sid }, body: enc({ jsonrpc: '2.0', method: 'notifications/initialized' }), sid, now: Date.now() });
threadLaw(dataPath, 1);
console.log('start', heap());
let n = 0;
for (let k = 0; k < Number(process.argv[3] ?? 2); k++) {
  for (let i = 0; i < qs.length; i++) {
    const extra = k === 0 ? '' : ' ' + (qs[(i + k) % qs.length].query.split(/\s+/)[0] ?? '');
    out = await host.handle({ method: 'POST', url, headers: { ...h, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' }, body: enc({ jsonrpc: '2.0', id: n + 2, method: 'tools/call', params: { name: 'search_laws', arguments: { query: qs[i].query + extra } } }), sid, now: Date.now() });
    if (out.status !== 200) { console.log('status', out.status, Buffer.from(out.body).toString().slice(0, 200)); process.exit(1); }
    n++;
  }
  const tr = (host as any).http.get(sid);
  console.log(`after ${n}`, heap(), 'streamMapping', tr._streamMapping.size, 'requestToStream', tr._requestToStreamMapping.size);
  if (process.env.FIX) for (const [k, v] of tr._streamMapping) if (v.resolveJson) tr._streamMapping.delete(k);
}
