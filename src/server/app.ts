// The uWS front end: routes table → uWS; per request: read (capped) → auth → rate limit → validate → handler → reply.
import uws, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Services } from '../services.js';
import { ApiError } from '../domain/errors.js';
import { BodyBudget, BodyLease } from './budget.js';
import type { Ctx, HandlerResult, Principal, RouteDef, StreamHandle } from './types.js';
import { parseJson, parseMultipart } from './body.js';
import { parseWith } from './validate.js';
import { collectSoon } from './collect.js';
import { readBody, statusLine, writeOut, type OutMessage } from './http.js';
import { authenticate } from './auth.js';
import { checkResponse } from './response-check.js';
import { answerOf, busy, checkParams, decodeParams, freshRequestId, JSON_TYPE, paramNames, requestIdOf, toApiError } from './request-parts.js';
import type { BlockList } from 'node:net';
import { trustedProxies } from '../domain/client-address.js';
import { EMPTY_BODY, RequestCtx } from './request-ctx.js';
import { InFlight, readHeaders, type Exchange, type ReqState } from './request-bookkeeping.js';
import { streamHandle, writeStreamHead } from './event-stream.js';

/** The body read started by startBody: the bytes (or why they did not come) and the cap they ran under. */
interface BodyRead { promise: Promise<Buffer>; hasBody: boolean; maxBytes: number }

/** the body of a GET/DELETE: one settled promise shared by all */
const NO_BODY: Promise<Buffer> = Promise.resolve(EMPTY_BODY);
/** the body read of a GET/DELETE (nothing to read): one object shared by all */
const NO_BODY_READ: BodyRead = Object.freeze({ promise: NO_BODY, hasBody: false, maxBytes: 0 });

export function nativeUwsLoaded(): boolean {
  // the JS fallback has no getParts and its App is plain JS; the native addon's functions are [native code]
  return typeof uws.getParts === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
}

export class HttpServer {
  readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | null = null;
  private readonly inflight = new InFlight();
  private draining = false;
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
        this.lastResort(res, rid || freshRequestId(), e);
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

  /**
   * One request, as named steps: read it from uWS → refuse while draining → count it in flight → auth and rate limit
   * (headers only) → start the capped body read → (async) await principal and body → validate → handler → answer.
   */
  private handle(res: HttpResponse, req: HttpRequest, route: RouteDef, names: string[], requestId: string): void {
    const x = this.exchange(res, req, route, names, requestId);
    if (this.draining && !route.whileDraining) {
      return this.fail(x, new ApiError('SERVICE_BUSY', 'The server is shutting down', { headers: { 'Retry-After': '5', connection: 'close' } }));
    }
    this.inflight.enter(x);
    let authP: Promise<Principal> | undefined;
    let body: BodyRead;
    try {
      authP = this.startAuth(x);
      body = this.startBody(x);
    } catch (e) {
      this.inflight.release(x);
      return this.fail(x, e);
    }
    // a GET/DELETE with a local principal has nothing to wait for: handled (and, if the handler answers without a
    // promise, answered) in this turn
    if (authP === undefined && !body.hasBody && !route.stream) return this.completeNow(x);
    void this.complete(x, authP, body).catch((e) => this.lastResort(res, requestId, e));
  }

  /**
   * The rest of a request with nothing to await: validate and call the handler now. A handler that answers from
   * memory (a cached poll, /health) returns a value, sent at once inside uWS's handler, where uWS corks the socket
   * itself; only a promise takes the asynchronous way (settle). No async function runs for the former: its promise
   * and its awaits were most of what a poll allocated (about 2.5 KB of 5.3 KB per request, a scavenge every few
   * thousand polls, each pause a spike in the tail).
   */
  private completeNow(x: Exchange): void {
    let result: HandlerResult;
    try {
      this.validate(x, EMPTY_BODY);
      result = x.route.handler!(x.ctx);
    } catch (e) {
      this.inflight.release(x);
      return this.fail(x, e);
    }
    if (result instanceof Promise) {
      void this.settle(x, result).catch((e) => this.lastResort(x.res, x.ctx.requestId, e));
      return;
    }
    try {
      this.answer(x, result);
    } catch (e) {
      this.fail(x, e);
    } finally {
      this.inflight.release(x);
    }
  }

