// The one safe fetcher for user-supplied URLs (image URLs, callback URLs): http(s) only, every resolved address
// checked against loopback/private/link-local/metadata ranges and the IPv6 forms of them (unless allow-listed, by
// host, address or CIDR, with or without a port; see addresses.ts), never the service's own port on this machine,
// redirects re-checked, a timeout and a byte cap. Names are checked when a URL is accepted (checkUrlResolved) and
// again at connect time, on the addresses actually connected to.
import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { ApiError } from '../domain/errors.js';
import { AddressPolicy } from './addresses.js';

export interface FetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** field name used in error messages (e.g. imageUrl) */
  field?: string;
}

export interface FetchResult {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: string;
}

function discard(body: Dispatcher.ResponseData['body']): void {
  try {
    body.on('error', () => undefined);
    body.destroy();
  } catch {
    /* already closed */
  }
}

const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

export class SafeFetcher {
  /** URLs refused by the address guard (at check or connect time), for /metrics */
  refusals = 0;
  readonly policy: AddressPolicy;
  private readonly agent: Agent;
  /** one connector per destination port: the connect-time address check knows the port */
  private readonly connectors = new Map<number, buildConnector.connector>();

  /** selfPort: the port this service listens on (never reachable on this machine). */
  constructor(private readonly cfg: { allow: string[]; timeoutMs: number; maxBytes: number; selfPort?: () => number | undefined }) {
    this.policy = new AddressPolicy(cfg.allow, cfg.selfPort);
    this.agent = new Agent({
      connect: (opts, cb) => {
        const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
        let c = this.connectors.get(port);
        if (!c) {
          c = buildConnector({ lookup: (host: string, o: dns.LookupOptions, done: never) => this.lookup(host, port, o, done) } as never);
          this.connectors.set(port, c);
        }
        return c(opts, cb);
      },
      connections: 64,
      headersTimeout: cfg.timeoutMs,
      bodyTimeout: cfg.timeoutMs,
    });
  }

  /** True when this address may be reached at this port (public, or allow-listed; port 0: no port-bound rule). */
  addressAllowed(ip: string, host?: string, port = 0): boolean {
    return this.policy.allowed(ip, port, host);
  }

  private lookup(host: string, port: number, opts: dns.LookupOptions, cb: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void): void {
    dns.lookup(host, { ...opts, all: true }, (err, addrs) => {
      if (err) return cb(err, '', 4);
      const list = addrs as dns.LookupAddress[];
      const bad = list.find((a) => !this.addressAllowed(a.address, host, port));
      if (bad) {
        const e = new Error(`address ${bad.address} of ${host} is not allowed`) as NodeJS.ErrnoException;
        e.code = 'EBLOCKED';
        return cb(e, '', 4);
      }
      if ((opts as { all?: boolean }).all) return cb(null, list);
      return cb(null, list[0]!.address, list[0]!.family);
    });
  }

