// Shared mode's engines: settings, start-up errors naming the engine, migrations once under concurrency,
// and run-time loss mapped to 503 SERVICE_BUSY; the test Redis servers' clean-up.
import t from 'tap';
import { loadConfig, storageMode } from '../../src/config.js';
import { Pg } from '../../src/shared/pg.js';
import { connectRedis, redisCall } from '../../src/shared/redis.js';
import { migrate, type Migration } from '../../src/shared/migrate.js';
import { EngineUnavailable } from '../../src/shared/errors.js';
import { ApiError } from '../../src/domain/errors.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { enginesMissing, freePort, sharedPostgres, startRedis, sweepStalePostgres, sweepStaleRedis } from '../helpers/engines.js';
import pg from 'pg';

t.test('settings: both URLs together, a clear error naming the missing one', async (t) => {
  t.equal(storageMode(loadConfig({})), 'embedded');
  t.throws(() => loadConfig({ SEJONG_DATABASE_URL: 'postgres://a@127.0.0.1/x' }), { message: /^SEJONG_REDIS_URL: shared mode needs both/ });
  t.throws(() => loadConfig({ SEJONG_REDIS_URL: 'redis://127.0.0.1:1' }), { message: /^SEJONG_DATABASE_URL: shared mode needs both/ });
  t.throws(() => loadConfig({ SEJONG_DATABASE_URL: 'mysql://a@b/c', SEJONG_REDIS_URL: 'redis://x' }), { message: 'SEJONG_DATABASE_URL: expected a postgres:// or postgresql:// URL, got "mysql://…"' });
  t.throws(() => loadConfig({ SEJONG_DATABASE_URL: 'postgres://u:secret@h/d', SEJONG_REDIS_URL: 'http://x' }), { message: /SEJONG_REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL, got "http:\/\/…"/ });
  const c = loadConfig({ SEJONG_DATABASE_URL: 'postgresql://a@127.0.0.1/x', SEJONG_REDIS_URL: 'redis://127.0.0.1:6379' });
  t.equal(storageMode(c), 'shared');
});

const missing = enginesMissing();
t.test('engines', { skip: missing }, async (t) => {
  t.test('an unreachable PostgreSQL or Redis at start: EngineUnavailable naming it, no hang', async (t) => {
    const port = await freePort();
    const e1 = await Pg.connect(`postgres://x:pw@127.0.0.1:${port}/d`, 500).catch((e: unknown) => e);
    t.ok(e1 instanceof EngineUnavailable);
    t.equal((e1 as EngineUnavailable).engine, 'PostgreSQL');
    t.match((e1 as Error).message, /^PostgreSQL is not reachable: .*SEJONG_DATABASE_URL postgres:\/\/x:\*\*\*@127\.0\.0\.1/);
    t.notMatch((e1 as Error).message, /pw/);
    const e2 = await connectRedis(`redis://127.0.0.1:${port}`, 500).catch((e: unknown) => e);
    t.ok(e2 instanceof EngineUnavailable);
    t.equal((e2 as EngineUnavailable).engine, 'Redis');
  });

  t.test('migrations: applied once when several nodes start together, recorded in order', async (t) => {
    const server = await sharedPostgres();
    const url = await server.database();
    const ms: Migration[] = [
      { id: 9001, name: 'a', sql: 'create table a (x int)' },
      { id: 9002, name: 'b', sql: 'create table b (y int); insert into b values (7)' },
    ];
    const dbs = await Promise.all([1, 2, 3].map(() => Pg.connect(url, 5000, 2)));
    const applied = await Promise.all(dbs.map((d) => migrate(d, ms)));
    t.same(applied.map((a) => a.length).sort(), [0, 0, 2], 'one node applied both, the others none');
    const rows = (await dbs[0]!.query('select id, name from schema_migrations order by id')).rows;
    t.same(rows, [{ id: 9001, name: 'a' }, { id: 9002, name: 'b' }]);
    t.same((await dbs[0]!.query('select y from b')).rows, [{ y: 7 }]);
    const bad = await migrate(dbs[1]!, [...ms, { id: 9003, name: 'c', sql: 'create table b (z int)' }]).catch((e: Error) => e);
    t.match((bad as Error).message, /^migration 9003-c failed: relation "b" already exists/);
    t.same((await dbs[0]!.query('select count(*)::int as n from schema_migrations')).rows, [{ n: 2 }], 'the failed one is not recorded');
    const real = await migrate(dbs[2]!);
    t.ok(real.length >= 1, 'the project migrations apply on top');
    for (const d of dbs) await d.close();
  });

  t.test('run-time loss: 503 SERVICE_BUSY with Retry-After; recovers by itself', async (t) => {
    const redis = await startRedis();
    const r = await connectRedis(redis.url, 2000);
    t.equal(await redisCall(() => r.incr('n')), 1);
    await redis.stop();
    const err = await redisCall(() => r.incr('n')).catch((e: unknown) => e);
    t.ok(err instanceof ApiError);
    t.equal((err as ApiError).code, 'SERVICE_BUSY');
    t.equal((err as ApiError).status, 503);
    t.equal((err as ApiError).headers?.['retry-after'], '2');
    await redis.start();
    let v: number | undefined;
    for (let i = 0; i < 100 && v === undefined; i++) {
      v = await redisCall(() => r.incr('n')).catch(() => undefined);
      if (v === undefined) await new Promise((res) => setTimeout(res, 100));
    }
    t.equal(v, 1, 'a fresh Redis (no persistence) counts from 1 again');
    r.disconnect();
    await redis.remove();

    const server = await sharedPostgres();
    const db = await Pg.connect(await server.database(), 5000, 2);
    t.same((await db.query('select 1 as one')).rows, [{ one: 1 }]);
    await server.stop();
    const perr = await db.query('select 1').catch((e: unknown) => e);
    t.equal((perr as ApiError).code, 'SERVICE_BUSY');
    t.match((perr as ApiError).message, /^PostgreSQL is not reachable/);
    await server.start();
    let ok: unknown;
    for (let i = 0; i < 100 && !ok; i++) {
      ok = await db.query('select 2 as two').then((x) => x.rows[0]).catch(() => undefined);
      if (!ok) await new Promise((res) => setTimeout(res, 100));
    }
    t.same(ok, { two: 2 });
    await db.close();
  });
});

