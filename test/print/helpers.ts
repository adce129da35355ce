// Shared setup of the print tests: a local image server (127.0.0.1) and small admin helpers over HTTP.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from '../helpers/server.js';
import { formData } from '../helpers/server.js';

export interface ImageServer {
  url: string;
  hits: number;
  close(): Promise<void>;
}

/** Serves fixed bytes by path; anything else 404. */
export async function imageServer(files: Record<string, { body: Buffer | string; type: string }>): Promise<ImageServer> {
  const state = { hits: 0 };
  const srv = http.createServer((req, res) => {
    state.hits++;
    const f = files[req.url ?? ''];
    if (!f) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type });
    res.end(f.body);
  });
  srv.keepAliveTimeout = 1000;
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    get hits() {
      return state.hits;
    },
    close: () => new Promise<void>((r) => {
      srv.closeAllConnections();
      srv.close(() => r());
    }),
  };
}

export function admin(s: TestServer) {
  const call = async (method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> => {
    const r = await s.req(path, { method, json, key: s.adminKey });
    const text = await r.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* CSV */
    }
    return { status: r.status, body };
  };
  return {
    call,
    async advertiser(name: string, unit: number, points: number): Promise<string> {
      const r = await call('POST', '/api/v1/admin/print/advertisers', { name, unit_points: unit });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
      if (points) {
        const t = await call('POST', `/api/v1/admin/print/advertisers/${r.body.id}/top-ups`, { points, reason: 'test top-up' });
        if (t.status !== 201) throw new Error(JSON.stringify(t.body));
      }
      return r.body.id;
    },
    /** upload a creative and approve version 1 */
    async creative(advertiserId: string, png: Buffer, opts: { approve?: boolean; album_ids?: string[] } = {}): Promise<string> {
      const fd = formData({ advertiser_id: advertiserId, title: `ad of ${advertiserId}`, album_ids: opts.album_ids ? JSON.stringify(opts.album_ids) : undefined }, { image: { data: png, filename: 'ad.png', type: 'image/png' } });
      const r = await s.req('/api/v1/admin/print/applications', { method: 'POST', body: fd, key: s.adminKey });
      const body = await r.json() as any;
      if (r.status !== 201) throw new Error(JSON.stringify(body));
      if (opts.approve !== false) {
        const a = await call('POST', `/api/v1/admin/print/applications/${body.id}/versions/1/approve`, {});
        if (a.status !== 200) throw new Error(JSON.stringify(a.body));
      }
      return body.id;
    },
    async album(id: string, ad_mode: 'none' | 'fixed' | 'selected', extra: Record<string, unknown> = {}): Promise<void> {
      const r = await call('POST', '/api/v1/admin/print/albums', { id, name: `album ${id}`, ad_mode, ...extra });
      if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    },
    async balance(id: string): Promise<{ balance: number; ledger_sum: number; ledger_entries: number }> {
      const r = await call('GET', `/api/v1/admin/print/advertisers/${id}`);
      return r.body;
    },
  };
}