  /** Validate a URL string before any network work (scheme, literal addresses, credentials). */
  checkUrl(raw: string, field: string): URL {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw new ApiError('INVALID_REQUEST', `Expected an absolute http(s) URL for ${field} but received "${String(raw).slice(0, 80)}"`, { field });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw new ApiError('INVALID_REQUEST', `Expected an http or https URL for ${field} but received a ${u.protocol} URL`, { field });
    }
    if (u.username || u.password) throw new ApiError('INVALID_REQUEST', `URLs with credentials are not accepted for ${field}`, { field });
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = portOf(u);
    if (net.isIP(host) && this.policy.isSelf(host, port)) {
      this.refusals++;
      throw new ApiError('INVALID_REQUEST', `${field} points to this service itself (${host} port ${port}), which is not allowed`, { field });
    }
    if (net.isIP(host) && !this.addressAllowed(host, undefined, port)) {
      this.refusals++;
      throw new ApiError('INVALID_REQUEST', `${field} points to a private, loopback or link-local address (${host}), which is not allowed`, { field });
    }
    if (/^(localhost|localhost\.|.*\.localhost|metadata\.google\.internal|metadata)$/i.test(host) && !this.policy.hostAllowed(host, port)) {
      throw new ApiError('INVALID_REQUEST', `${field} points to ${host}, which is not allowed`, { field });
    }
    return u;
  }

  /**
   * checkUrl, then resolve the name now and refuse it when any address is not allowed (or the name does not exist),
   * so that a URL kept for later (a callback) is refused when it arrives rather than never delivered. The connect-time
   * check still applies to every attempt (names may change).
   */
  async checkUrlResolved(raw: string, field: string): Promise<URL> {
    const u = this.checkUrl(raw, field);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) return u;
    const port = portOf(u);
    let addrs: dns.LookupAddress[];
    try {
      addrs = await dns.promises.lookup(host, { all: true });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAI_AGAIN') return u; // a temporary failure: judged again when connecting
      throw new ApiError('INVALID_REQUEST', `${field} host ${host} could not be resolved (${code ?? 'error'})`, { field });
    }
    const bad = addrs.find((a) => !this.addressAllowed(a.address, host, port));
    if (bad) {
      this.refusals++;
      const self = this.policy.isSelf(bad.address, port);
      throw new ApiError('INVALID_REQUEST', self
        ? `${field} host ${host} resolves to this service itself (${bad.address} port ${port}), which is not allowed`
        : `${field} host ${host} resolves to a private, loopback or link-local address (${bad.address}), which is not allowed`, { field });
    }
    return u;
  }

  /** Fetch a URL safely. Network failures and refusals become 400 INVALID_REQUEST naming the field. */
  async fetch(raw: string, opts: FetchOptions = {}): Promise<FetchResult> {
    const field = opts.field ?? 'url';
    const maxBytes = opts.maxBytes ?? this.cfg.maxBytes;
    const timeoutMs = opts.timeoutMs ?? this.cfg.timeoutMs;
    const maxRedirects = opts.maxRedirects ?? 5;
    const signal = AbortSignal.timeout(timeoutMs);
    let url = this.checkUrl(raw, field);
    let method = opts.method ?? 'GET';
    let body = opts.body;
    for (let hop = 0; ; hop++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, { method, headers: { 'user-agent': 'sejong/3.6', ...opts.headers }, body, dispatcher: this.agent, signal, maxRedirections: 0 } as never);
      } catch (e) {
        throw this.networkError(e, field, url);
      }
      if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
        await res.body.dump().catch(() => undefined);
        if (hop >= maxRedirects) throw new ApiError('INVALID_REQUEST', `${field} redirected more than ${maxRedirects} times`, { field });
        url = this.checkUrl(new URL(String(res.headers.location), url).href, field);
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        discard(res.body);
        throw new ApiError('PAYLOAD_TOO_LARGE', `${field} answered with ${declared} bytes; at most ${maxBytes} are accepted`, { field });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            discard(res.body);
            throw new ApiError('PAYLOAD_TOO_LARGE', `${field} sent more than ${maxBytes} bytes`, { field });
          }
          chunks.push(chunk as Buffer);
        }
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw this.networkError(e, field, url);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return { status: res.statusCode, headers, body: Buffer.concat(chunks), url: url.href };
    }
  }

  /** GET an image: non-2xx → 400 naming the field and the status. */
  async fetchImage(raw: string, field = 'imageUrl'): Promise<Buffer> {
    const r = await this.fetch(raw, { field });
    if (r.status < 200 || r.status >= 300) {
      throw new ApiError('INVALID_REQUEST', `${field} could not be read: the server answered HTTP ${r.status}`, { field });
    }
    if (r.body.length === 0) throw new ApiError('INVALID_REQUEST', `${field} answered with an empty body`, { field });
    return r.body;
  }

  private networkError(e: unknown, field: string, url: URL): ApiError {
    const err = e as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    const named = err?.name === 'TimeoutError' || err?.name === 'AbortError' ? err.name : undefined;
    const code = named ?? (typeof err?.code === 'string' ? err.code : undefined) ?? err?.cause?.code ?? err?.name;
    if (code === 'EBLOCKED' || err?.cause?.code === 'EBLOCKED') {
      this.refusals++;
      return new ApiError('INVALID_REQUEST', `${field} resolves to a private, loopback or link-local address, which is not allowed`, { field });
    }
    if (code === 'TimeoutError' || code === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new ApiError('INVALID_REQUEST', `${field} did not answer within the time limit`, { field });
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ApiError('INVALID_REQUEST', `${field} host ${url.hostname} could not be resolved`, { field });
    return new ApiError('INVALID_REQUEST', `${field} could not be fetched (${code ?? 'network error'})`, { field });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
