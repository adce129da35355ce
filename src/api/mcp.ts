// MCP transports for the legal-information tools: HTTP+SSE (protocol revision 2024-11-05) at GET /mcp/sse with its
// message endpoint POST /mcp/messages?sessionId=…, Streamable HTTP at /mcp, and GET /mcp/health. No key (the spec's
// client configurations use none).
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { reply, type Ctx, type RouteDef, type StreamHandle } from '../server/types.js';
import { ApiError } from '../server/errors.js';
import type { Services } from '../services.js';
import { createMcpServer, getLaw, MCP_PROTOCOL, startLaw } from '../law/service.js';

/** The server side of one SSE session: messages out as `event: message`, messages in through POST. */
class UwsSseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId: string;
  private closed = false;
  private keepAlive?: NodeJS.Timeout;

  constructor(private readonly stream: StreamHandle, private readonly endpoint: string) {
    this.sessionId = randomUUID();
  }

  async start(): Promise<void> {
    this.stream.write(`event: endpoint\ndata: ${this.endpoint}?sessionId=${this.sessionId}\n\n`);
    this.keepAlive = setInterval(() => this.stream.write(': keep-alive\n\n'), 25_000);
    this.keepAlive.unref();
    this.stream.onClose(() => void this.close());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE session closed');
    this.stream.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.stream.end();
    this.onclose?.();
  }
}

interface SseSession { transport: UwsSseTransport; server: McpServer }
interface HttpSession { transport: WebStandardStreamableHTTPServerTransport; server: McpServer; lastUsed: number }

const sse = new Map<string, SseSession>();
const streamable = new Map<string, HttpSession>();

function maxSessions(services: Services): number {
  return services.config.mcpMaxSessions;
}

async function openSse(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const { services } = ctx;
  if (sse.size >= maxSessions(services)) {
    stream.write(`event: error\ndata: ${JSON.stringify({ code: 'SERVICE_BUSY', message: `at most ${maxSessions(services)} MCP sessions; retry later` })}\n\n`);
    stream.end();
    return;
  }
  const transport = new UwsSseTransport(stream, '/mcp/messages');
  const server = createMcpServer(services);
  const id = transport.sessionId;
  sse.set(id, { transport, server });
  transport.onclose = () => {
    sse.delete(id);
    void server.close().catch(() => undefined);
  };
  await server.connect(transport);
}

function parseRpc(raw: Buffer): JSONRPCMessage[] {
  let data: unknown;
  try {
    data = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('INVALID_REQUEST', `The body is not valid JSON: ${(e as Error).message}`, { field: 'body' });
  }
  const list = Array.isArray(data) ? data : [data];
  return list.map((m, i) => {
    const r = JSONRPCMessageSchema.safeParse(m);
    if (!r.success) throw new ApiError('INVALID_REQUEST', `Expected a JSON-RPC 2.0 message for body${Array.isArray(data) ? `[${i}]` : ''}`, { field: 'body' });
    return r.data;
  });
}

function postMessage(ctx: Ctx) {
  const id = ctx.rawQuery.get('sessionId') ?? '';
  const s = sse.get(id);
  if (!s) throw new ApiError('NOT_FOUND', `No open MCP SSE session "${id.slice(0, 60)}"; open GET /mcp/sse first and post to the endpoint it announces`, { field: 'sessionId' });
  for (const m of parseRpc(ctx.rawBody)) s.transport.receive(m);
  return reply.make({ status: 202, body: 'Accepted', contentType: 'text/plain' });
}

function webRequest(ctx: Ctx): Request {
  const url = new URL(ctx.path + (ctx.rawQuery.size ? `?${ctx.rawQuery}` : ''), ctx.services.baseUrl());
  const headers = new Headers();
  for (const [k, v] of Object.entries(ctx.headers)) headers.set(k, v);
  const hasBody = ctx.method === 'POST' && ctx.rawBody.length > 0;
  return new Request(url, { method: ctx.method, headers, body: hasBody ? new Uint8Array(ctx.rawBody) : undefined });
}

async function toReply(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (k !== 'content-type' && k !== 'content-length') headers[k] = v; });
  const body = Buffer.from(await res.arrayBuffer());
  return reply.make({ status: res.status, headers, body, contentType: res.headers.get('content-type') ?? 'application/json' });
}

