import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SafeFetcher } from '../../src/providers/fetch.js';

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer(handler);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => srv.close(() => r())) };
}

t.test('refuses private, loopback, link-local and metadata addresses', async (t) => {
  const f = new SafeFetcher({ allow: [], timeoutMs: 2000, maxBytes: 1000 });
  t.teardown(() => f.close());
  for (const u of ['http://127.0.0.1/x', 'http://10.1.2.3/', 'http://192.168.0.1/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost:1/', 'http://0.0.0.0/']) {
    await t.rejects(f.fetch(u, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', field: 'imageUrl' }, u);
  }
  await t.rejects(f.fetch('file:///etc/passwd', { field: 'imageUrl' }), { message: /http or https URL for imageUrl/ });
  await t.rejects(f.fetch('not a url', { field: 'imageUrl' }), { message: /absolute http\(s\) URL/ });
});

t.test('allow-listed loopback works; redirects re-checked; byte cap; timeout; status', async (t) => {
  const up = await serve((req, res) => {
    if (req.url === '/img') return res.end(Buffer.alloc(500, 1));
    if (req.url === '/big') return res.end(Buffer.alloc(5000, 1));
    if (req.url === '/chunked') {
      res.write(Buffer.alloc(800, 1));
      return setTimeout(() => res.end(Buffer.alloc(800, 1)), 10);
    }
    if (req.url === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest' });
      return res.end();
    }
    if (req.url === '/to-img') {
      res.writeHead(301, { location: '/img' });
      return res.end();
    }
    if (req.url === '/slow') return setTimeout(() => res.end('late'), 1500);
    res.writeHead(404);
    res.end('nope');
  });
  t.teardown(() => up.close());
  const f = new SafeFetcher({ allow: ['127.0.0.1'], timeoutMs: 500, maxBytes: 1000 });
  t.teardown(() => f.close());
  t.equal((await f.fetchImage(`${up.url}/img`)).length, 500);
  t.equal((await f.fetchImage(`${up.url}/to-img`)).length, 500, 'redirect followed');
  await t.rejects(f.fetch(`${up.url}/to-metadata`, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', message: /169\.254\.169\.254/ }, 'redirect to metadata refused');
  await t.rejects(f.fetch(`${up.url}/big`, { field: 'imageUrl' }), { code: 'PAYLOAD_TOO_LARGE' }, 'declared length over the cap');
  await t.rejects(f.fetch(`${up.url}/chunked`, { field: 'imageUrl' }), { code: 'PAYLOAD_TOO_LARGE' }, 'streamed bytes over the cap');
  await t.rejects(f.fetch(`${up.url}/slow`, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', message: /time limit/ });
  await t.rejects(f.fetchImage(`${up.url}/missing`, 'imageUrl'), { message: /HTTP 404/ });
  t.ok(f.addressAllowed('8.8.8.8'));
  t.notOk(f.addressAllowed('172.16.5.4'));
});
