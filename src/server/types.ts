// The contract between the front end and every api/ module: a route is data plus one handler.
import type { Logger } from 'pino';
import type { ZodType, output } from 'zod';
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { Services } from '../services.js';
import type { Principal } from '../domain/principal.js';
import type { ErrorCode } from '../domain/errors.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * none  – open endpoint
 * key   – API key (X-API-Key or Authorization: Bearer); rate limited
 * admin – the admin key only
 * job   – API key, or the job's access key as Bearer (or as the query parameter named by `accessKeyQuery`)
 */
export type AuthKind = 'none' | 'key' | 'admin' | 'job';

export interface FilePartRule {
  required?: boolean;
  maxBytes?: number;
  /** accepted image formats, checked by magic bytes; default jpeg, png, webp */
  types?: Array<'jpeg' | 'png' | 'webp'>;
  /** a file part that may also be sent as text (e.g. image as URL) is not listed here */
  description?: string;
}

/** `example`: the request example in /openapi.json (default: synthesised from the schema) */
export interface JsonBody<S extends ZodType = ZodType> { kind: 'json'; schema: S; example?: unknown }
export interface MultipartBody<F extends ZodType | undefined = ZodType | undefined> { kind: 'multipart'; fields?: F; files?: Record<string, FilePartRule>; example?: Record<string, unknown> }
export type BodySpec = JsonBody | MultipartBody;

export const json = <S extends ZodType>(schema: S): JsonBody<S> => ({ kind: 'json', schema });
export const multipart = <F extends ZodType | undefined = undefined>(spec: { fields?: F; files?: Record<string, FilePartRule> }): MultipartBody<F> => ({ kind: 'multipart', ...spec });

/** ctx.body as the route's body spec makes it: the schema's output, raw form strings, or nothing */
export type BodyOf<BS> = BS extends JsonBody<infer S> ? output<S>
  : BS extends MultipartBody<infer F> ? (F extends ZodType ? output<F> : Record<string, string>)
  : undefined;
/** ctx.query / ctx.params: the schema's output, or raw strings when the route has no schema */
export type ParsedOr<S> = S extends ZodType ? output<S> : Record<string, string>;

export interface UploadedFile {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
  /** sniffed from magic bytes */
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'unknown';
}

export type { Principal };

export interface Ctx<B = unknown, Q = unknown, P = Record<string, string>> {
  services: Services;
  requestId: string;
  method: Method;
  path: string;
  /** path parameters, validated by the route's params schema (default: each a non-empty string of at most 200 characters) */
  params: P;
  /** query parsed by the route's query schema (or raw strings when none) */
  query: Q;
  rawQuery: URLSearchParams;
  /** the query string as it came ('' when there is none), without making rawQuery */
  readonly queryText: string;
  headers: Record<string, string>;
  /** parsed and validated JSON body, or validated multipart text fields */
  body: B;
  files: Record<string, UploadedFile>;
  rawBody: Buffer;
  principal: Principal;
  ip: string;
  /** set by a handler to add to the request log line (never personal data) */
  logExtra: Record<string, unknown>;
  /** the server's logger with this request's id (reqId) on every line */
  readonly log: Logger;
  /** true once the client went away */
  aborted(): boolean;
}

export const REPLY: unique symbol = Symbol('sejong.reply');

/** Build with reply.json / reply.binary / reply.make; a plain object returned by a handler is sent as JSON 200. */
export interface Reply {
  [REPLY]: true;
  status?: number;
  headers?: Record<string, string>;
  /** object → JSON; Buffer/string → sent as is */
  body?: unknown;
  contentType?: string;
}

export interface StreamHandle {
  res: HttpResponse;
  /** write raw bytes; returns false when backpressured */
  write(chunk: string | Buffer): boolean;
  end(): void;
  onClose(fn: () => void): void;
  closed(): boolean;
}

