// Shared machinery of the fake AI providers (fama/famb/famc): an HTTP server on 127.0.0.1 that records every
// request and answers with scripted behaviours (ok, 429, 500, slow, malformed, not-json) before the normal answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: any;
  rawBody: string;
  at: number;
  /** when the answer was written (ms epoch) */
  answeredAt?: number;
}

export type Behaviour =
  | 'ok'
  | { status: number; retryAfter?: string }
  | { slowMs: number }
  | 'malformed' // 200 JSON without the expected fields
  | 'not-json'; // 200 with a body that is not JSON

export interface Answer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (req: Recorded) => Promise<Answer> | Answer;

export class FakeServer {
  readonly requests: Recorded[] = [];
  /** behaviours consumed one per request before falling back to 'ok' */
  readonly script: Behaviour[] = [];
  /** fixed latency of every answer (ms) */
  latencyMs = 0;
  url = '';
  private server?: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    readonly key: string,
    private readonly handler: Handler,
    private readonly errorBody: (status: number, message: string) => unknown,
  ) {}

  next(...b: Behaviour[]): this {
    this.script.push(...b);
    return this;
  }

  reset(): void {
    this.requests.length = 0;
    this.script.length = 0;
    this.latencyMs = 0;
  }

  get last(): Recorded | undefined {
    return this.requests[this.requests.length - 1];
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.serve(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://x');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const rec: Recorded = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers, body, rawBody, at: Date.now() };
    this.requests.push(rec);
    const b = this.script.shift() ?? 'ok';
    if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    let ans: Answer;
    if (typeof b === 'object' && 'slowMs' in b) {
      await new Promise((r) => setTimeout(r, b.slowMs));
      ans = await this.safe(rec);
    } else if (typeof b === 'object') {
      ans = { status: b.status, json: this.errorBody(b.status, `scripted ${b.status}`), headers: b.retryAfter !== undefined ? { 'retry-after': b.retryAfter } : {} };
    } else if (b === 'malformed') ans = { status: 200, json: { unexpected: true } };
    else if (b === 'not-json') ans = { status: 200, text: '<html>upstream proxy error</html>' };
    else ans = await this.safe(rec);
    if (res.destroyed) return;
    const payload = ans.text ?? JSON.stringify(ans.json ?? {});
    res.writeHead(ans.status, { 'content-type': ans.text !== undefined ? 'text/html' : 'application/json', ...(ans.headers ?? {}) });
    res.end(payload);
    rec.answeredAt = Date.now();
  }

  private async safe(rec: Recorded): Promise<Answer> {
    try {
      return await this.handler(rec);
    } catch (e) {
      if (e instanceof FakeReject) return { status: e.status, json: this.errorBody(e.status, e.message) };
      return { status: 500, json: this.errorBody(500, String((e as Error).message)) };
    }
  }
}

/** Thrown by a handler: the request broke the wire contract (answered like the real API would). */
export class FakeReject extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function check(cond: unknown, status: number, message: string): asserts cond {
  if (!cond) throw new FakeReject(status, message);
}

const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
export function checkImageB64(mime: unknown, data: unknown, where: string): void {
  check(typeof mime === 'string' && IMAGE_MIMES.includes(mime), 400, `${where}: unsupported media type`);
  check(typeof data === 'string' && /^[A-Za-z0-9+/]+=*$/.test(data) && data.length > 16, 400, `${where}: data is not base64`);
  const head = Buffer.from((data as string).slice(0, 24), 'base64');
  const ok = (head[0] === 0x89 && head[1] === 0x50) || (head[0] === 0xff && head[1] === 0xd8) || head.toString('latin1', 0, 4) === 'RIFF';
  check(ok, 400, `${where}: data is not an image`);
}

const pngCache = new Map<string, Promise<Buffer>>();
/** A deterministic test picture (gradient + stripes), PNG, width × height. */
export function fakePng(width: number, height: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const key = `${width}x${height}.${format}`;
  let p = pngCache.get(key);
  if (!p) {
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 3;
        raw[i] = (x * 255) / Math.max(1, width - 1);
        raw[i + 1] = (y * 255) / Math.max(1, height - 1);
        raw[i + 2] = ((x >> 3) + (y >> 3)) % 2 ? 200 : 60;
      }
    }
    const img = sharp(raw, { raw: { width, height, channels: 3 } });
    p = (format === 'png' ? img.png() : img.jpeg({ quality: 90 })).toBuffer();
    pngCache.set(key, p);
  }
  return p;
}

/** Picture dimensions for an aspect ratio around a base edge. */
export function dims(aspect: string | undefined, base: number): [number, number] {
  const [w, h] = (aspect ?? '1:1').split(':').map(Number) as [number, number];
  if (!w || !h) return [base, base];
  return w >= h ? [Math.round((base * w) / h), base] : [base, Math.round((base * h) / w)];
}

export const tokensOf = (s: string) => Math.max(1, Math.ceil(s.length / 4));
