// The uWS front end: routes table → uWS; per request: read (capped) → auth → rate limit → validate → handler → reply.
import { engineDown } from '../shared/errors.js';
import crypto from 'node:crypto';
import uws, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Logger } from 'pino';
import type { Services } from '../services.js';
import { ApiError, invalid, isApiError } from '../domain/errors.js';
import { BodyBudget, BodyLease } from './budget.js';
import { isReply, type Ctx, type Method, type Principal, type RouteDef, type StreamHandle } from './types.js';
import { parseJson, parseMultipart } from './body.js';
import { parseWith } from './validate.js';
import { collectSoon } from './collect.js';
import { readBody, statusLine, writeOut, type OutMessage } from './http.js';
import { authenticate } from './auth.js';
import { checkResponse } from './response-check.js';
import type { BlockList } from 'node:net';
import { clientAddress, trustedProxies } from '../domain/client-address.js';

interface ReqState {
  aborted: boolean;
  done: boolean;
  closeHandlers: Array<() => void>;
}

/** the body of a GET/DELETE: one settled promise shared by all */
const NO_BODY: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));
const JSON_TYPE = 'application/json; charset=utf-8';

export function nativeUwsLoaded(): boolean {
  // the JS fallback has no getParts and its App is plain JS; the native addon's functions are [native code]
  return typeof uws.getParts === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
}

/** uWS pattern '/a/:id' from our path; returns param names in order. */
function paramNames(path: string): string[] {
  return path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** The client's x-request-id when it is sane (safe to echo and log), else a fresh UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** Decode path parameters; a malformed % escape is a 400 naming the parameter, never a URIError. */
function decodeParams(names: string[], raw: string[]): { params: Record<string, string>; error?: ApiError } {
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = raw[i] ?? '';
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      return { params, error: invalid(name, 'a path segment with valid percent-escapes (%XX of UTF-8)', value.slice(0, 60)) };
    }
  }
  return { params };
}

/** A handler's result as the message to send: a Reply as it says, anything else JSON with status 200. */
function answerOf(result: unknown): OutMessage {
  if (!isReply(result)) return { status: 200, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(result ?? { success: true }) };
  const ct = result.contentType ?? JSON_TYPE;
  const isJson = ct.startsWith('application/json');
  const body = Buffer.isBuffer(result.body) || typeof result.body === 'string' ? result.body : isJson ? JSON.stringify(result.body ?? null) : String(result.body ?? '');
  return { status: result.status ?? 200, headers: { 'content-type': isJson ? JSON_TYPE : ct, ...result.headers }, body };
}

export class HttpServer {
  readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | null = null;
  private inflight = 0;
  private draining = false;
  private drainWaiters: Array<() => void> = [];
  private readonly streams = new Set<StreamHandle>();
  readonly budget: BodyBudget;
  private readonly proxies: BlockList | undefined; // SEJONG_TRUSTED_PROXIES
  port = 0;

  get isDraining(): boolean {
    return this.draining;
  }

