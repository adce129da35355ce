import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('jobs and logs of the caller; body caps; openapi', async (t) => {
  const s = await startTestServer({ env: { SEJONG_MAX_BODY_MB: '0.01' } });
  t.teardown(() => s.close());
  const { jobs } = s.services;
  const mine = await jobs.create({ family: 'txt2img', owner: s.apiKeyId });
  await jobs.create({ family: 'txt2img', owner: 'someone-else' });
  await jobs.fail(mine.job.id, 'AI_API_ERROR', 'upstream answered 500');

  const r = await s.req('/api/v1/jobs?family=txt2img&status=failed');
  t.equal(r.status, 200);
  const body = await r.json();
  t.equal(body.jobs.length, 1, 'only the caller\'s jobs');
  t.match(body.jobs[0], { jobId: mine.job.id, family: 'txt2img', status: 'failed', error: { code: 'AI_API_ERROR', message: 'upstream answered 500' } });
  const badFilter = await s.req('/api/v1/jobs?status=done');
  t.equal(badFilter.status, 400);
  t.match(await badFilter.json(), { error: { field: 'status', message: /Expected one of .*"processing".* for status but received string "done"/ } });
  const badLimit = await s.req('/api/v1/jobs?limit=0');
  t.match(await badLimit.json(), { error: { field: 'limit' } });

  const logs = await (await s.req('/api/v1/logs?limit=10')).json();
  t.ok(logs.logs.length >= 3, 'requests were logged');
  t.match(logs.logs.find((l: { status: number }) => l.status === 400), { method: 'GET', path: '/api/v1/jobs', status: 400, code: 'INVALID_REQUEST' });
  t.notOk(JSON.stringify(logs).includes('limit=0'), 'no query strings (they may carry access keys)');
  const page = await (await s.req('/api/v1/logs?limit=1')).json();
  t.equal(page.logs.length, 1);
  t.ok(page.next_cursor, 'cursor for the next page');
  const p2 = await (await s.req(`/api/v1/logs?limit=1&cursor=${page.next_cursor}`)).json();
  t.not(p2.logs[0].requestId, page.logs[0].requestId);

  const big = await s.req('/api/v1/admin/keys', { method: 'POST', headers: { 'x-api-key': s.adminKey }, json: { name: 'x'.repeat(20000) } });
  t.equal(big.status, 413);
  t.equal((await big.json()).error.code, 'PAYLOAD_TOO_LARGE');
  const wrongType = await s.req('/api/v1/admin/keys', { method: 'POST', headers: { 'x-api-key': s.adminKey, 'content-type': 'text/plain' }, body: '{"name":"a"}' });
  t.equal(wrongType.status, 415);
  t.equal((await wrongType.json()).error.code, 'UNSUPPORTED_MEDIA_TYPE');

  const doc = await (await s.req('/openapi.json', { key: null })).json();
  t.equal(doc.openapi, '3.1.0');
  t.ok(doc.paths['/api/v1/admin/keys'].post.requestBody, 'schemas from the routes table');
  t.ok(doc.paths['/api/v1/admin/keys/{id}'].patch, 'path params in OpenAPI form');
  t.same(doc.paths['/health'].get.security, [], 'open routes need no key');
});

t.test('request logs: pages across flushed batches, newest first, no entry twice', async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.close());
  const { requestLog } = s.services;
  const t0 = Date.now();
  for (let i = 0; i < 7; i++) {
    requestLog.add('k1', { time: t0 + i, method: 'GET', path: `/p${i}`, status: 200, ms: 1, requestId: `r${i}` });
    requestLog.add('k2', { time: t0 + i, method: 'GET', path: `/q${i}`, status: 200, ms: 1, requestId: `s${i}` });
    if (i % 3 === 2) await requestLog.flush(); // batches of 3, 3 and 1
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await requestLog.list('k1', 2, cursor);
    seen.push(...page.entries.map((e) => e.requestId));
    cursor = page.next;
  } while (cursor);
  t.same(seen, ['r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'r0'], 'every entry once, newest first, only this key');
  const recent = await requestLog.list('k1', 10, undefined, t0 + 4);
  t.same(recent.entries.map((e) => e.requestId), ['r6', 'r5', 'r4'], 'entries older than since are left out');
  const bad = await s.req('/api/v1/logs?cursor=bm9wZQ');
  t.equal(bad.status, 400);
  t.equal((await bad.json()).error.field, 'cursor');
});
