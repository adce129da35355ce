// The contract between the front end and every api/ module: a route is data plus one handler.
import type { ZodType } from 'zod';
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { Services } from '../services.js';

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

export type BodySpec =
  | { kind: 'json'; schema: ZodType }
  | { kind: 'multipart'; fields?: ZodType; files?: Record<string, FilePartRule> };

export interface UploadedFile {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
  /** sniffed from magic bytes */
  format: 'jpeg' | 'png' | 'webp' | 'gif' | 'unknown';
}

export interface Principal {
  kind: 'anonymous' | 'key' | 'admin' | 'token';
  keyId?: string;
  keyName?: string;
  /** a Bearer/query token that is not an API key: maybe a job access key, checked by the job engine */
  token?: string;
}

export interface Ctx<B = any, Q = any> {
  services: Services;
  requestId: string;
  method: Method;
  path: string;
  params: Record<string, string>;
  /** query parsed by the route's query schema (or raw strings when none) */
  query: Q;
  rawQuery: URLSearchParams;
  headers: Record<string, string>;
  /** parsed and validated JSON body, or validated multipart text fields */
  body: B;
  files: Record<string, UploadedFile>;
  rawBody: Buffer;
  principal: Principal;
  ip: string;
  /** set by a handler to add to the request log line (never personal data) */
  logExtra: Record<string, unknown>;
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

export interface RouteDef<B = any, Q = any> {
  method: Method;
  path: string; // '/api/v1/text-to-image/status/:job_id'
  auth: AuthKind;
  summary: string;
  tags?: string[];
  body?: BodySpec;
  query?: ZodType;
  /** body cap in bytes (default SEJONG_MAX_BODY_MB) */
  maxBodyBytes?: number;
  /** query parameter carrying a job access key for auth 'job' (e.g. 'key', 'accessKey') */
  accessKeyQuery?: string;
  /** OpenAPI description of the success answer */
  responses?: Record<number, { description: string; contentType?: string; schema?: ZodType }>;
  /** do not count this route against rate limits (still authenticated) */
  noRateLimit?: boolean;
  /** do not write a request-log entry (e.g. SSE message posts) */
  noRequestLog?: boolean;
  /** still served while the server drains (liveness and readiness probes) */
  whileDraining?: boolean;
  handler?: (ctx: Ctx<B, Q>) => Promise<Reply | object | void> | Reply | object | void;
  /** long-lived answers (SSE): the route takes over the response */
  stream?: (ctx: Ctx<B, Q>, stream: StreamHandle) => void | Promise<void>;
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
