// The context one request's handler sees (Ctx), as a class. The parts most requests never read — the request's
// child logger, the client address (a parse, and a walk through X-Forwarded-For behind trusted proxies) and the
// query string as URLSearchParams — are made on first read by prototype getters. An object literal with a getter
// would define that accessor anew on every request; a class pays nothing until a handler asks.
import type { BlockList } from 'node:net';
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { Logger } from 'pino';
import type { Services } from '../services.js';
import type { Ctx, Method, Principal, UploadedFile } from './types.js';
import { clientAddress } from '../domain/client-address.js';

/** the body of a request that has none (one shared empty buffer) */
export const EMPTY_BODY = Buffer.alloc(0);

/** the principal before authentication (and of routes without auth): one frozen object, principals are only read */
export const ANONYMOUS: Principal = Object.freeze({ kind: 'anonymous' });
/** the files of a request without a multipart body: one frozen empty object (the body parser assigns its own) */
const NO_FILES: Record<string, UploadedFile> = Object.freeze({});

/** What the context needs from the request's state: whether the client went away. */
interface AbortState { aborted: boolean }

export class RequestCtx implements Ctx {
  query: unknown = undefined;
  body: unknown = undefined;
  files: Record<string, UploadedFile> = NO_FILES;
  rawBody: Buffer = EMPTY_BODY;
  principal: Principal = ANONYMOUS;
  private extra?: Record<string, unknown>;
  private child?: Logger;
  private address?: string;
  private parsedQuery?: URLSearchParams;

  constructor(
    readonly services: Services,
    readonly requestId: string,
    readonly method: Method,
    readonly path: string,
    public params: Record<string, string>,
    readonly headers: Record<string, string>,
    /** the raw query string ('' when there is none) */
    readonly queryText: string,
    /** the uWS response: the peer's address is read from it on first use of `ip` */
    private readonly res: HttpResponse,
    private readonly proxies: BlockList | undefined,
    private readonly state: AbortState,
  ) {}

  /** fields a handler adds to the request's log line: made on a handler's first write, most requests add none */
  get logExtra(): Record<string, unknown> {
    return (this.extra ??= {});
  }

  /** logExtra when a handler made it, without making it */
  extraLogFields(): Record<string, unknown> | undefined {
    return this.extra;
  }

  /** the server's logger with this request's id on every line */
  get log(): Logger {
    return (this.child ??= this.services.log.child({ reqId: this.requestId }));
  }

  /**
   * The client's address (the peer, or behind trusted proxies the right-most untrusted X-Forwarded-For hop), read
   * on first use: most requests never ask, and uWS makes a new ArrayBuffer for every read of the peer's address.
   * Asked first after the client went away (uWS refuses to read a finished response), it is '' (nobody to limit).
   */
  get ip(): string {
    if (this.address === undefined) {
      let peer: string;
      try {
        peer = Buffer.from(this.res.getRemoteAddressAsText()).toString();
      } catch {
        return '';
      }
      this.address = clientAddress(peer, this.headers['x-forwarded-for'], this.proxies);
    }
    return this.address;
  }

  get rawQuery(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.queryText));
  }

  /** the query string's parameters as a plain object (the last of repeated names), without parsing an empty one */
  queryObject(): Record<string, string> {
    return this.queryText === '' ? {} : Object.fromEntries(this.rawQuery);
  }

  aborted(): boolean {
    return this.state.aborted;
  }
}