interface RouteBase {
  method: Method;
  path: string; // '/api/v1/text-to-image/status/:job_id'
  auth: AuthKind;
  summary: string;
  tags?: string[];
  /** body cap in bytes (default SEJONG_MAX_BODY_MB) */
  maxBodyBytes?: number;
  /** query parameter carrying a job access key for auth 'job' (e.g. 'key', 'accessKey') */
  accessKeyQuery?: string;
  /** OpenAPI description of the success answer */
  responses?: Record<number, { description: string; contentType?: string; schema?: ZodType; example?: unknown }>;
  /** do not count this route against rate limits (still authenticated) */
  noRateLimit?: boolean;
  /** do not write a request-log entry (e.g. SSE message posts) */
  noRequestLog?: boolean;
  /** still served while the server drains (liveness and readiness probes) */
  whileDraining?: boolean;
  /** error codes this route gives beyond those /openapi.json derives from its shape (src/server/openapi.ts errorCodes),
   * or with another status than the code's usual one ({ code, status }) */
  errors?: Array<ErrorCode | { code: ErrorCode; status: number }>;
}

export type HandlerResult = Promise<Reply | object | void> | Reply | object | void;

/**
 * A route as the front end sees it (the erased form collected in RouteDef[]). Handlers are declared as methods so a
 * route built by defineRoute (typed ctx) fits the list; write routes with defineRoute to get the types checked.
 */
export interface RouteDef<B = unknown, Q = unknown, P = Record<string, string>> extends RouteBase {
  body?: BodySpec;
  query?: ZodType;
  /** path parameter schema (an object over the `:name`s); default: each a non-empty string of at most 200 characters */
  params?: ZodType;
  handler?(ctx: Ctx<B, Q, P>): HandlerResult;
  /** long-lived answers (SSE): the route takes over the response */
  stream?(ctx: Ctx<B, Q, P>, stream: StreamHandle): void | Promise<void>;
}

/** The typed route a handler sees: ctx.body, ctx.query and ctx.params are inferred from the schemas. */
export interface TypedRoute<BS extends BodySpec | undefined, QS extends ZodType | undefined, PS extends ZodType | undefined> extends RouteBase {
  body?: BS;
  query?: QS;
  params?: PS;
  handler?: (ctx: Ctx<BodyOf<BS>, ParsedOr<QS>, ParsedOr<PS>>) => HandlerResult;
  stream?: (ctx: Ctx<BodyOf<BS>, ParsedOr<QS>, ParsedOr<PS>>, stream: StreamHandle) => void | Promise<void>;
}

/** The Ctx of a route with these schemas (for handlers written as named functions). */
export type CtxOf<BS extends BodySpec | undefined = undefined, QS extends ZodType | undefined = undefined, PS extends ZodType | undefined = undefined> =
  Ctx<BodyOf<BS>, ParsedOr<QS>, ParsedOr<PS>>;

export function defineRoute<BS extends BodySpec | undefined = undefined, QS extends ZodType | undefined = undefined, PS extends ZodType | undefined = undefined>(
  r: TypedRoute<BS, QS, PS>,
): RouteDef {
  return r as RouteDef; // erased: the front end fills ctx from the same schemas the types came from
}

/** What an api/ module exports. */
export interface ApiModule {
  routes?: RouteDef[];
  /** called once after services are up, before listening */
  start?: (services: Services) => Promise<void> | void;
  /** called on shutdown, before the pool and the store close */
  stop?: (services: Services) => Promise<void> | void;
}

export const reply = {
  make(r: Omit<Reply, typeof REPLY>): Reply {
    return { [REPLY]: true, ...r };
  },
  json(body: unknown, status = 200, headers?: Record<string, string>): Reply {
    return { [REPLY]: true, status, body, headers, contentType: 'application/json' };
  },
  binary(body: Buffer | Uint8Array, contentType: string, status = 200, headers?: Record<string, string>): Reply {
    const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { [REPLY]: true, status, body: buf, contentType, headers };
  },
};

export function isReply(x: unknown): x is Reply {
  return typeof x === 'object' && x !== null && (x as Reply)[REPLY] === true;
}