  constructor(private readonly services: Services, readonly routes: RouteDef[]) {
    this.app = uws.App();
    this.proxies = trustedProxies(services.config.trustedProxies);
    this.budget = new BodyBudget(Math.round(services.config.bodyBudgetMb * 1048576), { mark: 64 * 1048576, onDrained: () => collectSoon() });
    const byPath = new Map<string, RouteDef[]>();
    for (const r of routes) {
      const list = byPath.get(r.path) ?? [];
      if (list.some((x) => x.method === r.method)) throw new Error(`duplicate route ${r.method} ${r.path}`);
      list.push(r);
      byPath.set(r.path, list);
    }
    for (const [path, list] of byPath) {
      for (const r of list) {
        const names = paramNames(path);
        const handler = this.guard((res, req, rid) => this.handle(res, req, r, names, rid));
        switch (r.method) {
          case 'GET': this.app.get(path, handler); break;
          case 'POST': this.app.post(path, handler); break;
          case 'PUT': this.app.put(path, handler); break;
          case 'PATCH': this.app.patch(path, handler); break;
          case 'DELETE': this.app.del(path, handler); break;
        }
      }
      const allowed = list.map((r) => r.method).join(', ');
      this.app.any(path, this.guard((res, req, rid) => {
        const method = req.getCaseSensitiveMethod?.() ?? req.getMethod().toUpperCase();
        if (method === 'OPTIONS') return this.simple(res, rid, 204, '', { allow: allowed });
        if (method === 'HEAD' && list.some((r) => r.method === 'GET')) return this.simple(res, rid, 200, '', { allow: allowed });
        this.simpleError(res, rid, new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allowed}`), { allow: allowed });
      }));
    }
    this.app.any('/*', this.guard((res, req, rid) => {
      const method = req.getCaseSensitiveMethod?.() ?? req.getMethod().toUpperCase();
      const url = req.getUrl();
      this.simpleError(res, rid, new ApiError('NOT_FOUND', `No route ${method} ${url.slice(0, 200)}`));
    }));
  }

  /**
   * The last-resort guard around every uWS handler: a synchronous throw answers 500 INTERNAL_ERROR with the request
   * id (when nothing was answered yet) and is logged; nothing reaches the event loop.
   */
  private guard(fn: (res: HttpResponse, req: HttpRequest, requestId: string) => void): (res: HttpResponse, req: HttpRequest) => void {
    return (res, req) => {
      let rid = '';
      try {
        rid = requestIdOf(req.getHeader('x-request-id'));
        fn(res, req, rid);
      } catch (e) {
        this.lastResort(res, rid || crypto.randomUUID(), e);
      }
    };
  }

  /** Log an error that escaped request handling and answer 500 if the response is still open. */
  private lastResort(res: HttpResponse, requestId: string, e: unknown): void {
    this.services.log.error({ msg: 'unhandled request error', reqId: requestId, err: { message: (e as Error)?.message, stack: (e as Error)?.stack } });
    const err = new ApiError('INTERNAL_ERROR', `Internal failure; the error was logged (request ${requestId})`);
    try {
      res.cork(() => {
        res.writeStatus(statusLine(500));
        res.writeHeader('x-request-id', requestId);
        res.writeHeader('content-type', JSON_TYPE);
        res.end(JSON.stringify(err.toBody()));
      });
    } catch {
      // already answered or aborted: uWS refuses the write, the error is logged above
    }
  }

  private simple(res: HttpResponse, requestId: string, status: number, body: string, headers: Record<string, string> = {}): void {
    const state = { aborted: false, done: false };
    res.onAborted(() => (state.aborted = true));
    writeOut(res, { status, headers: { ...headers, 'x-request-id': requestId }, body }, state);
  }

  private simpleError(res: HttpResponse, requestId: string, e: ApiError, headers: Record<string, string> = {}): void {
    this.simple(res, requestId, e.status, JSON.stringify(e.toBody()), { 'content-type': JSON_TYPE, ...headers });
  }

  private handle(res: HttpResponse, req: HttpRequest, route: RouteDef, names: string[], requestId: string): void {
    const t0 = performance.now();
    const state: ReqState = { aborted: false, done: false, closeHandlers: [] };
    res.onAborted(() => {
      state.aborted = true;
      for (const f of state.closeHandlers) f();
    });
    // everything from req must be read now: it is invalid after this function returns
    const headers: Record<string, string> = {};
    req.forEach((k, v) => (headers[k] = v));
    const path = req.getUrl();
    const rawQuery = new URLSearchParams(req.getQuery() ?? '');
    const { params, error: decodeError } = decodeParams(names, names.map((_, i) => req.getParameter(i) ?? ''));
    const paramError = decodeError ?? checkParams(params, route);
    const ip = clientAddress(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-forwarded-for'], this.proxies);
    const { services } = this;
    const outHeaders: Record<string, string> = { 'x-request-id': requestId };
    let child: Logger | undefined;
    const ctx: Ctx = {
      services, requestId, method: route.method as Method, path, params, query: undefined, rawQuery, headers,
      body: undefined, files: {}, rawBody: Buffer.alloc(0), principal: { kind: 'anonymous' }, ip, logExtra: {},
      aborted: () => state.aborted,
      // a child logger carrying the request id, made on first use (most requests log one line, in requestDone)
      get log() {
        return (child ??= services.log.child({ reqId: requestId }));
      },
    };

    const finish = (out: OutMessage, code?: string) => {
      Object.assign(out.headers, outHeaders);
      writeOut(res, out, state);
      this.requestDone(ctx, route, out.status, performance.now() - t0, code);
    };
    const lease = new BodyLease(this.budget);
    state.closeHandlers.push(() => lease.release());
    const fail = (e: unknown) => {
      const err = toApiError(e, ctx.log);
      finish({ status: err.status, headers: { 'content-type': JSON_TYPE, ...err.headers }, body: JSON.stringify(err.toBody()) }, err.code);
    };

    if (this.draining && !route.whileDraining) {
      return fail(new ApiError('SERVICE_BUSY', 'The server is shutting down', { headers: { 'Retry-After': '5', connection: 'close' } }));
    }
    this.inflight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.inflight--;
      if (this.draining && this.inflight === 0) for (const w of this.drainWaiters.splice(0)) w();
    };

    // auth and rate limit need only the headers: decide before reading a body
    let authP: Promise<Principal> | undefined;
    try {
      if (paramError) throw paramError;
      const who = authenticate(ctx, route, outHeaders);
      if (who instanceof Promise) {
        // shared counters (Redis): the answer comes back on a later turn; the body read starts now (uWS needs its
        // handlers attached in this turn), still under the route cap and the body budget
        authP = who;
        authP.catch(() => undefined);
      } else ctx.principal = who;
    } catch (e) {
      release();
      return fail(e);
    }

    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    const defaultMax = route.auth === 'none' ? services.config.openBodyKb * 1024 : Math.round(services.config.maxBodyMb * 1048576);
    const maxBytes = route.maxBodyBytes ?? defaultMax;
    const declared = Number(headers['content-length'] ?? '0');
    if (hasBody && declared > maxBytes) {
      release();
      outHeaders.connection = 'close';
      return fail(new ApiError('PAYLOAD_TOO_LARGE', `The body is ${declared} bytes; this endpoint accepts at most ${maxBytes}`));
    }
    if (hasBody && declared > 0 && !lease.ensure(declared)) {
      release();
      return fail(busy());
    }
    // a body the client stops sending never reaches isLast: the abort settles the read (GET/DELETE read nothing)
    let bodyP: Promise<Buffer> = NO_BODY;
    if (hasBody) {
      const aborted = new Promise<never>((_, reject) => state.closeHandlers.push(() => reject(new Error('aborted'))));
      aborted.catch(() => undefined);
      bodyP = Promise.race([readBody(res, maxBytes, state, (size) => lease.ensure(size), declared), aborted]);
      bodyP.catch(() => undefined); // read later, or never when the (shared-mode) rate limit refuses first
    }
    let streamOpened = false;

    void (async () => {
      try {
        let raw: Buffer;
        if (authP) {
          try {
            ctx.principal = await authP;
          } catch (e) {
            if (hasBody) outHeaders.connection = 'close'; // the body still on its way is not read
            throw e;
          }
        }
        try {
          raw = await bodyP;
        } catch (e) {
          if ((e as Error).message === 'too-large') {
            outHeaders.connection = 'close';
            throw new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than the ${maxBytes} bytes this endpoint accepts`);
          }
          if ((e as Error).message === 'busy') throw busy();
          return; // aborted
        }
        if (paramError) throw paramError;
        if (route.params) ctx.params = parseWith(route.params, params, 'params') as Record<string, string>;
        ctx.rawBody = raw;
        const ctype = headers['content-type'] ?? '';
        if (route.query) ctx.query = parseWith(route.query, Object.fromEntries(rawQuery), 'query');
        else ctx.query = Object.fromEntries(rawQuery);
        if (route.body?.kind === 'json') {
          ctx.body = parseWith(route.body.schema, parseJson(raw, ctype), 'body');
        } else if (route.body?.kind === 'multipart') {
          const { fields, files } = parseMultipart(raw, ctype, route.body);
          ctx.files = files;
          ctx.body = route.body.fields ? parseWith(route.body.fields, fields, 'form') : fields;
        }
        if (route.stream) {
          streamOpened = true;
          // streams hold the in-flight slot until closed
          state.closeHandlers.push(release);
          await this.openStream(res, ctx, route, state, outHeaders, t0);
          return;
        }
        const result = await route.handler!(ctx);
        if (state.aborted) return this.requestDone(ctx, route, 499, performance.now() - t0);
        const out = answerOf(result);
        // checked as it goes on the wire (the same bytes), before anything is sent
        if (this.services.config.validateResponses) checkResponse(route, out.status, out.headers['content-type']!, out.body, ctx.log);
        finish(out);
      } catch (e) {
        fail(e);
      } finally {
        lease.release();
        if (!streamOpened) release();
      }
    })().catch((e) => this.lastResort(res, requestId, e));
  }

  private async openStream(res: HttpResponse, ctx: Ctx, route: RouteDef, state: ReqState, outHeaders: Record<string, string>, t0: number): Promise<void> {
    let closed = false;
    const handle: StreamHandle = {
      res,
      write: (chunk) => {
        if (closed || state.aborted) return false;
        let ok = true;
        res.cork(() => (ok = res.write(chunk)));
        return ok;
      },
      end: () => {
        if (closed) return;
        closed = true;
        this.streams.delete(handle);
        if (!state.aborted) res.cork(() => res.end());
        for (const f of state.closeHandlers) f();
        state.closeHandlers.length = 0;
      },
      onClose: (fn) => state.closeHandlers.push(fn),
      closed: () => closed || state.aborted,
    };
    state.closeHandlers.push(() => {
      closed = true;
      this.streams.delete(handle);
    });
    this.streams.add(handle);
    state.done = true;
    res.cork(() => {
      res.writeStatus('200 OK');
      for (const [k, v] of Object.entries(outHeaders)) res.writeHeader(k, v);
      res.writeHeader('content-type', 'text/event-stream');
      res.writeHeader('cache-control', 'no-cache, no-transform');
      res.writeHeader('x-accel-buffering', 'no');
    });
    this.requestDone(ctx, route, 200, performance.now() - t0);
    try {
      await route.stream!(ctx, handle);
    } catch (e) {
      // headers are out: log the failure and close the stream rather than leave the client waiting
      toApiError(e, ctx.log);
      handle.end();
    }
  }

  private requestDone(ctx: Ctx, route: RouteDef, status: number, ms: number, code?: string): void {
    const { services } = this;
    const p = ctx.principal;
    services.metrics?.observe(route.path, ctx.method, status, ms, code);
    if (services.log.isLevelEnabled('info')) services.log.info({ msg: 'request', reqId: ctx.requestId, method: ctx.method, route: route.path, path: ctx.path, status, ms: Math.round(ms * 100) / 100, key: p.keyId, code, ...ctx.logExtra });
    if (p.keyId && !route.noRequestLog) {
      services.requestLog.add(p.keyId, { time: services.clock.now(), method: ctx.method, path: ctx.path, status, ms: Math.round(ms * 100) / 100, requestId: ctx.requestId, code });
    }
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (sock) => {
        if (!sock) return reject(new Error(`cannot listen on ${host}:${port}`));
        this.listenSocket = sock;
        this.port = uws.us_socket_local_port(sock);
        resolve(this.port);
      });
    });
  }

  /** Stop accepting, end open streams, wait for in-flight requests (bounded). */
  async close(timeoutMs = 15_000): Promise<void> {
    this.draining = true;
    if (this.listenSocket) uws.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
    for (const s of [...this.streams]) s.end();
    if (this.inflight > 0) {
      await Promise.race([new Promise<void>((r) => this.drainWaiters.push(r)), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    }
    (this.app as unknown as { close?: () => void }).close?.();
  }
}

function busy(): ApiError {
  return new ApiError('SERVICE_BUSY', 'Too many request bodies are being received at once; retry shortly', { headers: { 'retry-after': '1', connection: 'close' } });
}

export function toApiError(e: unknown, log: Logger): ApiError {
  if (isApiError(e)) return e;
  // PostgreSQL or Redis away (shared mode) where a store did not map it itself: 503 with Retry-After
  if (engineDown(e)) return new ApiError('SERVICE_BUSY', 'A storage engine is not reachable from this node; retry shortly', { headers: { 'retry-after': '2' } });
  // task errors were already turned into ApiErrors by WorkerPool.run(); anything else is ours to fix
  log.error({ msg: 'unhandled error', err: { message: (e as Error)?.message, stack: (e as Error)?.stack } });
  return new ApiError('INTERNAL_ERROR', 'Internal failure; the error was logged');
}

export type { Principal };

/** Default path-parameter rule: every `:name` a non-empty string of at most 200 characters (a route's params schema replaces it). */
function checkParams(params: Record<string, string>, route: RouteDef): ApiError | undefined {
  if (route.params) return undefined;
  for (const [name, v] of Object.entries(params)) {
    if (v.length === 0 || v.length > 200) return invalid(name, 'a path parameter of 1 to 200 characters', v.length === 0 ? '' : `${v.length} characters`);
  }
  return undefined;
}
