// MCP transports for the legal-information tools: HTTP+SSE (protocol revision 2024-11-05) at GET /mcp/sse with its
// message endpoint POST /mcp/messages?sessionId=…, Streamable HTTP at /mcp, and GET /mcp/health. No key (the spec's
// client configurations use none). This module admits (the session registry, the per-address limits) and moves
// bytes; the protocol of each session (the SDK's transports, McpServer, the tools) runs where services.ext.mcp's
// backend hosts it: in the law worker the session is pinned to (law/mcp-workers.ts), or on this thread.
import { randomUUID } from 'node:crypto';
import { reply, type Ctx, type HandlerResult, type RouteDef, type StreamHandle } from '../server/types.js';
import { ApiError } from '../domain/errors.js';
import type { Services } from '../services.js';
import { createMcpBackend, getLaw, MCP_PROTOCOL, startLaw } from '../law/service.js';
import { SessionRegistry, type McpState, type Refusal, type SessionEntry } from '../law/mcp-sessions.js';
import type { HttpIn, HttpOut } from '../law/mcp-backend.js';
import { rpcOut } from '../law/mcp-host.js';
import { ok } from './schemas/common.js';
import { jsonRpc, mcpHealth } from './schemas/system.js';

/** This server's MCP sessions (per server instance, never module-level) over the per-address limits chosen at start. */
function mcpState(services: Services): McpState {
  let st = services.ext.mcp;
  if (!st) {
    const { config, clock, mcpLimits: limits } = services;
    const now = () => clock.now();
    const sessions = new SessionRegistry({ max: config.mcpMaxSessions, idleMs: config.mcpIdleSeconds * 1000 }, limits, now);
    const backend = createMcpBackend(services);
    // a Streamable HTTP session ended where it is hosted (DELETE, its worker stopped): its slot is free
    backend.onEnded = (sid) => { const e = sessions.get('http', sid); if (e) sessions.remove(e); };
    st = { sessions, limits, backend, sse: new Map() };
    services.ext.mcp = st;
  }
  return st;
}

const RATE_CODE = -32029;
const SLOT_REFRESH_MS = 15_000;
const BUSY_CODE = -32030;

/** A JSON-RPC error answered by the main thread (admission: rate limit, caps, unknown session), as the hosts make it. */
function rpcError(status: number, code: number, message: string, retryAfter?: number) {
  return toReply(rpcOut(status, code, message, retryAfter));
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

const bytes = (c: string | Uint8Array) => (typeof c === 'string' ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength));

async function openSse(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const st = mcpState(ctx.services);
  const refuse = (code: string, message: string, retryAfter: number) => {
    stream.write(`event: error\ndata: ${JSON.stringify({ code, message, retry_after: retryAfter })}\n\n`);
    stream.end();
  };
  const sid = randomUUID();
  let slot: SessionEntry | Refusal | undefined;
  let keepAlive: NodeJS.Timeout | undefined;
  let ended = false;
  // the session's end, from any side: the client left, evicted, the host closed it, its worker stopped (reason)
  const end = (reason?: string) => {
    if (ended) return;
    ended = true;
    clearInterval(keepAlive);
    if (reason && !stream.closed()) stream.write(`event: error\ndata: ${JSON.stringify({ code: 'SERVICE_BUSY', message: reason, retry_after: 1 })}\n\n`);
    stream.end();
    if (slot && !('status' in slot)) st.sessions.remove(slot);
    st.sse.delete(sid);
    st.backend.close(sid);
  };
  try {
    const wait = await st.limits.take(ctx.ip, 1, ctx.services.clock.now());
    if (wait) return refuse('RATE_LIMITED', `too many MCP requests from this client address; retry after ${wait} s`, wait);
    slot = await st.sessions.admit('sse', ctx.ip, () => end());
  } catch (e) {
    if (!(e instanceof ApiError)) throw e; // Redis away (shared mode): SERVICE_BUSY on the stream
    return refuse(e.code, e.message, Number(e.headers?.['retry-after'] ?? 1));
  }
  if ('status' in slot) return refuse(slot.status === 429 ? 'RATE_LIMITED' : 'SERVICE_BUSY', slot.message, slot.retryAfter);
  if (stream.closed()) return st.sessions.remove(slot); // the client left while the slot was claimed
  st.sessions.bind(slot, sid);
  st.sse.set(sid, end);
  stream.write(`event: endpoint\ndata: /mcp/messages?sessionId=${sid}\n\n`);
  keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), 25_000);
  keepAlive.unref();
  stream.onClose(() => end());
  st.backend.sseOpen(sid, { write: (c) => { if (!stream.closed()) stream.write(bytes(c)); }, end });
}

async function postMessage(ctx: Ctx) {
  const st = mcpState(ctx.services);
  const id = ctx.rawQuery.get('sessionId') ?? '';
  const slot = st.sessions.get('sse', id);
  const gone = () => new ApiError('NOT_FOUND', `No open MCP SSE session "${id.slice(0, 60)}"; open GET /mcp/sse first and post to the endpoint it announces`, { field: 'sessionId' });
  if (!slot || !st.sse.has(id)) throw gone();
  // the body is checked where the session lives (JSON, each a JSON-RPC 2.0 message); its messages wait there
  const checked = await st.backend.ssePost(id, ctx.rawBody);
  if ('gone' in checked) throw gone();
  if ('error' in checked) throw new ApiError('INVALID_REQUEST', checked.error, { field: 'body' });
  let now: number | null = null;
  try {
    const over = await limited(ctx, checked.count);
    if (over) return over;
    if (!(await st.sessions.touch(slot))) throw new ApiError('NOT_FOUND', `The MCP SSE session "${id.slice(0, 60)}" ended (an idle session of this client address made room for a newer one); open GET /mcp/sse again`, { field: 'sessionId' });
    now = ctx.services.clock.now();
  } finally {
    st.backend.sseRelease(id, checked.rid, now);
  }
  return reply.make({ status: 202, body: 'Accepted', contentType: 'text/plain' });
}