t.test('test Redis servers leave nothing behind: an abnormally ended process\'s directory and server are swept by the next start', { skip: missing }, async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-sweep-'));
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));
  // a process that is gone (it exited), and the redis-server it had started, still running with its append-only file
  const gone = spawnSync('true').pid!;
  const staleDir = path.join(tmp, `sejong-redis-${gone}-abc`);
  fs.mkdirSync(staleDir);
  const port = await freePort();
  const orphan = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', staleDir], { stdio: 'ignore' });
  t.teardown(() => orphan.kill('SIGKILL'));
  fs.writeFileSync(path.join(staleDir, 'server.pid'), String(orphan.pid));
  const liveDir = path.join(tmp, `sejong-redis-${process.pid}-def`); // this process's: kept
  fs.mkdirSync(liveDir);
  const exited = new Promise<string | null>((r) => orphan.once('exit', (_c, sig) => r(sig)));
  t.equal(sweepStaleRedis(tmp), 1, 'one stale directory');
  t.equal(await exited, 'SIGKILL', 'the orphaned redis-server is stopped');
  t.same(fs.readdirSync(tmp), [path.basename(liveDir)], 'its directory is removed; the live process\'s is kept');
  const r = await startRedis({ persist: true });
  const mine = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`sejong-redis-${process.pid}-`));
  t.ok(mine.length >= 1, 'a server of this process has its directory');
  await r.remove();
  t.same(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`sejong-redis-${process.pid}-`)).length, mine.length - 1, 'removed with the server');
});

t.test('test PostgreSQL clusters leave nothing behind: an aborted process\'s cluster is stopped and removed by the next start', { skip: missing }, async (t) => {
  // a process that starts a cluster and then dies without its exit hooks (SIGKILL, as an abort would)
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', "import('./test/helpers/engines.ts').then((m) => m.startPostgres()).then((s) => { console.log(s.port); setInterval(() => undefined, 1000); })"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); if (/\d+\n/.test(out)) resolve(Number(out.trim())); });
    child.once('exit', (c) => reject(new Error(`exited ${c}`)));
  });
  const dirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(`sejong-pg-${child.pid}-`));
  t.equal(dirs().length, 1, 'its cluster directory is named after it');
  const answers = async () => { const c = new pg.Client({ connectionString: `postgres://sejong@127.0.0.1:${port}/postgres` }); try { await c.connect(); return (await c.query('select 1 as one')).rows[0].one === 1; } catch { return false; } finally { await c.end().catch(() => undefined); } };
  t.equal(await answers(), true, 'the cluster runs');
  await new Promise<void>((r) => { child.once('exit', () => r()); child.kill('SIGKILL'); });
  t.equal(await answers(), true, 'and outlives its killed owner');
  t.ok(sweepStalePostgres() >= 1, 'swept');
  t.equal(await answers(), false, 'the orphaned cluster is stopped');
  t.same(dirs(), [], 'its directory is removed');
});
