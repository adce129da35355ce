// The MCP sessions hosted in the law worker threads (plain worker_threads: a session stays on the thread that made
// it, which Piscina cannot do). The main thread keeps admission (api/mcp.ts: the session registry, the per-address
// limits) and only moves bytes: {session, method, url, headers, raw body} in, {status, headers, body} out, and the
// SSE frames of a session's stream. A new session goes to the thread holding the fewest. A thread that dies ends its
// sessions (their streams get an error event, waiting requests a 503) and is started again; the server stays up.
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { rpcOut, transferOf, type HttpIn, type HttpOut, type SseChecked, type Sink } from './mcp-host.js';
import type { McpBackend } from './mcp-backend.js';
import { lawThreadLimits } from './search-pool.js';
import type { LawCpus } from './thread-affinity.js';

/** main → worker (each with the main thread's catalogue version: a new one reloads the worker's law store) */
export type ToWorker = { version: number } & (
  | { t: 'http'; rid: number; req: HttpIn }
  | { t: 'stream'; rid: number; req: HttpIn }
  | { t: 'cancel'; rid: number }
  | { t: 'sse-open'; sid: string }
  | { t: 'sse-post'; rid: number; body: Uint8Array }
  | { t: 'sse-release'; sid: string; rid: number; now: number | null }
  | { t: 'close'; sid: string });

/** worker → main */
export type ToMain =
  | { t: 'res'; rid: number; out: HttpOut }
  | { t: 'checked'; rid: number; result: SseChecked }
  | { t: 'chunk'; rid: number; data: string | Uint8Array }
  | { t: 'end'; rid: number }
  | { t: 'sse'; sid: string; data: string | Uint8Array }
  | { t: 'sse-end'; sid: string }
  | { t: 'ended'; sid: string }
  | { t: 'log'; msg: string; tool: string; err: string };

export interface McpWorkersOptions {
  dataPath: string;
  workers: number;
  /** requests that may wait for a thread; beyond it 503 with Retry-After */
  queueSize: number;
  /** niceness the threads add to their own (Linux: per thread); 0 = none */
  nice?: number;
  /** the threads' CPUs (thread-affinity.ts); default any */
  cpus?: LawCpus;
  /** V8 young-generation limit of each thread in MB (lawThreadLimits) */
  youngMb?: number;
  /** V8 old-generation limit of each thread in MB (lawThreadLimits) */
  heapMb?: number;
  /** the main thread's law catalogue version */
  version: () => number;
  log: (level: 'error' | 'warn', obj: Record<string, unknown>) => void;
}

interface Thread {
  worker: Worker;
  /** when it was started (a thread that dies young is restarted after a pause, not at once) */
  born: number;
  /** it has exited; its replacement is on the way */
  dead?: boolean;
  /** sessions pinned here */
  sessions: Set<string>;
  pending: Map<number, (out: HttpOut) => void>;
  checks: Map<number, (r: SseChecked) => void>;
  streams: Map<number, Sink>;
  sse: Map<string, Sink>;
}

const isLive = (th: Thread): boolean => !th.dead;

/** a is the better home for a new session than b: it holds fewer sessions, or as many and fewer requests in flight */
function lighter(a: Thread, b: Thread): boolean {
  if (a.sessions.size !== b.sessions.size) return a.sessions.size < b.sessions.size;
  return a.pending.size < b.pending.size;
}

/** the lighter of two threads; on a tie the one met first (best) */
const lighterOf = (best: Thread, th: Thread): Thread => (lighter(th, best) ? th : best);

const ENTRY = new URL(import.meta.url.endsWith('.js') ? './mcp-worker.js' : './mcp-boot.mjs', import.meta.url);

export class McpWorkers implements McpBackend {
  readonly where = 'worker' as const;
  onEnded: (sid: string) => void = () => undefined;
  /** the threads (tests end one to see its sessions end) */
  readonly threads: Thread[] = [];
  private readonly pin = new Map<string, Thread>();
  private rid = 0;
  private stopping = false;
  /** ms before a thread that died young is replaced (doubles while they keep dying young) */
  private pause = 0;

  constructor(private readonly opts: McpWorkersOptions) {
    for (let i = 0; i < opts.workers; i++) this.threads.push(this.spawn());
  }

  get queued(): number {
    let n = 0;
    for (const th of this.threads) n += Math.max(0, th.pending.size - 1);
    return n;
  }

  private spawn(): Thread {
    const worker = new Worker(fileURLToPath(ENTRY), { workerData: { dataPath: this.opts.dataPath, nice: this.opts.nice ?? 0, cpus: this.opts.cpus ?? 'any' }, resourceLimits: lawThreadLimits(this.opts.youngMb, this.opts.heapMb) });
    const th: Thread = { worker, born: Date.now(), sessions: new Set(), pending: new Map(), checks: new Map(), streams: new Map(), sse: new Map() };
    worker.on('message', (m: ToMain) => this.message(th, m));
    worker.on('error', (e) => this.opts.log('error', { msg: 'MCP law worker failed', err: e.message }));
    worker.on('exit', (code) => this.exited(th, code));
    return th;
  }

  /** post m to th's thread; transfer: the buffers handed over without a copy (the request body it owns) */
  private send(th: Thread, m: ToWorker, transfer?: ArrayBuffer[]): void {
    th.worker.postMessage(m, transfer);
  }

  private get version(): number {
    return this.opts.version();
  }

