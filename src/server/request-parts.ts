// The pure pieces of answering one request (server/app.ts runs them): path parameters decoded and checked, a
// handler's result as the message to send, the request id, and any thrown value as an ApiError.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { engineDown } from '../shared/errors.js';
import { ApiError, invalid, isApiError } from '../domain/errors.js';
import { isReply, type RouteDef } from './types.js';
import type { OutMessage } from './http.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fresh request ids in the UUID v4 text form, made by hand: a random 74-bit base per process (drawn again every 2^32
 * ids) and a counter in the last eight hex digits. crypto.randomUUID() formats 16 random bytes for every request
 * (with a randomFillSync every 128 ids); a request id names a request in logs and headers, it is no secret, so
 * unique (the random base, fleet-wide) is enough and the counter costs one toString per request.
 */
let idBase = '';
let idCount = 0x100000000;

export function freshRequestId(): string {
  if (idCount >= 0x100000000) {
    const u = crypto.randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: keep all but its last 8 hex digits
    idBase = u.slice(0, 28);
    idCount = 0;
  }
  const n = (idCount++).toString(16);
  return idBase + (n.length === 8 ? n : '00000000'.slice(n.length) + n);
}

/** The client's x-request-id when it is sane (safe to echo and log), else a fresh one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : freshRequestId();
}

/** uWS pattern '/a/:id' from our path; returns param names in order. */
export function paramNames(path: string): string[] {
  return path.split('/').filter((s) => s.startsWith(':')).map((s) => s.slice(1));
}

/**
 * Decode the path parameters (req.getParameter(i) for each name) into params; a malformed % escape is the 400 naming
 * the parameter that comes back, never a URIError. (No array of raw values and no result object: a poll's allocations.)
 */
export function decodeParams(names: string[], req: { getParameter(i: number): string | undefined }, params: Record<string, string>): ApiError | undefined {
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = req.getParameter(i) ?? '';
    if (value.indexOf('%') < 0) {
      params[name] = value; // nothing to decode (the common case)
      continue;
    }
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      return invalid(name, 'a path segment with valid percent-escapes (%XX of UTF-8)', value.slice(0, 60));
    }
  }
  return undefined;
}

/** the headers of a JSON answer that names no others: one frozen object, only read (writeOut, checkResponse) */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': JSON_TYPE });

/** A handler's result as the message to send: a Reply as it says, anything else JSON with status 200. */
export function answerOf(result: unknown): OutMessage {
  if (!isReply(result)) return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(result ?? { success: true }) };
  const ct = result.contentType ?? JSON_TYPE;
  const isJson = ct.startsWith('application/json');
  const body = Buffer.isBuffer(result.body) || typeof result.body === 'string' ? result.body : isJson ? JSON.stringify(result.body ?? null) : String(result.body ?? '');
  const type = isJson ? JSON_TYPE : ct;
  // no spread when the reply names no headers (a status poll's cached answer): the one shared JSON header set
  const headers = result.headers ? { 'content-type': type, ...result.headers } : isJson ? JSON_HEADERS : { 'content-type': type };
  return { status: result.status ?? 200, headers, body };
}

/** 503: the body budget is spent (too many bodies in flight at once). */
export function busy(): ApiError {
  return new ApiError('SERVICE_BUSY', 'Too many request bodies are being received at once; retry shortly', { headers: { 'retry-after': '1', connection: 'close' } });
}

/** Any thrown value as the error to answer: an ApiError as it is, a storage outage 503, anything else 500 (logged). */
export function toApiError(e: unknown, log: Logger): ApiError {
  if (isApiError(e)) return e;
  // PostgreSQL or Redis away (shared mode) where a store did not map it itself: 503 with Retry-After
  if (engineDown(e)) return new ApiError('SERVICE_BUSY', 'A storage engine is not reachable from this node; retry shortly', { headers: { 'retry-after': '2' } });
  // task errors were already turned into ApiErrors by WorkerPool.run(); anything else is ours to fix
  log.error({ msg: 'unhandled error', err: { message: (e as Error)?.message, stack: (e as Error)?.stack } });
  return new ApiError('INTERNAL_ERROR', 'Internal failure; the error was logged');
}

/** Default path-parameter rule: every `:name` a non-empty string of at most 200 characters (a route's params schema replaces it). */
export function checkParams(params: Record<string, string>, route: RouteDef): ApiError | undefined {
  if (route.params) return undefined;
  for (const name in params) {
    const v = params[name]!;
    if (v.length === 0 || v.length > 200) return invalid(name, 'a path parameter of 1 to 200 characters', v.length === 0 ? '' : `${v.length} characters`);
  }
  return undefined;
}
