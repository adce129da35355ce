// Where this server's MCP sessions are hosted, as api/mcp.ts sees it: the main thread (LocalBackend: McpHost here,
// the tools through the law pool) or the law worker threads (McpWorkers in mcp-workers.ts: the protocol and the tools
// in the worker a session is pinned to, the main thread only moves bytes).
import { McpHost, type HttpIn, type HttpOut, type SseChecked, type Sink } from './mcp-host.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export type { HttpIn, HttpOut, SseChecked, Sink } from './mcp-host.js';

export interface McpBackend {
  /** 'main' or 'worker' (health and the benches say where the protocol runs) */
  readonly where: 'main' | 'worker';
  /** requests waiting for a worker thread */
  readonly queued: number;
  /** called when a session ended on its host's side (DELETE, closed, its worker stopped) */
  onEnded: (sid: string) => void;
  /** a Streamable HTTP POST or DELETE (sid absent: a new session) */
  handle(req: HttpIn): Promise<HttpOut>;
  /** GET /mcp: the session's SSE stream into sink; the returned function stops it (client gone) */
  stream(req: HttpIn, sink: Sink): () => void;
  /** a new HTTP+SSE session: its outgoing messages as SSE frames into sink */
  sseOpen(sid: string, sink: Sink): void;
  /** check a POST body of an SSE session where the session lives (its messages then wait for sseRelease) */
  ssePost(sid: string, body: Uint8Array): Promise<SseChecked>;
  /** deliver the checked messages at now, or drop them (now null: refused by the rate limit, session gone) */
  sseRelease(sid: string, rid: number, now: number | null): void;
  close(sid: string): void;
  stop(): Promise<void>;
}

/** The sessions on the main thread (SEJONG_LAW_WORKERS=0, or SEJONG_MCP_THREAD=main: tools through LawPool). */
export class LocalBackend implements McpBackend {
  readonly where = 'main' as const;
  onEnded: (sid: string) => void = () => undefined;
  private readonly host: McpHost;
  private rid = 0;

  constructor(make: () => McpServer, private readonly waiting: () => number) {
    this.host = new McpHost(make, (sid) => this.onEnded(sid));
  }

  get queued(): number { return this.waiting(); }

  handle(req: HttpIn): Promise<HttpOut> {
    return this.host.handle(req);
  }

  stream(req: HttpIn, sink: Sink): () => void {
    const rid = ++this.rid;
    void this.host.stream(rid, req, sink).catch(() => sink.end());
    return () => this.host.cancel(rid);
  }

  sseOpen(sid: string, sink: Sink): void {
    void this.host.sseOpen(sid, sink).catch(() => sink.end());
  }

  ssePost(_sid: string, body: Uint8Array): Promise<SseChecked> {
    return Promise.resolve(this.host.ssePost(++this.rid, body));
  }

  sseRelease(sid: string, rid: number, now: number | null): void {
    this.host.sseRelease(sid, rid, now);
  }

  close(sid: string): void {
    this.host.close(sid);
  }

  stop(): Promise<void> {
    return this.host.closeAll();
  }
}
