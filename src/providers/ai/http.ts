// The small HTTP client every AI adapter uses: JSON POST with a timeout, one retry on 429/5xx (and on a reset
// connection) with backoff, and failures mapped to 502 AI_API_ERROR naming the upstream status, never echoing
// the upstream body or the key.
import { Agent, request } from 'undici';
import { ApiError } from '../../domain/errors.js';

export interface UpstreamCall {
  /** who we call, for messages: "fam-b provider" */
  provider: string;
  /** the public model id, for messages */
  model: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface HttpOptions {
  timeoutMs: number;
  /** first backoff before the retry (ms); Retry-After is honoured up to maxBackoffMs */
  backoffMs: number;
  maxBackoffMs: number;
  /** largest upstream answer read (bytes) */
  maxBytes: number;
}

export const DEFAULT_HTTP: HttpOptions = { timeoutMs: 120_000, backoffMs: 500, maxBackoffMs: 5_000, maxBytes: 64 * 1024 * 1024 };

const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000, pipelining: 1 });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class UpstreamError extends ApiError {
  retryInMs?: number;
  constructor(
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super('AI_API_ERROR', message, { details: upstreamStatus !== undefined ? { upstreamStatus } : undefined });
  }
}

/** Remove anything that looks like the key from a message (belt and braces: messages never contain bodies). */
function scrub(msg: string, headers: Record<string, string>): string {
  let out = msg;
  for (const v of Object.values(headers)) {
    const secret = v.replace(/^Bearer\s+/i, '');
    if (secret.length >= 6) out = out.split(secret).join('***');
  }
  return out;
}

function retryDelay(attemptStatus: number | undefined, retryAfter: string | undefined, o: HttpOptions): number {
  if (attemptStatus === 429 && retryAfter) {
    const s = Number(retryAfter);
    if (Number.isFinite(s) && s >= 0) return Math.min(s * 1000, o.maxBackoffMs);
    const d = Date.parse(retryAfter);
    if (Number.isFinite(d)) return Math.max(0, Math.min(d - Date.now(), o.maxBackoffMs));
  }
  return Math.min(o.backoffMs * (0.75 + Math.random() * 0.5), o.maxBackoffMs);
}

/** POST JSON, return the parsed JSON answer (2xx), or throw UpstreamError (502). */
export async function postJson(call: UpstreamCall, o: HttpOptions): Promise<unknown> {
  const who = `${call.provider} (model ${call.model})`;
  const body = JSON.stringify(call.body);
  let lastError: UpstreamError | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await sleep(lastError?.retryInMs ?? o.backoffMs);
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      const res = await request(call.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...call.headers },
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      status = res.statusCode;
      const ra = res.headers['retry-after'];
      retryAfter = Array.isArray(ra) ? ra[0] : ra;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > o.maxBytes) {
          res.body.destroy();
          throw new UpstreamError(`${who} answered with more than ${o.maxBytes} bytes`, status);
        }
        chunks.push(c as Buffer);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      const err = e as Error & { code?: string; cause?: { code?: string } };
      const code = typeof err.code === 'string' ? err.code : err.cause?.code ?? err.name;
      if (err.name === 'TimeoutError' || err.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw new UpstreamError(`${who} did not answer within ${o.timeoutMs} ms`);
      }
      // connection refused / reset: retry once
      lastError = new UpstreamError(scrub(`${who} could not be reached (${code ?? 'network error'})`, call.headers));
      lastError.retryInMs = retryDelay(undefined, undefined, o);
      continue;
    }
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(text);
      } catch {
        throw new UpstreamError(`${who} answered HTTP ${status} with a body that is not JSON`, status);
      }
    }
    const e = new UpstreamError(`${who} answered HTTP ${status}${status === 429 ? ' (rate limited)' : status >= 500 ? ' (server error)' : status === 401 || status === 403 ? ' (the provider refused the configured key)' : ''}`, status);
    if (status === 429 || status >= 500) {
      e.retryInMs = retryDelay(status, retryAfter, o);
      lastError = e;
      continue;
    }
    throw e;
  }
  throw new UpstreamError(`${lastError!.message}; retried once`, lastError!.upstreamStatus);
}

/** A malformed (but JSON) answer. */
export function malformed(provider: string, model: string, what: string): UpstreamError {
  return new UpstreamError(`${provider} (model ${model}) answered with a malformed body: ${what}`);
}
