// What the front end keeps about one request in flight (the Exchange the steps of HttpServer.handle share, its
// abort state) and across them: the in-flight count a draining close() waits on, and the header collector.
import type { HttpRequest, HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { ApiError } from '../domain/errors.js';
import type { BodyLease } from './budget.js';
import type { RouteDef } from './types.js';
import type { RequestCtx } from './request-ctx.js';

export interface ReqState {
  aborted: boolean;
  done: boolean;
  closeHandlers: Array<() => void>;
}

/** One request in flight: what the steps of HttpServer.handle share. */
export interface Exchange {
  res: HttpResponse;
  route: RouteDef;
  ctx: RequestCtx;
  state: ReqState;
  t0: number; // performance.now() at arrival
  lease?: BodyLease; // this request's share of the body budget (requests that carry a body)
  paramError?: ApiError; // a bad path parameter (bad % escape, or the default 1-200 characters rule): answered before auth
  outHeaders: Record<string, string>; // on every answer: x-request-id, rate-limit headers, connection: close
  counted: boolean; // counted in flight (enter) and not yet released
}

/**
 * The requests in flight. enter/release mark the exchange (`counted`) rather than hand out a closure per request
 * (front21: one of the objects a poll allocated); release counts once however many ways a request ends.
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  enter(x: Exchange): void {
    this.count++;
    x.counted = true;
  }

  release(x: Exchange): void {
    if (!x.counted) return;
    x.counted = false;
    this.count--;
    if (this.count === 0 && this.waiters.length > 0) for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when none is in flight any more, or after timeoutMs (a request that never ends does not hold a close). */
  async drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    await Promise.race([new Promise<void>((r) => this.waiters.push(r)), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }
}

/**
 * req.forEach's callback, made once rather than a closure per request: it writes into headersInto, set just before
 * each (synchronous) forEach. A closure per request was one of the objects a poll allocated (front21).
 */
let headersInto: Record<string, string> = {};
const putHeader = (k: string, v: string): void => {
  headersInto[k] = v;
};

/** The request's headers (lower-case names, as uWS gives them) as a plain object; read before the handler returns. */
export function readHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = (headersInto = {});
  req.forEach(putHeader);
  return headers;
}
