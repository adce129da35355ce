// Shared mode, two nodes on one PostgreSQL + Redis: a key created on one works on the other, its per-minute limit
// holds exactly across both, a revocation on one is refused by the other, and losing Redis answers 503 with
// Retry-After until it returns (the nodes recover by themselves). The `sejong keys` CLI works in shared mode.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing, startRedis, sharedPostgres, type RedisServer } from '../helpers/engines.js';
import { ManualClock } from '../../src/clock.js';

const missing = enginesMissing();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

t.test('keys and limits across two nodes', { skip: missing }, async (t) => {
  const redis: RedisServer = await startRedis();
  const databaseUrl = await (await sharedPostgres()).database();
  const sharedEnv = { SEJONG_DATABASE_URL: databaseUrl, SEJONG_REDIS_URL: redis.url };
  // one clock for both nodes: the minute window cannot roll over in the middle of the test
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 10, 0, 5));
  const a: TestServer = await startTestServer({ storage: 'shared', sharedEnv, manualClock: clock });
  const b: TestServer = await startTestServer({ storage: 'shared', sharedEnv, manualClock: clock });
  t.teardown(async () => {
    await a.close();
    await b.close();
    await redis.remove();
  });

  const created = await a.req('/api/v1/admin/keys', { method: 'POST', key: a.adminKey, json: { name: 'limited', rateLimitPerMinute: 40 } });
  t.equal(created.status, 201);
  const { key, id } = (await created.json()) as { key: string; id: string };
  t.equal((await b.req('/api/v1/jobs', { key })).status, 200, 'a key created on A works on B');

  // 99 more requests at once, alternating between the nodes: exactly 40 in the minute pass in all
  const statuses = await Promise.all(Array.from({ length: 99 }, (_, i) => (i % 2 ? a : b).req('/api/v1/jobs', { key }).then((r) => r.status)));
  const ok = statuses.filter((s) => s === 200).length;
  t.equal(ok, 39, '39 more of 99 pass (40 in all, the first one included)');
  t.equal(statuses.filter((s) => s === 429).length, 60, 'the other 60 are refused on whichever node they reached');
  const refused = await a.req('/api/v1/jobs', { key });
  t.equal(refused.status, 429);
  t.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');

  // revoked on A: B refuses it (B learns through Redis; bounded wait, no timing assertion)
  const other = (await (await a.req('/api/v1/admin/keys', { method: 'POST', key: a.adminKey, json: { name: 'to revoke' } })).json()) as { key: string; id: string };
  t.equal((await b.req('/api/v1/jobs', { key: other.key })).status, 200);
  t.equal((await a.req(`/api/v1/admin/keys/${other.id}`, { method: 'DELETE', key: a.adminKey })).status, 200);
  t.equal((await a.req('/api/v1/jobs', { key: other.key })).status, 401, 'refused on A at once');
  let onB = 0;
  for (let i = 0; i < 100 && onB !== 401; i++) {
    onB = (await b.req('/api/v1/jobs', { key: other.key })).status;
    if (onB !== 401) await sleep(20);
  }
  t.equal(onB, 401, 'refused on B');
  t.same((await (await b.req('/api/v1/admin/keys', { key: b.adminKey })).json() as { keys: Array<{ id: string; revokedAt?: string | number }> }).keys.find((k) => k.id === other.id)?.revokedAt !== undefined, true, 'B lists it revoked');

  // Redis away: keyed requests answer 503 SERVICE_BUSY with Retry-After; back: they pass again without a restart
  await redis.stop();
  const busy = await b.req('/api/v1/jobs', { key: b.apiKey });
  t.equal(busy.status, 503);
  t.equal(((await busy.json()) as { error: { code: string } }).error.code, 'SERVICE_BUSY');
  t.ok(Number(busy.headers.get('retry-after')) >= 1);
  await redis.start();
  let back = 0;
  for (let i = 0; i < 200 && back !== 200; i++) {
    back = (await b.req('/api/v1/jobs', { key: b.apiKey })).status;
    if (back !== 200) await sleep(50);
  }
  t.equal(back, 200, 'recovered by itself');
  t.equal(id.startsWith('key_'), true);
});

t.test('sejong keys in shared mode', { skip: missing }, async (t) => {
  const redis = await startRedis();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cli-'));
  t.teardown(async () => {
    await redis.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const env = { ...process.env, SEJONG_DATABASE_URL: await (await sharedPostgres()).database(), SEJONG_REDIS_URL: redis.url, SEJONG_DATA_DIR: dir };
  const cli = (...args: string[]) => spawnSync(process.execPath, [path.resolve('bin/sejong.js'), 'keys', ...args], { env, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' });
  const c = cli('create', '--name', 'from cli', '--per-minute', '7');
  t.equal(c.status, 0, c.stderr);
  const made = JSON.parse(c.stdout) as { id: string; key: string; rateLimitPerMinute: number };
  t.equal(made.rateLimitPerMinute, 7);
  t.match(made.key, /^sk_/);
  const l = cli('list');
  t.equal(l.status, 0, l.stderr);
  t.same((JSON.parse(l.stdout) as Array<{ id: string; name: string }>).map((k) => [k.id, k.name]), [[made.id, 'from cli']]);
  const r = cli('revoke', made.id);
  t.equal(r.status, 0, r.stderr);
  t.type((JSON.parse(r.stdout) as { revokedAt: number }).revokedAt, 'number');
});
