// MCP transports for the legal-information tools: HTTP+SSE (protocol revision 2024-11-05) at GET /mcp/sse with its
// message endpoint POST /mcp/messages?sessionId=…, Streamable HTTP at /mcp, and GET /mcp/health. No key (the spec's
// client configurations use none).
import { randomUUID } from 'node:crypto';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { reply, type Ctx, type HandlerResult, type RouteDef, type StreamHandle } from '../server/types.js';
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import { createMcpServer, getLaw, getLawPool, MCP_PROTOCOL, startLaw } from '../law/service.js';
import { SessionRegistry, type McpState, type Refusal, type SessionEntry, type SseSession } from '../law/mcp-sessions.js';
import { ok } from './schemas/common.js';
import { jsonRpc, mcpHealth } from './schemas/system.js';

/** The server side of one SSE session: messages out as `event: message`, messages in through POST. */
class UwsSseTransport implements SseSession {
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

/** This server's MCP sessions (per server instance, never module-level) over the per-address limits chosen at start. */
function mcpState(services: Services): McpState {
  let st = services.ext.mcp;
  if (!st) {
    const { config, clock, mcpLimits: limits } = services;
    const now = () => clock.now();
    st = {
      sessions: new SessionRegistry({ max: config.mcpMaxSessions, idleMs: config.mcpIdleSeconds * 1000 }, limits, now),
      limits,
      http: new Map(), sse: new Map(),
    };
    services.ext.mcp = st;
  }
  return st;
}

const RATE_CODE = -32029;
const SLOT_REFRESH_MS = 15_000;
const BUSY_CODE = -32030;

function rpcError(status: number, code: number, message: string, retryAfter?: number) {
  const headers: Record<string, string> = retryAfter ? { 'retry-after': String(retryAfter) } : {};
  return reply.json({ jsonrpc: '2.0', error: { code, message, ...(retryAfter ? { data: { retry_after: retryAfter } } : {}) }, id: null }, status, headers);
}

/** A handler whose engine (Redis) is away answers a JSON-RPC error 503 with Retry-After, not the REST error body. */
function rpcBusy(fn: (ctx: Ctx) => HandlerResult) {
  return async (ctx: Ctx) => {
    try {
      return await fn(ctx);
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'SERVICE_BUSY') throw e;
      return rpcError(503, BUSY_CODE, `SERVICE_BUSY: ${e.message}`, Number(e.headers?.['retry-after'] ?? 1));
    }
  };
}

/** Take n tokens of the client's bucket: null when allowed, else the 429 answer (503 when Redis is away). */
async function limited(ctx: Ctx, n = 1) {
  const wait = await mcpState(ctx.services).limits.take(ctx.ip, n, ctx.services.clock.now());
  if (!wait) return null;
  const { mcpRatePerSecond: rate, mcpRateBurst: burst } = ctx.services.config;
  return rpcError(429, RATE_CODE, `RATE_LIMITED: this client address sends more than ${rate} MCP messages a second (burst ${burst}); retry after ${wait} s`, wait);
}

