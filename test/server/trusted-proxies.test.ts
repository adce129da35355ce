// SEJONG_TRUSTED_PROXIES: the client address behind a balancer. From an untrusted peer X-Forwarded-For is ignored
// (a spoofed header changes nothing); from a trusted peer the right-most untrusted hop is the client, so per-address
// limits (here the console sign-in throttle) count each client, not the balancer.
import t from 'tap';
import { clientAddress, trustedProxies } from '../../src/domain/client-address.js';
import { loadConfig } from '../../src/config.js';
import { startTestServer } from '../helpers/server.js';

t.test('clientAddress', async (t) => {
  const proxies = trustedProxies(['127.0.0.1', '10.0.0.0/8', '::1']);
  t.equal(clientAddress('198.51.100.7', '203.0.113.5', proxies), '198.51.100.7', 'untrusted peer: header ignored');
  t.equal(clientAddress('127.0.0.1', '203.0.113.5', undefined), '127.0.0.1', 'no trusted proxies: header ignored');
  t.equal(clientAddress('127.0.0.1', '203.0.113.5', proxies), '203.0.113.5', 'trusted peer: the forwarded client');
  t.equal(clientAddress('::ffff:127.0.0.1', '203.0.113.5', proxies), '203.0.113.5', 'IPv4-mapped peer');
  t.equal(clientAddress('127.0.0.1', '1.2.3.4, 203.0.113.5, 10.1.2.3', proxies), '203.0.113.5', 'right-most untrusted hop; a spoofed left part is skipped');
  t.equal(clientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2', proxies), '127.0.0.1', 'all hops trusted: the peer');
  t.equal(clientAddress('127.0.0.1', 'garbage', proxies), '127.0.0.1', 'malformed hop: the peer');
  t.equal(clientAddress('127.0.0.1', '[2001:db8::1]', proxies), '2001:db8::1', 'bracketed IPv6');
  t.equal(clientAddress('127.0.0.1', undefined, proxies), '127.0.0.1', 'no header');
});

t.test('bad setting: a start-up error naming it and the entry', async (t) => {
  t.throws(() => loadConfig({ SEJONG_TRUSTED_PROXIES: '127.0.0.1,10.0.0.0/40' }), /SEJONG_TRUSTED_PROXIES: expected an IP address or CIDR, got "10.0.0.0\/40"/);
  t.throws(() => loadConfig({ SEJONG_TRUSTED_PROXIES: 'balancer.local' }), /SEJONG_TRUSTED_PROXIES: expected an IP address or CIDR, got "balancer.local"/);
  t.same(loadConfig({ SEJONG_TRUSTED_PROXIES: ' 127.0.0.1 , ::1/128' }).trustedProxies, ['127.0.0.1', '::1/128']);
});

async function lockOut(trusted: string) {
  const s = await startTestServer({ manualClock: true, env: { SEJONG_CONSOLE_PASSWORD: 'right-password', SEJONG_TRUSTED_PROXIES: trusted } });
  const login = (xff: string) => s.req('/console/login', { method: 'POST', key: null, json: { password: 'wrong' }, headers: { 'x-forwarded-for': xff } }).then((r) => r.status);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push(await login('203.0.113.5'));
  return { s, statuses, again: await login('203.0.113.5'), other: await login('203.0.113.6') };
}

t.test('trusted balancer: each forwarded client has its own throttle', async (t) => {
  const { s, statuses, again, other } = await lockOut('127.0.0.1');
  t.teardown(() => s.close());
  t.same(statuses, [401, 401, 401, 401, 401], 'five free failures');
  t.equal(again, 429, 'the guessing client is locked out');
  t.equal(other, 401, 'another client behind the same balancer is not');
});

t.test('untrusted peer: a spoofed X-Forwarded-For does not escape the throttle', async (t) => {
  const { s, statuses, again, other } = await lockOut('');
  t.teardown(() => s.close());
  t.same(statuses, [401, 401, 401, 401, 401], 'five free failures');
  t.equal(again, 429);
  t.equal(other, 429, 'a different X-Forwarded-For from the same peer is still locked out');
});
