// Account checks: sandbox test accounts, validation of bankCode / accountNumber / identityNumber, HTTP adapter
// against a fake provider (answers, timeout, 5xx → 502), masking in logs.
import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { maskAccount, maskIdentity, validBusinessNumber, validYymmdd } from '../../src/providers/payment/index.js';

let s: TestServer;
t.before(async () => { s = await startTestServer({ workers: 1 }); });
t.teardown(() => s.close());
const post = (p: string, json: unknown, srv = s) => srv.req(`/api/v1/ekyc/account/${p}`, { method: 'POST', json });

t.test('sandbox answers', async (t) => {
  let r = await post('holder-name', { bankCode: '004', accountNumber: '1002003004001' });
  t.equal(r.status, 200);
  let j = await r.json();
  t.equal(j.holderName, '홍길동');
  t.type(j.processingTimeMs, 'number');
  t.same((await (await post('validate', { bankCode: '004', accountNumber: '1002003004001' })).json()).isValid, true);
  t.same((await (await post('validate', { bankCode: '004', accountNumber: '1234567890' })).json()).isValid, false, 'unknown account');
  t.same((await (await post('validate', { bankCode: '088', accountNumber: '1002003004009' })).json()).isValid, false, 'closed account');
  r = await post('holder-name', { bankCode: '004', accountNumber: '1002003004009' });
  t.equal(r.status, 404);
  t.match((await r.json()).error.message, /closed/);
  t.equal((await (await post('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동' })).json()).isValid, true);
  t.equal((await (await post('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '김철수' })).json()).isValid, false, 'holder mismatch');
  t.equal((await (await post('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동', identityNumber: '900101' })).json()).isValid, true);
  t.equal((await (await post('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동', identityNumber: '900102' })).json()).isValid, false, 'identity mismatch');
  t.equal((await (await post('verify', { bankCode: '004', accountNumber: '1002003004003', holderName: '(주)세종', identityNumber: '1208147521' })).json()).isValid, true, 'business account');
  r = await post('validate', { bankCode: '004', accountNumber: '1002003004998' });
  t.equal(r.status, 502);
  j = await r.json();
  t.equal(j.error.code, 'AI_API_ERROR');
  t.match(j.error.message, /did not answer/);
  t.notOk(j.error.message.includes('1002003004998'), 'account masked in the message');
  r = await post('holder-name', { bankCode: '004', accountNumber: '1002003004999' });
  t.equal(r.status, 502);
});

t.test('bad input names the field', async (t) => {
  const bad = async (p: string, body: unknown, field: string) => {
    const r = await post(p, body);
    const j = await r.json();
    t.equal(r.status, 400, `${field}: ${j.error?.message}`);
    t.equal(j.error.field, field);
    return j.error.message as string;
  };
  const m = await bad('validate', { bankCode: '004', accountNumber: '100-200-300400' }, 'accountNumber');
  t.match(m, /hyphen/);
  t.notOk(m.includes('300400'), 'the number is not echoed');
  await bad('validate', { bankCode: '004', accountNumber: '123456789012345' }, 'accountNumber');
  await bad('validate', { bankCode: '004', accountNumber: '12345abc' }, 'accountNumber');
  await bad('validate', { bankCode: '004', accountNumber: 1002003004001 }, 'accountNumber');
  await bad('validate', { bankCode: '999', accountNumber: '1002003004001' }, 'bankCode');
  await bad('validate', { accountNumber: '1002003004001' }, 'bankCode');
  await bad('holder-name', { bankCode: '004', accountNumber: '1002003004001', extra: 1 }, 'extra');
  await bad('verify', { bankCode: '004', accountNumber: '1002003004001' }, 'holderName');
  await bad('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동', identityNumber: '1208147522' }, 'identityNumber');
  await bad('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동', identityNumber: '901301' }, 'identityNumber');
  await bad('verify', { bankCode: '004', accountNumber: '1002003004001', holderName: '홍길동', identityNumber: '120-81-47521' }, 'identityNumber');
});

t.test('helpers', async (t) => {
  t.equal(maskAccount('1002003004001'), '*********4001');
  t.equal(maskIdentity('900101'), '90****');
  t.equal(maskIdentity('1208147521'), '120-**-*****');
  t.equal(maskIdentity('900101-1234567'), '900101-1******');
  t.ok(validBusinessNumber('1208147521'));
  t.notOk(validBusinessNumber('1208147522'));
  t.ok(validYymmdd('000229'));
  t.notOk(validYymmdd('991232'));
});

t.test('HTTP adapter against a fake provider', async (t) => {
  const seen: Array<{ url: string; auth: string | undefined; body: any }> = [];
  let mode: 'ok' | 'slow' | 'fail' = 'ok';
  const fake = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      seen.push({ url: req.url!, auth: req.headers.authorization, body });
      if (mode === 'slow') return void setTimeout(() => res.end('{}'), 1500);
      if (mode === 'fail') { res.statusCode = 503; return void res.end('{"message":"maintenance"}'); }
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/accounts/holder-name') {
        if (body.accountNumber === '1111111111') { res.statusCode = 404; return void res.end('{"status":"not_found"}'); }
        return void res.end(JSON.stringify({ holderName: '박민수' }));
      }
      if (req.url === '/v1/accounts/validate') return void res.end(JSON.stringify({ isValid: body.accountNumber !== '1111111111' }));
      if (req.url === '/v1/accounts/verify') return void res.end(JSON.stringify({ isValid: body.holderName === '박민수', reason: body.holderName === '박민수' ? undefined : 'holder_mismatch' }));
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  const s2 = await startTestServer({ workers: 1, env: { SEJONG_PAYMENT_URL: url, SEJONG_PAYMENT_KEY: 'pk_test_1', SEJONG_PAYMENT_TIMEOUT_MS: '300' } });
  t.teardown(async () => { await s2.close(); fake.close(); });
  let r = await post('holder-name', { bankCode: '090', accountNumber: '3333012345678' }, s2);
  t.equal(r.status, 200);
  t.equal((await r.json()).holderName, '박민수');
  t.equal(seen[0]!.auth, 'Bearer pk_test_1');
  t.same(seen[0]!.body, { bankCode: '090', accountNumber: '3333012345678' });
  r = await post('holder-name', { bankCode: '090', accountNumber: '1111111111' }, s2);
  t.equal(r.status, 404);
  t.equal((await (await post('validate', { bankCode: '090', accountNumber: '1111111111' }, s2)).json()).isValid, false);
  const v = await (await post('verify', { bankCode: '090', accountNumber: '3333012345678', holderName: '홍길동', identityNumber: '900101' }, s2)).json();
  t.equal(v.isValid, false);
  t.equal(seen.at(-1)!.body.identityNumber, '900101');
  mode = 'slow';
  r = await post('validate', { bankCode: '090', accountNumber: '3333012345678' }, s2);
  t.equal(r.status, 502);
  t.match((await r.json()).error.message, /300 ms/);
  mode = 'fail';
  r = await post('verify', { bankCode: '090', accountNumber: '3333012345678', holderName: '박민수' }, s2);
  t.equal(r.status, 502);
  t.match((await r.json()).error.message, /503/);
});
