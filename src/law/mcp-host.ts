// The MCP protocol side of this server's sessions, in whichever thread hosts them: a law worker thread
// (mcp-workers.ts routes each session to one), or the main thread (SEJONG_LAW_WORKERS=0, or SEJONG_MCP_THREAD=main).
// Streamable HTTP sessions run the SDK's web-standard transport; HTTP+SSE sessions a transport whose outgoing
// messages go to a sink (the session's SSE stream on the main thread). The host knows nothing of uWS, limits or
// admission: the main thread's api/mcp.ts admits, counts and moves the bytes.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { callTime } from './mcp-server.js';
import { releaseSettledJsonStreams } from './mcp-sdk-fixes.js';

/** One Streamable HTTP request as the main thread forwards it. */
export interface HttpIn {
  method: string;
  /** the full request URL (the SDK reads it into requestInfo) */
  url: string;
  headers: Record<string, string>;
  /** the raw POST body */
  body?: Uint8Array;
  /** the session (an existing one); absent: a new session (initialize) */
  sid?: string;
  /** the server clock at the request (the tools' "today") */
  now: number;
}

/** The answer to write back as it is. */
export interface HttpOut {
  status: number;
  headers: Record<string, string>;
  contentType: string;
  body: Uint8Array;
  /** set when this request made a new session */
  sessionId?: string;
}

/** Where a stream's bytes go (an SSE stream of the main thread). end(reason): the session is gone. */
export interface Sink {
  write(chunk: string | Uint8Array): void;
  end(reason?: string): void;
}

/** A checked SSE POST body: its message count and where they wait; what is wrong with it; or the session is gone. */
export type SseChecked = { count: number; rid: number } | { error: string } | { gone: string };

const EMPTY = new Uint8Array(0);

/** the text of b (no copy of the bytes first) */
const utf8 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

/**
 * The transfer list that hands b's bytes to another thread without a copy, when b spans its whole ArrayBuffer (a
 * body read into one buffer of its declared size, an answer made here); undefined (copied) for a view into a shared
 * pool or a larger buffer. b is unusable here afterwards.
 */
export function transferOf(b: Uint8Array | undefined): ArrayBuffer[] | undefined {
  return b && b.byteLength > 0 && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? [b.buffer] : undefined;
}

/** A JSON-RPC error answer made without the SDK (session unknown, bad JSON, worker gone). */
export function rpcOut(status: number, code: number, message: string, retryAfter?: number): HttpOut {
  const body = { jsonrpc: '2.0', error: { code, message, ...(retryAfter ? { data: { retry_after: retryAfter } } : {}) }, id: null };
  return { status, headers: retryAfter ? { 'retry-after': String(retryAfter) } : {}, contentType: 'application/json', body: Buffer.from(JSON.stringify(body)) };
}

/** The server side of one HTTP+SSE session: messages out to the sink as `event: message` frames. */
class SinkTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private closed = false;
  constructor(readonly sessionId: string, private readonly sink: Sink) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('SSE session closed');
    this.sink.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sink.end();
    this.onclose?.();
  }
}

function webRequest(req: HttpIn): Request {
  return new Request(req.url, { method: req.method, headers: req.headers });
}

async function toOut(res: Response): Promise<HttpOut> {
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (k !== 'content-type' && k !== 'content-length') headers[k] = v; });
  const body = res.body ? new Uint8Array(await res.arrayBuffer()) : EMPTY;
  return { status: res.status, headers, contentType: res.headers.get('content-type') ?? 'application/json', body };
}

export class McpHost {
  private readonly http = new Map<string, WebStandardStreamableHTTPServerTransport>();
  private readonly sse = new Map<string, SinkTransport>();
  private readonly streams = new Map<number, ReadableStreamDefaultReader<Uint8Array>>();
  private readonly held = new Map<number, JSONRPCMessage[]>();

  /** make: a fresh McpServer per session; ended(sid): a session ended here (DELETE, closed, evicted). */
  constructor(private readonly make: () => McpServer, private readonly ended: (sid: string) => void) {}

  get sessions(): number { return this.http.size + this.sse.size; }

