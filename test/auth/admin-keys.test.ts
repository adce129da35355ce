import t from 'tap';
import { startTestServer } from '../helpers/server.js';

t.test('admin key API: create, list, patch, revoke; persistence across restart', async (t) => {
  let s = await startTestServer();
  t.teardown(() => s.close());
  const admin = { 'x-api-key': s.adminKey };

  const noKey = await s.req('/api/v1/admin/keys', { key: null });
  t.equal(noKey.status, 401);
  t.equal((await noKey.json()).error.code, 'INVALID_API_KEY');
  const notAdmin = await s.req('/api/v1/admin/keys');
  t.equal(notAdmin.status, 403, 'a normal key is refused on admin routes');
  t.equal((await notAdmin.json()).error.code, 'FORBIDDEN');

  const created = await s.req('/api/v1/admin/keys', { method: 'POST', headers: admin, json: { name: 'kiosk-7', rateLimitPerMinute: 5 } });
  t.equal(created.status, 201);
  const k = await created.json();
  t.match(k, { id: /^key_/, key: /^sk_/, name: 'kiosk-7', rateLimitPerMinute: 5, rateLimitPerDay: 10000000 });

  const bad = await s.req('/api/v1/admin/keys', { method: 'POST', headers: admin, json: { name: 'x', rateLimitPerMinute: '5' } });
  t.equal(bad.status, 400);
  t.match(await bad.json(), { error: { code: 'INVALID_REQUEST', field: 'rateLimitPerMinute', message: /Expected number for rateLimitPerMinute but received string "5"/ } });
  const unknown = await s.req('/api/v1/admin/keys', { method: 'POST', headers: admin, json: { name: 'x', colour: 'red' } });
  t.match(await unknown.json(), { error: { code: 'INVALID_REQUEST', field: 'colour' } });
  const notJson = await s.req('/api/v1/admin/keys', { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: '{name:' });
  t.equal(notJson.status, 400);
  t.match((await notJson.json()).error.message, /not valid JSON/);

  const list = await (await s.req('/api/v1/admin/keys', { headers: admin })).json();
  t.ok(list.keys.some((x: { id: string; name: string }) => x.id === k.id && x.name === 'kiosk-7'));
  t.notOk(JSON.stringify(list).includes(k.key), 'the list never shows a secret');
  t.notOk(JSON.stringify(list).includes('hash'), 'nor a hash');

  const patched = await s.req(`/api/v1/admin/keys/${k.id}`, { method: 'PATCH', headers: admin, json: { rateLimitPerDay: 7, name: 'kiosk-8' } });
  t.match(await patched.json(), { id: k.id, name: 'kiosk-8', rateLimitPerMinute: 5, rateLimitPerDay: 7 });
  const missing = await s.req('/api/v1/admin/keys/key_nope', { method: 'PATCH', headers: admin, json: { name: 'z' } });
  t.equal(missing.status, 404);

  const ok = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(ok.status, 200, 'the new key works');
  const bearer = await s.req('/api/v1/jobs', { key: null, headers: { authorization: `Bearer ${k.key}` } });
  t.equal(bearer.status, 200, 'also as Bearer');

  s = await s.restart();
  const still = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(still.status, 200, 'keys survive a restart');

  const del = await s.req(`/api/v1/admin/keys/${k.id}`, { method: 'DELETE', headers: admin });
  t.equal(del.status, 200);
  t.match(await del.json(), { id: k.id, revoked: true });
  const revoked = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(revoked.status, 401, 'a revoked key gets 401 at once');
  t.equal((await revoked.json()).error.code, 'INVALID_API_KEY');
});

t.test('rate limits: headers, 429 with Retry-After, custom per key, windows by the clock, kept across restart', async (t) => {
  let s = await startTestServer({ manualClock: true });
  t.teardown(() => s.close());
  const admin = { 'x-api-key': s.adminKey };
  const k = await (await s.req('/api/v1/admin/keys', { method: 'POST', headers: admin, json: { name: 'limited', rateLimitPerMinute: 3, rateLimitPerDay: 5 } })).json();

  const first = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(first.headers.get('ratelimit-policy'), '"minute";q=3;w=60, "day";q=5;w=86400');
  t.match(first.headers.get('ratelimit'), /^"minute";r=2;t=\d+$/);
  await s.req('/api/v1/jobs', { key: k.key });
  await s.req('/api/v1/jobs', { key: k.key });
  const over = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(over.status, 429);
  const body = await over.json();
  t.equal(body.error.code, 'RATE_LIMITED');
  const retry = Number(over.headers.get('retry-after'));
  t.ok(retry >= 1 && retry <= 60, `Retry-After within the minute (${retry})`);

  (s.clock as import('../../src/clock.js').ManualClock).advance(61_000);
  const next = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(next.status, 200, 'a new minute opens the window');

  s = await s.restart();
  await s.req('/api/v1/jobs', { key: k.key }); // 5th of the day
  const day = await s.req('/api/v1/jobs', { key: k.key });
  t.equal(day.status, 429, 'the day counter survived the restart');
  t.match(day.headers.get('ratelimit'), /^"day";r=0;t=\d+$/);
  t.ok(Number(day.headers.get('retry-after')) > 60, 'Retry-After points to the next day');
});