  /** A handler's promised answer (completeNow's asynchronous way). */
  private async settle(x: Exchange, result: Promise<unknown>): Promise<void> {
    try {
      const value = await result;
      if (x.state.aborted) return this.requestDone(x.ctx, x.route, 499, performance.now() - x.t0);
      this.answer(x, value);
    } catch (e) {
      this.fail(x, e);
    } finally {
      this.inflight.release(x);
    }
  }

  /** Send a handler's result (checked first when SEJONG_VALIDATE_RESPONSES is on). */
  private answer(x: Exchange, result: unknown): void {
    const out = answerOf(result);
    // checked as it goes on the wire (the same bytes), before anything is sent
    if (this.services.config.validateResponses) checkResponse(x.route, out.status, out.headers['content-type']!, out.body, x.ctx.log);
    this.finish(x, out);
  }

  /** Everything from req is read now (it is invalid once handle() returns): headers, path, query, params → ctx. */
  private exchange(res: HttpResponse, req: HttpRequest, route: RouteDef, names: string[], requestId: string): Exchange {
    const t0 = performance.now();
    const state: ReqState = { aborted: false, done: false, closeHandlers: [] };
    res.onAborted(() => {
      state.aborted = true;
      for (const f of state.closeHandlers) f();
    });
    const headers = readHeaders(req);
    const params: Record<string, string> = {};
    const decodeError = names.length === 0 ? undefined : decodeParams(names, req, params);
    const paramError = decodeError ?? checkParams(params, route);
    const ctx = new RequestCtx(this.services, requestId, route.method, req.getUrl(), params, headers, req.getQuery() ?? '', res, this.proxies, state);
    let lease: BodyLease | undefined;
    if (route.method !== 'GET' && route.method !== 'DELETE') {
      const l = (lease = new BodyLease(this.budget));
      state.closeHandlers.push(() => l.release());
    }
    return { res, route, ctx, state, t0, lease, paramError, outHeaders: { 'x-request-id': requestId }, counted: false };
  }

  /** Auth and rate limit need only the headers: decided before a body is read. Shared counters (Redis) answer later. */
  private startAuth(x: Exchange): Promise<Principal> | undefined {
    if (x.paramError) throw x.paramError;
    const who = authenticate(x.ctx, x.route, x.outHeaders);
    if (!(who instanceof Promise)) {
      x.ctx.principal = who;
      return undefined;
    }
    // the body read starts now all the same (uWS needs its handlers attached in this turn), under the caps below
    who.catch(() => undefined);
    return who;
  }

  /** The body read under the route's cap and the body budget (413 / 503 at once when Content-Length says so). */
  private startBody(x: Exchange): BodyRead {
    const { route, state, lease, res } = x;
    const { config } = this.services;
    if (!lease) return NO_BODY_READ; // GET, DELETE
    const maxBytes = route.maxBodyBytes ?? (route.auth === 'none' ? config.openBodyKb * 1024 : Math.round(config.maxBodyMb * 1048576));
    const declared = Number(x.ctx.headers['content-length'] ?? '0');
    if (declared > maxBytes) {
      x.outHeaders.connection = 'close';
      throw new ApiError('PAYLOAD_TOO_LARGE', `The body is ${declared} bytes; this endpoint accepts at most ${maxBytes}`);
    }
    if (declared > 0 && !lease.ensure(declared)) throw busy();
    // a body the client stops sending never reaches isLast: the abort settles the read
    const aborted = new Promise<never>((_, reject) => state.closeHandlers.push(() => reject(new Error('aborted'))));
    aborted.catch(() => undefined);
    const promise = Promise.race([readBody(res, maxBytes, state, (size) => lease.ensure(size), declared), aborted]);
    promise.catch(() => undefined); // read later, or never when the (shared-mode) rate limit refuses first
    return { promise, hasBody: true, maxBytes };
  }