  /** A POST or DELETE of Streamable HTTP (and a GET the caller does not stream). */
  async handle(req: HttpIn): Promise<HttpOut> {
    let parsedBody: unknown;
    if (req.method === 'POST') {
      try {
        parsedBody = JSON.parse(utf8(req.body ?? EMPTY));
      } catch {
        return rpcOut(400, -32700, 'Parse error: the body is not valid JSON');
      }
    }
    const opts = { parsedBody, authInfo: callTime(req.now) };
    if (req.sid !== undefined) {
      const t = this.http.get(req.sid);
      if (!t) return rpcOut(404, -32001, `Session not found: ${req.sid.slice(0, 60)} (initialize again)`);
      return toOut(await t.handleRequest(webRequest(req), opts));
    }
    const server = this.make();
    const t: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => { this.http.set(id, t); },
      onsessionclosed: (id) => this.drop(id, t),
    });
    releaseSettledJsonStreams(t);
    t.onclose = () => {
      if (t.sessionId) this.drop(t.sessionId, t);
      void server.close().catch(() => undefined);
    };
    await server.connect(t);
    const out = await toOut(await t.handleRequest(webRequest(req), opts));
    if (t.sessionId && this.http.get(t.sessionId) === t) out.sessionId = t.sessionId;
    else void t.close(); // not an initialize: no session was made
    return out;
  }

  private drop(id: string, t: WebStandardStreamableHTTPServerTransport): void {
    if (this.http.get(id) !== t) return;
    this.http.delete(id);
    this.ended(id);
  }

  /** GET /mcp: the session's server-to-client SSE stream into sink until it ends or cancel(rid). */
  async stream(rid: number, req: HttpIn, sink: Sink): Promise<void> {
    const t = req.sid !== undefined ? this.http.get(req.sid) : undefined;
    if (!t) {
      sink.write(`event: error\ndata: ${JSON.stringify({ message: 'Mcp-Session-Id header of an initialized session is required' })}\n\n`);
      return sink.end();
    }
    const res = await t.handleRequest(webRequest(req));
    if (!res.body) return sink.end();
    const reader = res.body.getReader();
    this.streams.set(rid, reader);
    try {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) break;
        if (value) sink.write(value);
      }
    } finally {
      this.streams.delete(rid);
      sink.end();
    }
  }

  cancel(rid: number): void {
    void this.streams.get(rid)?.cancel().catch(() => undefined);
  }

  /** A new HTTP+SSE session sid (the main thread chose the id and announced the endpoint). */
  async sseOpen(sid: string, sink: Sink): Promise<void> {
    const server = this.make();
    const t = new SinkTransport(sid, sink);
    this.sse.set(sid, t);
    t.onclose = () => {
      if (this.sse.get(sid) === t) { this.sse.delete(sid); this.ended(sid); }
      void server.close().catch(() => undefined);
    };
    await server.connect(t);
  }

  /**
   * A POST body for an SSE session, checked here (JSON, each a JSON-RPC 2.0 message): its messages wait under rid
   * for sseRelease (the main thread counts them against the rate limit first); else what is wrong with it.
   */
  ssePost(rid: number, raw: Uint8Array): SseChecked {
    let data: unknown;
    try {
      data = JSON.parse(utf8(raw));
    } catch (e) {
      return { error: `The body is not valid JSON: ${(e as Error).message}` };
    }
    const list = Array.isArray(data) ? data : [data];
    const msgs: JSONRPCMessage[] = [];
    for (const [i, m] of list.entries()) {
      const r = JSONRPCMessageSchema.safeParse(m);
      if (!r.success) return { error: `Expected a JSON-RPC 2.0 message for body${Array.isArray(data) ? `[${i}]` : ''}` };
      msgs.push(r.data);
    }
    this.held.set(rid, msgs);
    return { count: msgs.length, rid };
  }

  /** The held messages of rid go to the session (now: the request's time) or are dropped (now null). */
  sseRelease(sid: string, rid: number, now: number | null): void {
    const msgs = this.held.get(rid);
    this.held.delete(rid);
    if (msgs && now !== null) this.sseDeliver(sid, msgs, now);
  }

  /** Messages for an SSE session; its answers go to the sink. */
  sseDeliver(sid: string, msgs: JSONRPCMessage[], now: number): void {
    const t = this.sse.get(sid);
    if (!t) return;
    for (const m of msgs) t.onmessage?.(m, { authInfo: callTime(now) });
  }

  /** End a session of either kind (evicted, client gone, server stopping). */
  close(sid: string): void {
    void this.http.get(sid)?.close().catch(() => undefined);
    void this.sse.get(sid)?.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    for (const sid of [...this.http.keys(), ...this.sse.keys()]) this.close(sid);
  }
}