/** The request headers the SDK's transport reads (content negotiation, the session, the protocol, resumption). */
const MCP_HEADERS = ['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'] as const;

/** The request as the host takes it: the raw body bytes (the host parses them), its headers, the session, the time. */
function forward(ctx: Ctx, sid?: string): HttpIn {
  const headers: Record<string, string> = {};
  for (const h of MCP_HEADERS) { const v = ctx.headers[h]; if (v !== undefined) headers[h] = v; }
  const base = ctx.services.baseUrl();
  // the query as it came (a Streamable HTTP POST has none: no URLSearchParams is made for it)
  const url = (base.endsWith('/') ? base.slice(0, -1) : base) + ctx.path + (ctx.queryText ? `?${ctx.queryText}` : '');
  return { method: ctx.method, url, headers, body: ctx.method === 'POST' ? ctx.rawBody : undefined, sid, now: ctx.services.clock.now() };
}

function toReply(out: HttpOut) {
  return reply.make({ status: out.status, headers: out.headers, body: bytes(out.body) as Buffer, contentType: out.contentType });
}

/**
 * The messages a POST body holds, for the rate limit: a batch (`[`) is parsed here to count it (null: not JSON);
 * anything else counts one, and the host parses it (a bad body is its 400 -32700).
 */
function messageCount(raw: Buffer): number | null {
  let i = 0;
  while (i < raw.length && (raw[i] === 0x20 || raw[i] === 0x0a || raw[i] === 0x0d || raw[i] === 0x09)) i++;
  if (raw[i] !== 0x5b) return 1;
  try {
    const data: unknown = JSON.parse(raw.toString('utf8'));
    return Array.isArray(data) ? Math.max(1, data.length) : 1;
  } catch {
    return null;
  }
}

async function streamableHandle(ctx: Ctx) {
  const st = mcpState(ctx.services);
  const sid = ctx.headers['mcp-session-id'];
  const n = ctx.method === 'POST' ? messageCount(ctx.rawBody) : 1;
  if (n === null) return rpcError(400, -32700, 'Parse error: the body is not valid JSON');
  const over = await limited(ctx, n);
  if (over) return over;
  const slot = sid ? st.sessions.get('http', sid) : undefined;
  if (slot && (await st.sessions.touch(slot))) return toReply(await st.backend.handle(forward(ctx, sid)));
  if (sid) return rpcError(404, -32001, `Session not found: ${sid.slice(0, 60)} (initialize again)`);
  if (ctx.method !== 'POST') return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  // a new session: reserve its slot first (concurrent initialize calls cannot overshoot the caps)
  let made: string | undefined;
  const fresh = await st.sessions.admit('http', ctx.ip, () => { if (made) st.backend.close(made); });
  if ('status' in fresh) return rpcError(fresh.status, fresh.status === 429 ? RATE_CODE : BUSY_CODE, fresh.message, fresh.retryAfter);
  let out: HttpOut;
  try {
    out = await st.backend.handle(forward(ctx));
  } catch (e) {
    st.sessions.remove(fresh);
    throw e;
  }
  if (!out.sessionId) st.sessions.remove(fresh); // not an initialize: no session was made
  else {
    made = out.sessionId;
    st.sessions.bind(fresh, made);
    if (st.sessions.get('http', made) !== fresh) st.backend.close(made); // its slot went while it was made
  }
  return toReply(out);
}

async function streamableGet(ctx: Ctx, stream: StreamHandle): Promise<void> {
  const st = mcpState(ctx.services);
  const sid = ctx.headers['mcp-session-id'];
  const slot = sid ? st.sessions.get('http', sid) : undefined;
  const used = slot ? await st.sessions.touch(slot).catch(() => false) : false;
  if (!slot || !used) {
    stream.write(`event: error\ndata: ${JSON.stringify({ message: 'Mcp-Session-Id header of an initialized session is required' })}\n\n`);
    stream.end();
    return;
  }
  const stop = st.backend.stream(forward(ctx, sid), { write: (c) => { if (!stream.closed()) stream.write(bytes(c)); }, end: () => stream.end() });
  stream.onClose(stop);
}

export function health(services: Services) {
  const law = getLaw(services);
  const st = mcpState(services);
  const info = law.info();
  const { statutes, admin_rules: rules, articles } = law.counts(); // the summary record: the catalogue stays unloaded
  return {
    status: 'ok',
    protocol_version: MCP_PROTOCOL,
    transports: { sse: '/mcp/sse', messages: '/mcp/messages', streamable_http: '/mcp' },
    corpus: { statutes, admin_rules: rules, articles, indexed_articles: law.indexedArticles(), corpus_date: info.corpus_date, imported_at: info.imported_at, last_sync: info.last_sync, empty: statutes + rules === 0 },
    sessions: { sse: st.sessions.count('sse'), streamable_http: st.sessions.count('http'), max: services.config.mcpMaxSessions, per_client: services.config.mcpSessionsPerClient },
    law_workers: { threads: services.config.lawWorkers, queued: st.backend.queued },
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
  await services.ext.mcp?.backend.stop();
  services.ext.lawStop?.();
  services.ext.lawWatchStop?.();
  await services.ext.lawPool?.close();
  delete services.ext.lawPool;
}
