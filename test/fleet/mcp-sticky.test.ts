// MCP stickiness through HAProxy over three real nodes: SSE sessions (GET /mcp/sse + POST /mcp/messages) sticky by
// client address, Streamable HTTP sessions (/mcp) sticky by the Mcp-Session-Id learned from the initialize answer.
// Several SDK clients (each from its own loopback address) open sessions of both transports and call a tool many
// times: every request of a session is answered by the node that opened it (HAProxy names it in X-Sejong-Backend).
import t from 'tap';
import { Agent, fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { enginesMissing } from '../helpers/engines.js';
import { haproxyMissing, startFleet } from '../helpers/fleet.js';

const missing = enginesMissing() ?? haproxyMissing();
if (missing) {
  t.test('MCP stickiness behind HAProxy', { skip: missing }, () => undefined);
} else {
  const fleet = await startFleet({
    nodes: 3,
    env: { SEJONG_MCP_RATE_PER_SECOND: '100000', SEJONG_MCP_RATE_BURST: '100000', SEJONG_LAW_WORKERS: '0' },
  });
  t.teardown(() => fleet.close());

  interface Probe { client: Client; backends: Set<string>; statuses: number[]; agent: Agent }
  /** an SDK client whose every request leaves from `addr` and whose answers' X-Sejong-Backend are collected */
  async function open(kind: 'sse' | 'http', addr: string): Promise<Probe> {
    const agent = new Agent({ localAddress: addr });
    const backends = new Set<string>();
    const statuses: number[] = [];
    const f = (async (url: string | URL, init?: RequestInit) => {
      const r = await undiciFetch(url, { ...(init as object), dispatcher: agent });
      const b = r.headers.get('x-sejong-backend');
      if (b) backends.add(b);
      statuses.push(r.status);
      return r;
    }) as unknown as FetchLike;
    const client = new Client({ name: `sticky-${kind}-${addr}`, version: '1.0.0' });
    const transport = kind === 'sse'
      ? new SSEClientTransport(new URL(fleet.url + '/mcp/sse'), { fetch: f })
      : new StreamableHTTPClientTransport(new URL(fleet.url + '/mcp'), { fetch: f });
    await client.connect(transport);
    return { client, backends, statuses, agent };
  }

  const CLIENTS = 6;
  const CALLS = Number(process.env.FLEET_MCP_CALLS ?? 25);
  const addrs = Array.from({ length: CLIENTS }, (_, i) => `127.${1 + i * 41}.${(i * 89) % 250}.${10 + i * 37}`);

  for (const kind of ['http', 'sse'] as const) {
    t.test(`${kind === 'sse' ? 'SSE' : 'Streamable HTTP'}: ${CLIENTS} clients x ${CALLS} tool calls, each session on one node`, async (t) => {
      const probes = await Promise.all(addrs.map((a) => open(kind, a)));
      t.teardown(async () => { await Promise.all(probes.map((p) => p.client.close())); await Promise.all(probes.map((p) => p.agent.close())); });
      const results = await Promise.all(probes.map(async (p) => {
        const out: Array<{ isError: boolean; total: unknown }> = [];
        for (let i = 0; i < CALLS; i++) {
          const r = (await p.client.callTool({ name: 'list_laws', arguments: { limit: 5 } })) as { isError?: boolean; structuredContent?: { total?: unknown } };
          out.push({ isError: r.isError === true, total: r.structuredContent?.total });
        }
        return out;
      }));
      for (const [i, p] of probes.entries()) {
        t.equal(p.backends.size, 1, `client ${addrs[i]}: every request answered by one node (${[...p.backends].join(', ')})`);
        t.same(p.statuses.filter((s) => s >= 400), [], `client ${addrs[i]}: no 4xx/5xx (no "session not found")`);
        t.same(results[i]!.filter((r) => r.isError || r.total !== 0), [], `client ${addrs[i]}: ${CALLS} answers of the empty store, none an error`);
      }
      const used = new Set(probes.flatMap((p) => [...p.backends]));
      if (kind === 'http') t.equal(used.size, 3, 'initialize is balanced round-robin: the sessions are spread over the three nodes');
      else t.equal(used.size, 3, 'source hashing spreads these six client addresses over the three nodes');
    });
  }

  t.test('without stickiness a session is unknown on the other nodes (what the balancer rule prevents)', async (t) => {
    const p = await open('http', '127.0.0.90');
    t.teardown(async () => { await p.client.close(); await p.agent.close(); });
    await p.client.listTools();
    const owner = [...p.backends][0]!;
    const sid = (p.client.transport as StreamableHTTPClientTransport).sessionId!;
    t.match(sid, /^[0-9a-f-]{36}$/);
    for (const node of fleet.nodes) {
      const r = await fetch(node.url + '/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      const body = (await r.json()) as { error?: { code: number; message: string }; result?: { tools: unknown[] } };
      if (node.name === owner) {
        t.equal(r.status, 200, `${node.name} (the owner) answers the session`);
        t.ok((body.result?.tools.length ?? 0) >= 8, 'with the tool list');
      } else {
        t.equal(r.status, 404, `${node.name} does not know the session`);
        t.match(body.error?.message, /Session not found/);
      }
    }
  });

  // the last part: the killed node stays down (close() removes the rest)
  t.test('the owner of a session is killed: its sessions end, new sessions go to the nodes left', async (t) => {
    const p = await open('http', '127.0.0.91');
    await p.client.listTools();
    const owner = fleet.nodes.find((n) => n.name === [...p.backends][0])!;
    await owner.kill('SIGKILL');
    // HAProxy either retries the dead server's closed port elsewhere (404: unknown session) or answers 503
    await t.rejects(p.client.callTool({ name: 'list_laws', arguments: {} }), 'the session is gone with its node');
    await p.client.close().catch(() => undefined);
    await p.agent.close();
    const q = await open('http', '127.0.0.92');
    for (let i = 0; i < 5; i++) {
      const r = (await q.client.callTool({ name: 'list_laws', arguments: {} })) as { isError?: boolean };
      t.notOk(r.isError, `call ${i + 1} of a new session works`);
    }
    t.equal(q.backends.size, 1);
    t.notOk(q.backends.has(owner.name), 'the new session lives on a node that is up');
    await q.client.close();
    await q.agent.close();
  });
}