  /** The asynchronous rest: principal and body → validated ctx → a stream, or the handler's answer. */
  private async complete(x: Exchange, authP: Promise<Principal> | undefined, body: BodyRead): Promise<void> {
    let streamOpened = false;
    try {
      const raw = authP || body.hasBody ? await this.inputs(x, authP, body) : EMPTY_BODY; // (a stream's GET: nothing to read)
      if (raw === undefined) return; // the client went away mid-body
      this.validate(x, raw);
      if (x.route.stream) {
        streamOpened = true;
        x.state.closeHandlers.push(() => this.inflight.release(x)); // streams hold the in-flight slot until closed
        await this.openStream(x);
        return;
      }
      const result = await x.route.handler!(x.ctx);
      if (x.state.aborted) return this.requestDone(x.ctx, x.route, 499, performance.now() - x.t0);
      this.answer(x, result);
    } catch (e) {
      this.fail(x, e);
    } finally {
      x.lease?.release();
      if (!streamOpened) this.inflight.release(x);
    }
  }

  /** Await the principal (shared-mode auth) and the body; undefined when the client went away mid-body. */
  private async inputs(x: Exchange, authP: Promise<Principal> | undefined, body: BodyRead): Promise<Buffer | undefined> {
    if (authP) {
      try {
        x.ctx.principal = await authP;
      } catch (e) {
        if (body.hasBody) x.outHeaders.connection = 'close'; // the body still on its way is not read
        throw e;
      }
    }
    try {
      return await body.promise;
    } catch (e) {
      const why = (e as Error).message; // readBody's reasons: too-large, busy; or the abort
      if (why === 'too-large') {
        x.outHeaders.connection = 'close';
        throw new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than the ${body.maxBytes} bytes this endpoint accepts`);
      }
      if (why === 'busy') throw busy();
      return undefined; // aborted
    }
  }

  /** Path params, query and body through the route's schemas into ctx (400 naming the field otherwise). */
  private validate(x: Exchange, raw: Buffer): void {
    const { ctx, route } = x;
    if (route.params) ctx.params = parseWith(route.params, ctx.params, 'params') as Record<string, string>;
    ctx.rawBody = raw;
    const query = ctx.queryObject();
    ctx.query = route.query ? parseWith(route.query, query, 'query') : query;
    if (!route.body) return;
    const ctype = ctx.headers['content-type'] ?? '';
    if (route.body.kind === 'json') {
      ctx.body = parseWith(route.body.schema, parseJson(raw, ctype), 'body');
    } else if (route.body.kind === 'multipart') {
      const { fields, files } = parseMultipart(raw, ctype, route.body);
      ctx.files = files;
      ctx.body = route.body.fields ? parseWith(route.body.fields, fields, 'form') : fields;
    }
  }

  /** Send the answer (with the request id and the headers collected on the way) and log it. */
  private finish(x: Exchange, out: OutMessage, code?: string): void {
    writeOut(x.res, out, x.state, x.outHeaders);
    this.requestDone(x.ctx, x.route, out.status, performance.now() - x.t0, code);
  }

  /** Answer an error: an ApiError as it is, a storage outage 503, anything else 500 (logged). */
  private fail(x: Exchange, e: unknown): void {
    const err = toApiError(e, x.ctx.log);
    this.finish(x, { status: err.status, headers: { 'content-type': JSON_TYPE, ...err.headers }, body: JSON.stringify(err.toBody()) }, err.code);
  }

  /** A streaming route: the headers now, then the route writes until it ends the stream or the client goes away. */
  private async openStream(x: Exchange): Promise<void> {
    const { res, ctx, route, state, outHeaders, t0 } = x;
    const handle = streamHandle(res, state, this.streams);
    state.done = true;
    writeStreamHead(res, outHeaders);
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
    await this.inflight.drained(timeoutMs);
    (this.app as unknown as { close?: () => void }).close?.();
  }
}

export type { Principal };
