// MCP law worker entry (plain worker_threads, started by mcp-workers.ts): hosts the MCP sessions pinned to this
// thread (McpHost: the SDK's transports and McpServer, zod checks, JSON both ways) and runs their tool calls here,
// over this thread's view of the server's LMDB environment. Messages in and out are listed in mcp-workers.ts.
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { McpHost, transferOf } from './mcp-host.js';
import { buildMcpServer } from './mcp-server.js';
import { threadLaw } from './search-worker.js';
import { runTool } from './tools.js';
import type { ToMain, ToWorker } from './mcp-workers.js';

const port = parentPort!;
const { dataPath, nice } = workerData as { dataPath: string; nice: number };
// this thread's niceness only (Linux: setpriority(PRIO_PROCESS, 0) names the calling thread); raising it needs no
// privilege; where the platform refuses, the thread keeps the event loop's priority
if (nice > 0) {
  try { os.setPriority(Math.min(19, os.getPriority() + nice)); } catch { /* not permitted here: same priority */ }
}
let version = 0;

const post = (m: ToMain, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);

const utf8 = new TextEncoder();
/** a stream's chunk for the main thread: frames made here as text go as UTF-8 bytes handed over without a copy */
function chunk(c: string | Uint8Array): { data: Uint8Array | string; transfer?: ArrayBuffer[] } {
  if (typeof c !== 'string') return { data: c };
  const data = utf8.encode(c);
  return { data, transfer: transferOf(data) };
}

function run(tool: string, args: unknown, now: number): unknown {
  return runTool(tool, { law: threadLaw(dataPath, version), now }, args);
}

const host = new McpHost(
  () => buildMcpServer(run, (tool, err) => post({ t: 'log', msg: 'law tool failed', tool, err: err.message })),
  (sid) => post({ t: 'ended', sid }),
);

async function onMessage(m: ToWorker): Promise<void> {
  version = m.version;
  switch (m.t) {
    case 'http': {
      const out = await host.handle(m.req).catch((e: Error) => ({ status: 500, headers: {}, contentType: 'application/json', body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: `Internal error: ${e.message}` }, id: null })) }));
      return post({ t: 'res', rid: m.rid, out }, transferOf(out.body));
    }
    case 'stream':
      return host.stream(m.rid, m.req, {
        write: (c) => { const { data, transfer } = chunk(c); post({ t: 'chunk', rid: m.rid, data }, transfer); },
        end: () => post({ t: 'end', rid: m.rid }),
      });
    case 'cancel':
      return host.cancel(m.rid);
    case 'sse-open':
      return host.sseOpen(m.sid, {
        write: (c) => { const { data, transfer } = chunk(c); post({ t: 'sse', sid: m.sid, data }, transfer); },
        end: () => post({ t: 'sse-end', sid: m.sid }),
      });
    case 'sse-post':
      return post({ t: 'checked', rid: m.rid, result: host.ssePost(m.rid, m.body) });
    case 'sse-release':
      return host.sseRelease(m.sid, m.rid, m.now);
    case 'close':
      return host.close(m.sid);
  }
}

port.on('message', (m: ToWorker) => void onMessage(m).catch((e: Error) => post({ t: 'log', msg: 'MCP worker message failed', tool: m.t, err: e.message })));
