// SEJONG_FETCH_ALLOW with ports, IPv6 forms of private IPv4, no self-requests, callback names resolved at request time.
import t from 'tap';
import http from 'node:http';
import os from 'node:os';
import dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import { SafeFetcher } from '../../src/providers/fetch.js';
import { embeddedIpv4, isBlockedAddress, parseAllowEntry } from '../../src/providers/addresses.js';
import { startTestServer, formData } from '../helpers/server.js';
import { ConfigError } from '../../src/config.js';

async function serve(): Promise<{ port: number; close: () => Promise<void> }> {
  const srv = http.createServer((_req, res) => res.end(Buffer.alloc(10, 7)));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { port: (srv.address() as AddressInfo).port, close: () => new Promise((r) => srv.close(() => r())) };
}

t.test('allow entries: host, host:port, IP:port, [v6]:port, CIDR, CIDR:port; malformed ones name the variable', async (t) => {
  t.match(parseAllowEntry('receiver.internal:8443'), { host: 'receiver.internal', port: 8443 });
  t.match(parseAllowEntry('receiver.internal'), { host: 'receiver.internal', port: undefined });
  t.match(parseAllowEntry('127.0.0.1:8080'), { port: 8080 });
  t.match(parseAllowEntry('[::1]:9000'), { port: 9000 });
  t.match(parseAllowEntry('10.0.0.0/8:443'), { port: 443 });
  t.match(parseAllowEntry('fd00::/8'), { port: undefined });
  t.match(parseAllowEntry('[fd00::]/8:80'), { port: 80 });
  for (const bad of ['127.0.0.1:0', '127.0.0.1:99999', 'host:abc', '10.0.0.0/33', '300.1.1.1', 'a:b:c', '[::1', '[127.0.0.1]:80', 'bad host', '::1:80x', '10.0.0.0/8/8']) {
    t.throws(() => parseAllowEntry(bad), { constructor: ConfigError, message: /^SEJONG_FETCH_ALLOW: entry/ }, bad);
  }
  t.throws(() => new SafeFetcher({ allow: ['127.0.0.1:http'], timeoutMs: 1000, maxBytes: 100 }), { message: /SEJONG_FETCH_ALLOW: entry "127\.0\.0\.1:http"/ });
  await t.rejects(startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1:70000' } }), { message: /SEJONG_FETCH_ALLOW/ }, 'start-up fails');
});

t.test('a port-bound entry allows that port only', async (t) => {
  const up = await serve();
  const other = await serve();
  t.teardown(async () => { await up.close(); await other.close(); });
  for (const allow of [`127.0.0.1:${up.port}`, `127.0.0.0/8:${up.port}`, `localhost:${up.port}`]) {
    const f = new SafeFetcher({ allow: [allow], timeoutMs: 2000, maxBytes: 100 });
    const host = allow.startsWith('localhost') ? 'localhost' : '127.0.0.1';
    t.equal((await f.fetchImage(`http://${host}:${up.port}/x`)).length, 10, `${allow}: allowed port`);
    await t.rejects(f.fetch(`http://${host}:${other.port}/x`, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', field: 'imageUrl' }, `${allow}: other port refused`);
    await f.close();
  }
});

t.test('IPv6 forms of loopback and private IPv4 are refused', async (t) => {
  t.equal(embeddedIpv4('::7f00:1'), '127.0.0.1');
  t.equal(embeddedIpv4('::ffff:10.0.0.1'), '10.0.0.1');
  t.equal(embeddedIpv4('64:ff9b::c0a8:101'), '192.168.1.1');
  t.equal(embeddedIpv4('2002:0a00:0001::1'), '10.0.0.1');
  t.equal(isBlockedAddress('2002:0808:0808::1'), false, '6to4 of a public address is public');
  t.equal(isBlockedAddress('2606:4700::1111'), false);
  const f = new SafeFetcher({ allow: [], timeoutMs: 1000, maxBytes: 100 });
  t.teardown(() => f.close());
  for (const u of ['http://[::127.0.0.1]/', 'http://[::ffff:7f00:1]/', 'http://[::ffff:10.1.2.3]/', 'http://[::a.b.c.d]/'.replace('a.b.c.d', '192.168.0.1'),
    'http://[64:ff9b::10.0.0.1]/', 'http://[64:ff9b:1::a9fe:a9fe]/', 'http://[2002:7f00:1::]/', 'http://[2002:a9fe:a9fe::1]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::]/', 'http://foo.localhost/']) {
    await t.rejects(f.fetch(u, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', field: 'imageUrl' }, u);
  }
});

t.test('the service itself is never reachable, even when allow-listed', async (t) => {
  const s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.0/8,localhost,::1' } });
  t.teardown(() => s.close());
  const f = s.services.fetcher;
  for (const u of [`http://127.0.0.1:${s.port}/health`, `http://localhost:${s.port}/health`, `http://127.0.0.2:${s.port}/`, `http://[::ffff:127.0.0.1]:${s.port}/`, `http://[::1]:${s.port}/`]) {
    await t.rejects(f.fetch(u, { field: 'imageUrl' }), { code: 'INVALID_REQUEST', field: 'imageUrl' }, u);
  }
  await t.rejects(f.checkUrlResolved(`http://localhost:${s.port}/hook`, 'callback_url'), { message: /this service itself/ });
  const up = await serve();
  t.teardown(() => up.close());
  t.equal((await f.fetchImage(`http://localhost:${up.port}/x`)).length, 10, 'another loopback port stays allowed');
});

t.test('callback_url names resolving to private addresses: 400 at request time naming callback_url', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  for (const url of ['http://localhost/hook', 'http://localhost.localdomain.invalid/hook', 'http://127.0.0.1.nip.io.invalid/x']) {
    const r = await s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'jumin', callback_url: url }, { image: { data: png, type: 'image/png' } }) });
    t.equal(r.status, 400, url);
    const b = await r.json();
    t.equal(b.error.code, 'INVALID_REQUEST');
    t.equal(b.error.field, 'callback_url');
  }
  // this machine's own name (not a literal, not "localhost") resolves to a loopback/private address here
  const name = os.hostname();
  const addrs = await dns.promises.lookup(name, { all: true }).catch(() => []);
  if (addrs.length && addrs.every((a) => !s.services.fetcher.addressAllowed(a.address))) {
    const r = await s.req('/api/v1/ekyc/enhance', { method: 'POST', body: formData({ doc_type: 'jumin', callback_url: `http://${name}:8080/hook` }, { image: { data: png, type: 'image/png' } }) });
    t.equal(r.status, 400, `${name} resolves to ${addrs[0]!.address}`);
    const b = await r.json();
    t.match(b.error, { code: 'INVALID_REQUEST', field: 'callback_url', message: new RegExp(`${name} resolves to a private`) });
  }
  const f = s.services.fetcher;
  // a name (not a literal) that resolves to loopback: refused when the request arrives
  await t.rejects(f.checkUrlResolved('http://localhost:9/hook', 'callback_url'), { code: 'INVALID_REQUEST', field: 'callback_url', message: /localhost/ });
  await t.rejects(f.checkUrlResolved('http://no-such-host.invalid/hook', 'callback_url'), { code: 'INVALID_REQUEST', field: 'callback_url', message: /could not be resolved/ });
});
