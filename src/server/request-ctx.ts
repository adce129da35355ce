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

const EMPTY = Buffer.alloc(0);

/** What the context needs from the request's state: whether the client went away. */
interface AbortState { aborted: boolean }

export class RequestCtx implements Ctx {
  query: unknown = undefined;
  body: unknown = undefined;
  files: Record<string, UploadedFile> = {};
  rawBody: Buffer = EMPTY;
  principal: Principal = { kind: 'anonymous' };
  logExtra: Record<string, unknown> = {};
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
    private readonly queryText: string,
    /** the uWS response: the peer's address is read from it on first use of `ip` */
    private readonly res: HttpResponse,
    private readonly proxies: BlockList | undefined,
    private readonly state: AbortState,
  ) {}

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
        peer = peerAddress(this.res);
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

/**
 * The TCP peer's address as text. IPv4 (also IPv4-mapped IPv6) is formatted from uWS's binary address, which is
 * several times cheaper than its text form (an ArrayBuffer, a copy, a UTF-8 decode); other IPv6 peers take the text.
 */
export function peerAddress(res: HttpResponse): string {
  const b = new Uint8Array(res.getRemoteAddress());
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length === 16 && isV4Mapped(b)) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}

function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}