async function openSse(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const st = mcpState(ctx.services);
  const refuse = (code: string, message: string, retryAfter: number) => {
    stream.write(`event: error\ndata: ${JSON.stringify({ code, message, retry_after: retryAfter })}\n\n`);
    stream.end();
  };
  const transport = new UwsSseTransport(stream, '/mcp/messages');
  let slot: SessionEntry | Refusal;
  try {
    const wait = await st.limits.take(ctx.ip, 1, ctx.services.clock.now());
    if (wait) return refuse('RATE_LIMITED', `too many MCP requests from this client address; retry after ${wait} s`, wait);
    slot = await st.sessions.admit('sse', ctx.ip, () => transport.close());
  } catch (e) {
    if (!(e instanceof ApiError)) throw e; // Redis away (shared mode): SERVICE_BUSY on the stream
    return refuse(e.code, e.message, Number(e.headers?.['retry-after'] ?? 1));
  }
  if ('status' in slot) return refuse(slot.status === 429 ? 'RATE_LIMITED' : 'SERVICE_BUSY', slot.message, slot.retryAfter);
  if (stream.closed()) return st.sessions.remove(slot); // the client left while the slot was claimed
  const server = createMcpServer(ctx.services);
  const id = transport.sessionId;
  st.sessions.bind(slot, id);
  st.sse.set(id, transport);
  transport.onclose = () => {
    st.sessions.remove(slot);
    st.sse.delete(id);
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

async function postMessage(ctx: Ctx) {
  const st = mcpState(ctx.services);
  const id = ctx.rawQuery.get('sessionId') ?? '';
  const slot = st.sessions.get('sse', id);
  const transport = st.sse.get(id);
  if (!slot || !transport) throw new ApiError('NOT_FOUND', `No open MCP SSE session "${id.slice(0, 60)}"; open GET /mcp/sse first and post to the endpoint it announces`, { field: 'sessionId' });
  const msgs = parseRpc(ctx.rawBody);
  const over = await limited(ctx, msgs.length);
  if (over) return over;
  if (!(await st.sessions.touch(slot))) throw new ApiError('NOT_FOUND', `The MCP SSE session "${id.slice(0, 60)}" ended (an idle session of this client address made room for a newer one); open GET /mcp/sse again`, { field: 'sessionId' });
  for (const m of msgs) transport.receive(m);
  return reply.make({ status: 202, body: 'Accepted', contentType: 'text/plain' });
}

/**
 * The request as the SDK's web-standard transport takes it. Without a body: every POST hands the transport the
 * already parsed JSON (`parsedBody`), which it uses instead of reading one — and a body would cost a stream per
 * call (about half a millisecond of the main thread under a flood).
 */
function webRequest(ctx: Ctx): Request {
  const url = new URL(ctx.path + (ctx.rawQuery.size ? `?${ctx.rawQuery}` : ''), ctx.services.baseUrl());
  return new Request(url, { method: ctx.method, headers: ctx.headers });
}

async function toReply(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (k !== 'content-type' && k !== 'content-length') headers[k] = v; });
  const body = Buffer.from(await res.arrayBuffer());
  return reply.make({ status: res.status, headers, body, contentType: res.headers.get('content-type') ?? 'application/json' });
}

async function streamableHandle(ctx: Ctx) {
  const st = mcpState(ctx.services);
  const sid = ctx.headers['mcp-session-id'];
  let parsedBody: unknown;
  if (ctx.method === 'POST') {
    try {
      parsedBody = JSON.parse(ctx.rawBody.toString('utf8'));
    } catch {
      return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
    }
  }
  const over = await limited(ctx, Array.isArray(parsedBody) ? Math.max(1, parsedBody.length) : 1);
  if (over) return over;
  const slot = sid ? st.sessions.get('http', sid) : undefined;
  let transport = slot ? st.http.get(slot.id) : undefined;
  if (slot && transport && (await st.sessions.touch(slot))) {
    return toReply(await transport.handleRequest(webRequest(ctx), { parsedBody }));
  }
  if (sid) return rpcError(404, -32001, `Session not found: ${sid.slice(0, 60)} (initialize again)`);
  if (ctx.method !== 'POST') return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  // a new session: reserve its slot first (concurrent initialize calls cannot overshoot the caps)
  const fresh = await st.sessions.admit('http', ctx.ip, () => transport?.close());
  if ('status' in fresh) return rpcError(fresh.status, fresh.status === 429 ? RATE_CODE : BUSY_CODE, fresh.message, fresh.retryAfter);
  const server = createMcpServer(ctx.services);
  const t: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (id) => { st.sessions.bind(fresh, id); st.http.set(id, t); },
    onsessionclosed: (id) => { st.sessions.remove(fresh); st.http.delete(id); },
  });
  transport = t;
  t.onclose = () => {
    st.sessions.remove(fresh);
    if (t.sessionId) st.http.delete(t.sessionId);
    void server.close().catch(() => undefined);
  };
  await server.connect(t);
  try {
    return toReply(await t.handleRequest(webRequest(ctx), { parsedBody }));
  } finally {
    if (!t.sessionId) { st.sessions.remove(fresh); void t.close(); } // not an initialize: no session was made
  }
}

