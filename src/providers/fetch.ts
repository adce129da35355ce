// The one safe fetcher for user-supplied URLs (image URLs, callback URLs): http(s) only, every resolved address
// checked against loopback/private/link-local/metadata ranges (unless allow-listed), redirects re-checked,
// a timeout and a byte cap.
import dns from 'node:dns';
import net from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { ApiError } from '../server/errors.js';

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

const BLOCKED = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  BLOCKED.addSubnet(net6, prefix, 'ipv6');
}

function discard(body: Dispatcher.ResponseData['body']): void {
  try {
    body.on('error', () => undefined);
    body.destroy();
  } catch {
    /* already closed */
  }
}

export class SafeFetcher {
  private readonly allowHosts = new Set<string>();
  private readonly allowNets = new net.BlockList();
  private readonly agent: Agent;
  /** URLs refused by the address guard (at check or connect time), for /metrics */
  refusals = 0;

  constructor(private readonly cfg: { allow: string[]; timeoutMs: number; maxBytes: number }) {
    for (const entry of cfg.allow) {
      const [addr, bits] = entry.split('/');
      if (addr && net.isIP(addr)) {
        const fam = net.isIP(addr) === 6 ? 'ipv6' : 'ipv4';
        this.allowNets.addSubnet(addr, bits ? Number(bits) : fam === 'ipv6' ? 128 : 32, fam);
      } else if (addr) this.allowHosts.add(addr.toLowerCase());
    }
    this.agent = new Agent({
      connect: { lookup: (host, opts, cb) => this.lookup(host, opts, cb) },
      connections: 64,
      headersTimeout: cfg.timeoutMs,
      bodyTimeout: cfg.timeoutMs,
    });
  }

  /** True when this address may be reached (public, or allow-listed). */
  addressAllowed(ip: string, host?: string): boolean {
    if (host && this.allowHosts.has(host.toLowerCase())) return true;
    const fam = net.isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    let check = ip;
    // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as IPv4
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) check = mapped[1]!;
    const f = mapped ? 'ipv4' : fam;
    if (this.allowNets.check(check, f)) return true;
    return !BLOCKED.check(check, f);
  }

  private lookup(host: string, opts: dns.LookupOptions, cb: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void): void {
    dns.lookup(host, { ...opts, all: true }, (err, addrs) => {
      if (err) return cb(err, '', 4);
      const list = addrs as dns.LookupAddress[];
      const bad = list.find((a) => !this.addressAllowed(a.address, host));
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
    if (net.isIP(host) && !this.addressAllowed(host, host)) {
      this.refusals++;
      throw new ApiError('INVALID_REQUEST', `${field} points to a private, loopback or link-local address (${host}), which is not allowed`, { field });
    }
    if (/^(localhost|metadata\.google\.internal|metadata)$/i.test(host) && !this.allowHosts.has(host.toLowerCase())) {
      throw new ApiError('INVALID_REQUEST', `${field} points to ${host}, which is not allowed`, { field });
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