  private message(th: Thread, m: ToMain): void {
    switch (m.t) {
      case 'res': {
        const done = th.pending.get(m.rid);
        th.pending.delete(m.rid);
        if (m.out.sessionId) { this.pin.set(m.out.sessionId, th); th.sessions.add(m.out.sessionId); }
        return done?.(m.out);
      }
      case 'checked': {
        const done = th.checks.get(m.rid);
        th.checks.delete(m.rid);
        return done?.(m.result);
      }
      case 'chunk': return th.streams.get(m.rid)?.write(m.data);
      case 'end': { const s = th.streams.get(m.rid); th.streams.delete(m.rid); return s?.end(); }
      case 'sse': return th.sse.get(m.sid)?.write(m.data);
      case 'sse-end': { const s = th.sse.get(m.sid); th.sse.delete(m.sid); return s?.end(); }
      case 'ended':
        if (this.pin.get(m.sid) === th) this.pin.delete(m.sid);
        th.sessions.delete(m.sid);
        return this.onEnded(m.sid);
      case 'log': return this.opts.log('error', { msg: m.msg, tool: m.tool, err: m.err });
    }
  }

  /** a thread ended (crash, out of memory, terminate): its sessions end; a new thread takes its place */
  private exited(th: Thread, code: number): void {
    const i = this.threads.indexOf(th);
    if (this.stopping || i < 0) return;
    th.dead = true;
    // a thread that keeps dying young (a broken store, out of memory at start) is restarted at most every few seconds
    this.pause = Date.now() - th.born < 5000 ? Math.min(30_000, Math.max(500, this.pause * 2)) : 0;
    this.opts.log('error', { msg: 'MCP law worker stopped; its sessions ended; starting a new one', code, sessions: th.sessions.size, restart_in_ms: this.pause });
    const restart = () => { if (!this.stopping && this.threads[i] === th) this.threads[i] = this.spawn(); };
    if (this.pause) setTimeout(restart, this.pause).unref();
    else restart();
    const reason = `the law worker hosting this session stopped (exit code ${code}); the session ended, open a new one`;
    for (const done of th.pending.values()) done(rpcOut(503, -32030, `SERVICE_BUSY: ${reason}`, 1));
    th.pending.clear();
    for (const done of th.checks.values()) done({ gone: reason });
    th.checks.clear();
    for (const s of th.streams.values()) s.end(reason);
    th.streams.clear();
    for (const s of th.sse.values()) s.end(reason);
    th.sse.clear();
    for (const sid of th.sessions) {
      if (this.pin.get(sid) === th) this.pin.delete(sid);
      this.onEnded(sid);
    }
    th.sessions.clear();
  }

  /**
   * The thread for a new session: among the live threads, the lightest (fewest sessions, then fewest requests in
   * flight; the first of equals); when every thread is restarting, the first (its requests are answered 503).
   */
  private pick(): Thread {
    const live = this.threads.filter(isLive);
    return live.length ? live.reduce(lighterOf) : this.threads[0]!;
  }

  handle(req: HttpIn): Promise<HttpOut> {
    const th = req.sid !== undefined ? this.pin.get(req.sid) : this.pick();
    if (!th) return Promise.resolve(rpcOut(404, -32001, `Session not found: ${req.sid!.slice(0, 60)} (initialize again)`));
    if (this.stopping) return Promise.resolve(rpcOut(503, -32030, 'SERVICE_BUSY: the server is shutting down', 5));
    if (th.dead) return Promise.resolve(rpcOut(503, -32030, 'SERVICE_BUSY: the law worker is restarting; retry shortly', Math.max(1, Math.ceil(this.pause / 1000))));
    const { workers, queueSize } = this.opts;
    const queued = this.queued;
    if (queued >= queueSize) {
      return Promise.resolve(rpcOut(503, -32030, `SERVICE_BUSY: all ${workers} law workers are busy and ${queued} calls are waiting; retry shortly`, Math.max(1, Math.ceil(queued / (workers * 50)))));
    }
    const rid = ++this.rid;
    return new Promise((resolve) => {
      th.pending.set(rid, resolve);
      this.send(th, { t: 'http', rid, req, version: this.version }, transferOf(req.body));
    });
  }

  stream(req: HttpIn, sink: Sink): () => void {
    const th = req.sid !== undefined ? this.pin.get(req.sid) : undefined;
    if (!th) { sink.end(); return () => undefined; }
    const rid = ++this.rid;
    th.streams.set(rid, sink);
    this.send(th, { t: 'stream', rid, req, version: this.version });
    return () => { if (th.streams.delete(rid)) this.send(th, { t: 'cancel', rid, version: this.version }); };
  }

  sseOpen(sid: string, sink: Sink): void {
    const th = this.pick();
    if (th.dead) return sink.end('the law worker is restarting; retry shortly');
    this.pin.set(sid, th);
    th.sessions.add(sid);
    th.sse.set(sid, sink);
    this.send(th, { t: 'sse-open', sid, version: this.version });
  }

  ssePost(sid: string, body: Uint8Array): Promise<SseChecked> {
    const th = this.pin.get(sid);
    if (!th || th.dead) return Promise.resolve({ gone: 'the session ended' });
    const rid = ++this.rid;
    return new Promise((resolve) => {
      th.checks.set(rid, resolve);
      this.send(th, { t: 'sse-post', rid, body, version: this.version }, transferOf(body));
    });
  }

  sseRelease(sid: string, rid: number, now: number | null): void {
    const th = this.pin.get(sid);
    if (th && !th.dead) this.send(th, { t: 'sse-release', sid, rid, now, version: this.version });
  }

  close(sid: string): void {
    const th = this.pin.get(sid);
    if (th) this.send(th, { t: 'close', sid, version: this.version });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const th of this.threads) {
      for (const done of th.pending.values()) done(rpcOut(503, -32030, 'SERVICE_BUSY: the server is shutting down', 5));
      th.pending.clear();
      for (const done of th.checks.values()) done({ gone: 'the server is shutting down' });
      th.checks.clear();
    }
    await Promise.all(this.threads.map((th) => th.worker.terminate()));
  }
}