async function streamableGet(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const st = mcpState(ctx.services);
  const sid = ctx.headers['mcp-session-id'];
  const slot = sid ? st.sessions.get('http', sid) : undefined;
  const transport = slot ? st.http.get(slot.id) : undefined;
  const used = slot && transport ? await st.sessions.touch(slot).catch(() => false) : false;
  if (!slot || !transport || !used) {
    stream.write(`event: error\ndata: ${JSON.stringify({ message: 'Mcp-Session-Id header of an initialized session is required' })}\n\n`);
    stream.end();
    return;
  }
  const res = await transport.handleRequest(webRequest(ctx));
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
  const st = mcpState(services);
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
    corpus: { statutes, admin_rules: rules, articles, indexed_articles: law.indexedArticles(), corpus_date: info.corpus_date, imported_at: info.imported_at, last_sync: info.last_sync, empty: law.catalog.length === 0 },
    sessions: { sse: st.sessions.count('sse'), streamable_http: st.sessions.count('http'), max: services.config.mcpMaxSessions, per_client: services.config.mcpSessionsPerClient },
    law_workers: { threads: services.config.lawWorkers, queued: getLawPool(services).queued },
  };
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/mcp/sse', auth: 'none', summary: 'MCP HTTP+SSE channel (protocol 2024-11-05): the first event `endpoint` names the message URL', tags: ['law'], noRateLimit: true, noRequestLog: true, responses: { 200: { description: 'SSE stream: event endpoint, then JSON-RPC messages', contentType: 'text/event-stream' } }, stream: openSse },
  { method: 'POST', path: '/mcp/messages', auth: 'none', errors: ['INVALID_REQUEST', 'NOT_FOUND'], summary: 'MCP message endpoint of an SSE session (?sessionId=…); answers 202, the response arrives on the SSE channel', tags: ['law'], noRateLimit: true, noRequestLog: true, responses: { 202: { description: 'accepted; the answer arrives on the SSE channel', contentType: 'text/plain' } }, handler: rpcBusy(postMessage) },
  { method: 'POST', path: '/mcp', auth: 'none', errors: ['INVALID_REQUEST'], summary: 'MCP Streamable HTTP endpoint (JSON responses; Mcp-Session-Id after initialize)', tags: ['law'], noRateLimit: true, noRequestLog: true, responses: { 200: { description: 'JSON-RPC 2.0 answer (or batch); Mcp-Session-Id header after initialize', schema: jsonRpc }, 202: { description: 'notification or response accepted (no body)' } }, handler: rpcBusy(streamableHandle) },
  { method: 'DELETE', path: '/mcp', auth: 'none', summary: 'End a Streamable HTTP MCP session', tags: ['law'], noRateLimit: true, responses: { 200: { description: 'session ended (no body)' } }, handler: rpcBusy(streamableHandle) },
  { method: 'GET', path: '/mcp', auth: 'none', summary: 'Streamable HTTP server-to-client SSE stream of a session', tags: ['law'], noRateLimit: true, noRequestLog: true, responses: { 200: { description: 'SSE stream of server-to-client messages', contentType: 'text/event-stream' } }, stream: streamableGet },
  { method: 'GET', path: '/mcp/health', auth: 'none', summary: 'Health of the legal-information server: corpus counts and date, sessions', tags: ['law'], responses: ok('corpus counts and sessions', mcpHealth), handler: (ctx) => health(ctx.services) },
];

export async function start(services: Services): Promise<void> {
  await startLaw(services);
  const st = mcpState(services);
  getLawPool(services);
  // Streamable HTTP sessions unused for an hour end; full rate buckets are dropped
  const t = setInterval(() => { st.sessions.prune(3600_000, 'http'); st.limits.sweep(services.clock.now()); }, 600_000);
  t.unref();
  // this node's session slots are renewed (shared mode: a dead node's slots lapse after SLOT_LEASE_MS)
  const r = setInterval(() => void st.sessions.refresh().catch(() => undefined), SLOT_REFRESH_MS);
  r.unref();
  services.ext.mcpTimerStop = () => { clearInterval(t); clearInterval(r); };
}

export async function stop(services: Services): Promise<void> {
  services.ext.mcpTimerStop?.();
  await services.ext.mcp?.sessions.closeAll();
  services.ext.lawStop?.();
  services.ext.lawWatchStop?.();
  await services.ext.lawPool?.close();
  delete services.ext.lawPool;
}
