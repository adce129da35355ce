// Low-level uWS glue: status lines, writing a reply (corked), reading a capped body.
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict',
  410: 'Gone', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

const STATUS_LINES = new Map(Object.entries(STATUS_TEXT).map(([s, t]) => [Number(s), `${s} ${t}`]));
export const statusLine = (s: number) => STATUS_LINES.get(s) ?? `${s} Status`;

/**
 * Status lines and header names as bytes, made once: uWS takes a typed array as it is, where every string is
 * converted to UTF-8 into a fresh copy on each call (eight conversions per answer of a keyed poll).
 */
const STATUS_BYTES = new Map([...STATUS_LINES].map(([s, line]) => [s, Buffer.from(line, 'latin1')]));
const NAME_BYTES = new Map<string, Buffer>();
const MAX_NAMES = 256;

function nameBytes(name: string): Buffer | string {
  let b = NAME_BYTES.get(name);
  if (b === undefined) {
    if (NAME_BYTES.size >= MAX_NAMES) return name; // names are the code's own; the cap only bounds a surprise
    NAME_BYTES.set(name, (b = Buffer.from(name, 'latin1')));
  }
  return b;
}

export interface OutMessage {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/**
 * Write a whole answer in one cork, with `extra` headers (the request's own: request id, rate limit, connection)
 * over the message's headers of the same name. Returns false when the client already went away.
 */
export function writeOut(res: HttpResponse, out: OutMessage, state: { aborted: boolean; done: boolean }, extra?: Record<string, string>): boolean {
  if (state.aborted || state.done) return false;
  state.done = true;
  res.cork(() => {
    res.writeStatus(STATUS_BYTES.get(out.status) ?? statusLine(out.status));
    for (const k in out.headers) if (!extra || !(k in extra)) res.writeHeader(nameBytes(k), out.headers[k]!);
    if (extra) for (const k in extra) res.writeHeader(nameBytes(k), extra[k]!);
    res.end(out.body);
  });
  return true;
}

/**
 * Read the request body up to maxBytes. Must be called synchronously inside the uWS handler.
 * Resolves with the bytes, or rejects with 'too-large' (the caller answers 413), 'busy' (grow() refused more
 * bytes: the global body budget is spent, 503) or 'aborted'.
 * With a declared Content-Length (already checked against maxBytes and the budget) the body is copied into one
 * buffer of that size: no chunk list, no concat copy, and one large allocation the C allocator hands back to the
 * system when freed, where thousands of 64 KB chunk copies fragment its heap and keep RSS up after a flood.
 */
export function readBody(res: HttpResponse, maxBytes: number, state: { aborted: boolean }, grow: (size: number) => boolean = () => true, declared = 0): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const whole = declared > 0 && declared <= maxBytes ? Buffer.allocUnsafeSlow(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    const fail = (why: string): void => {
      failed = true;
      chunks.length = 0;
      reject(new Error(why));
    };
    res.onData((ab, isLast) => {
      if (failed) return;
      if (state.aborted) return fail('aborted');
      const at = size;
      size += ab.byteLength;
      if (size > maxBytes || (whole && size > whole.length)) return fail('too-large');
      if (!grow(size)) return fail('busy');
      // uWS reuses the chunk's memory after this callback: copy it
      if (whole) whole.set(new Uint8Array(ab), at);
      else chunks.push(Buffer.from(new Uint8Array(ab)));
      if (!isLast) return;
      if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
  });
}