async function streamableHandle(ctx: Ctx) {
  const { services } = ctx;
  const sid = ctx.headers['mcp-session-id'];
  let session = sid ? streamable.get(sid) : undefined;
  if (!session) {
    if (sid) {
      return reply.json({ jsonrpc: '2.0', error: { code: -32001, message: `Session not found: ${sid.slice(0, 60)} (initialize again)` }, id: null }, 404);
    }
    if (ctx.method !== 'POST') {
      return reply.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null }, 400);
    }
    if (streamable.size >= maxSessions(services)) pruneStreamable(true);
    const server = createMcpServer(services);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => { streamable.set(id, { transport, server, lastUsed: Date.now() }); },
      onsessionclosed: (id) => { streamable.delete(id); },
    });
    transport.onclose = () => { if (transport.sessionId) streamable.delete(transport.sessionId); };
    await server.connect(transport);
    session = { transport, server, lastUsed: Date.now() };
  }
  session.lastUsed = Date.now();
  let parsedBody: unknown;
  if (ctx.method === 'POST') {
    try {
      parsedBody = JSON.parse(ctx.rawBody.toString('utf8'));
    } catch {
      return reply.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON' }, id: null }, 400);
    }
  }
  const res = await session.transport.handleRequest(webRequest(ctx), { parsedBody });
  return toReply(res);
}

/** Streamable HTTP sessions idle for an hour are dropped (or the oldest when full). */
function pruneStreamable(force = false): void {
  const cutoff = Date.now() - 3600_000;
  let oldest: [string, HttpSession] | null = null;
  for (const e of streamable) {
    if (e[1].lastUsed < cutoff) { streamable.delete(e[0]); void e[1].transport.close(); }
    else if (!oldest || e[1].lastUsed < oldest[1].lastUsed) oldest = e;
  }
  if (force && oldest) { streamable.delete(oldest[0]); void oldest[1].transport.close(); }
}

async function streamableGet(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const sid = ctx.headers['mcp-session-id'];
  const session = sid ? streamable.get(sid) : undefined;
  if (!session) {
    stream.write(`event: error\ndata: ${JSON.stringify({ message: 'Mcp-Session-Id header of an initialized session is required' })}\n\n`);
    stream.end();
    return;
  }
  const res = await session.transport.handleRequest(webRequest(ctx));
  if (!res.body) { stream.end(); return; }
  const reader = res.body.getReader();
  stream.onClose(() => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || stream.closed()) break;
    if (value) stream.write(Buffer.from(value));
  }
  stream.end();
}

export function health(services: Services) {
  const law = getLaw(services);
  const info = law.info();
  let statutes = 0, rules = 0, articles = 0;
  for (const d of law.catalog) {
    if (d.entity_type === 'law') statutes++;
    else rules++;
    articles += d.article_count;
  }
  return {
    status: 'ok',
    protocol_version: MCP_PROTOCOL,
    transports: { sse: '/mcp/sse', messages: '/mcp/messages', streamable_http: '/mcp' },
    corpus: { statutes, admin_rules: rules, articles, indexed_articles: law.search.N, corpus_date: info.corpus_date, imported_at: info.imported_at, last_sync: info.last_sync, empty: law.catalog.length === 0 },
    sessions: { sse: sse.size, streamable_http: streamable.size, max: services.config.mcpMaxSessions },
  };
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/mcp/sse', auth: 'none', summary: 'MCP HTTP+SSE channel (protocol 2024-11-05): the first event `endpoint` names the message URL', tags: ['law'], noRateLimit: true, noRequestLog: true, stream: openSse },
  { method: 'POST', path: '/mcp/messages', auth: 'none', summary: 'MCP message endpoint of an SSE session (?sessionId=…); answers 202, the response arrives on the SSE channel', tags: ['law'], noRateLimit: true, noRequestLog: true, handler: postMessage },
  { method: 'POST', path: '/mcp', auth: 'none', summary: 'MCP Streamable HTTP endpoint (JSON responses; Mcp-Session-Id after initialize)', tags: ['law'], noRateLimit: true, noRequestLog: true, handler: streamableHandle },
  { method: 'DELETE', path: '/mcp', auth: 'none', summary: 'End a Streamable HTTP MCP session', tags: ['law'], noRateLimit: true, handler: streamableHandle },
  { method: 'GET', path: '/mcp', auth: 'none', summary: 'Streamable HTTP server-to-client SSE stream of a session', tags: ['law'], noRateLimit: true, noRequestLog: true, stream: streamableGet },
  { method: 'GET', path: '/mcp/health', auth: 'none', summary: 'Health of the legal-information server: corpus counts and date, sessions', tags: ['law'], handler: (ctx) => health(ctx.services) },
];

export async function start(services: Services): Promise<void> {
  await startLaw(services);
  const t = setInterval(() => pruneStreamable(), 600_000);
  t.unref();
}

export async function stop(services: Services): Promise<void> {
  for (const s of [...sse.values()]) await s.transport.close().catch(() => undefined);
  for (const s of [...streamable.values()]) await s.transport.close().catch(() => undefined);
  sse.clear();
  streamable.clear();
  (services.ext.lawStop as (() => void) | undefined)?.();
  (services.ext.lawWatchStop as (() => void) | undefined)?.();
}
