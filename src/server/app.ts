// The uWS front end: routes table → uWS; per request: read (capped) → auth → rate limit → validate → handler → reply.
import crypto from 'node:crypto';
import uws, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Services } from '../services.js';
import { ApiError, invalid, isApiError } from './errors.js';
import { isReply, type Ctx, type Method, type Principal, type RouteDef, type StreamHandle } from './types.js';
import { parseJson, parseMultipart } from './body.js';
import { parseWith } from './validate.js';
import { readBody, writeOut, type OutMessage } from './http.js';
import { authenticate } from './auth.js';

interface ReqState {
  aborted: boolean;
  done: boolean;
  closeHandlers: Array<() => void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function nativeUwsLoaded(): boolean {
  // the JS fallback has no getParts and its App is plain JS; the native addon's functions are [native code]
  return typeof uws.getParts === 'function' && /\[native code\]/.test(Function.prototype.toString.call(uws.App));
}

/** uWS pattern '/a/:id' from our path; returns param names in order. */
function paramNames(path: string): string[] {
  return path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
}

export class HttpServer {
  readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | null = null;
  private inflight = 0;
  private draining = false;
  private drainWaiters: Array<() => void> = [];
  private readonly streams = new Set<StreamHandle>();
  port = 0;

  constructor(private readonly services: Services, readonly routes: RouteDef[]) {
    this.app = uws.App();
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
        const handler = (res: HttpResponse, req: HttpRequest) => this.handle(res, req, r, names);
        switch (r.method) {
          case 'GET': this.app.get(path, handler); break;
          case 'POST': this.app.post(path, handler); break;
          case 'PUT': this.app.put(path, handler); break;
          case 'PATCH': this.app.patch(path, handler); break;
          case 'DELETE': this.app.del(path, handler); break;
        }
      }
      const allowed = list.map((r) => r.method).join(', ');
      this.app.any(path, (res, req) => {
        const method = req.getCaseSensitiveMethod?.() ?? req.getMethod().toUpperCase();
        if (method === 'OPTIONS') return this.simple(res, 204, '', { allow: allowed });
        if (method === 'HEAD' && list.some((r) => r.method === 'GET')) return this.simple(res, 200, '', { allow: allowed });
        this.simpleError(res, new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allowed}`), { allow: allowed });
      });
    }
    this.app.any('/*', (res, req) => {
      const method = req.getCaseSensitiveMethod?.() ?? req.getMethod().toUpperCase();
      const url = req.getUrl();
      this.simpleError(res, new ApiError('NOT_FOUND', `No route ${method} ${url}`));
    });
  }

  private simple(res: HttpResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    const state = { aborted: false, done: false };
    res.onAborted(() => (state.aborted = true));
    writeOut(res, { status, headers, body }, state);
  }

  private simpleError(res: HttpResponse, e: ApiError, headers: Record<string, string> = {}): void {
    this.simple(res, e.status, JSON.stringify(e.toBody()), { 'content-type': JSON_TYPE, ...headers });
  }

  private handle(res: HttpResponse, req: HttpRequest, route: RouteDef, names: string[]): void {
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
    const params: Record<string, string> = {};
    names.forEach((n, i) => (params[n] = decodeURIComponent(req.getParameter(i) ?? '')));
    const paramError = checkParams(params, route);
    const requestId = headers['x-request-id']?.slice(0, 64) || crypto.randomUUID();
    const ip = Buffer.from(res.getRemoteAddressAsText()).toString();
    const { services } = this;
    const outHeaders: Record<string, string> = { 'x-request-id': requestId };
    const ctx: Ctx = {
      services, requestId, method: route.method as Method, path, params, query: undefined, rawQuery, headers,
      body: undefined, files: {}, rawBody: Buffer.alloc(0), principal: { kind: 'anonymous' }, ip, logExtra: {},
      aborted: () => state.aborted,
    };

    const finish = (out: OutMessage, code?: string) => {
      Object.assign(out.headers, outHeaders);
      writeOut(res, out, state);
      this.requestDone(ctx, route, out.status, performance.now() - t0, code);
    };
    const fail = (e: unknown) => {
      const err = toApiError(e, services);
      finish({ status: err.status, headers: { 'content-type': JSON_TYPE, ...err.headers }, body: JSON.stringify(err.toBody()) }, err.code);
    };

    if (this.draining) {
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
    try {
      ctx.principal = authenticate(ctx, route, outHeaders);
    } catch (e) {
      release();
      return fail(e);
    }

    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    const maxBytes = route.maxBodyBytes ?? Math.round(services.config.maxBodyMb * 1048576);
    const declared = Number(headers['content-length'] ?? '0');
    if (hasBody && declared > maxBytes) {
      release();
      outHeaders.connection = 'close';
      return fail(new ApiError('PAYLOAD_TOO_LARGE', `The body is ${declared} bytes; this endpoint accepts at most ${maxBytes}`));
    }
    const bodyP = hasBody ? readBody(res, maxBytes, state) : Promise.resolve(Buffer.alloc(0));
    let streamOpened = false;

    void (async () => {
      try {
        let raw: Buffer;
        try {
          raw = await bodyP;
        } catch (e) {
          if ((e as Error).message === 'too-large') {
            outHeaders.connection = 'close';
            throw new ApiError('PAYLOAD_TOO_LARGE', `The body is larger than the ${maxBytes} bytes this endpoint accepts`);
          }
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
        if (isReply(result)) {
          const ct = result.contentType ?? JSON_TYPE;
          const isJson = ct.startsWith('application/json');
          const body = Buffer.isBuffer(result.body) || typeof result.body === 'string' ? result.body : isJson ? JSON.stringify(result.body ?? null) : String(result.body ?? '');
          finish({ status: result.status ?? 200, headers: { 'content-type': isJson ? JSON_TYPE : ct, ...result.headers }, body });
        } else {
          finish({ status: 200, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(result ?? { success: true }) });
        }
      } catch (e) {
        fail(e);
      } finally {
        if (!streamOpened) release();
      }
    })();
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
    await route.stream!(ctx, handle);
  }

  private requestDone(ctx: Ctx, route: RouteDef, status: number, ms: number, code?: string): void {
    const { services } = this;
    const p = ctx.principal;
    services.log.info({ msg: 'request', reqId: ctx.requestId, method: ctx.method, route: route.path, path: ctx.path, status, ms: Math.round(ms * 100) / 100, key: p.keyId, code, ...ctx.logExtra });
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

export function toApiError(e: unknown, services: Services): ApiError {
  if (isApiError(e)) return e;
  // task errors were already turned into ApiErrors by WorkerPool.run(); anything else is ours to fix
  services.log.error({ msg: 'unhandled error', err: { message: (e as Error)?.message, stack: (e as Error)?.stack } });
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
