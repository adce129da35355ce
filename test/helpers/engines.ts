// Private PostgreSQL and Redis servers for tests: started on free loopback ports in temp dirs, removed afterwards.
// PostgreSQL refuses to run as root, so as root the cluster runs as the Debian `postgres` user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

// A port for a server started later by another process (PostgreSQL, Redis, a fleet node, HAProxy). Not one the kernel
// hands out (listen(0) and outbound connections take ports from ip_local_port_range, 32768–60999 here): a port chosen
// there and released could be taken as the source port of any of the tests' many connections before the server binds
// it (a fleet node failed "cannot listen on 127.0.0.1:41363" under load). Below that range only another random pick
// can collide, and the bind check here catches one already listening.
const PICK_FROM = 20_000;
const PICK_SPAN = 12_000;

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = PICK_FROM + Math.floor(Math.random() * PICK_SPAN);
    if (await canBind(port)) return port;
  }
  throw new Error(`no free port in ${PICK_FROM}–${PICK_FROM + PICK_SPAN} after 50 tries`);
}

function pgBin(name: string): string | undefined {
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(base, v, 'bin', name);
    if (fs.existsSync(p)) return p;
  }
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return found || undefined;
}

/** Why the engines cannot run here, or undefined when they can (tests skip with this message). */
export function enginesMissing(): string | undefined {
  if (!pgBin('initdb') || !pgBin('pg_ctl')) return 'PostgreSQL (initdb, pg_ctl) is not installed: apt-get install postgresql';
  if (!spawnSync('sh', ['-c', 'command -v redis-server']).stdout.length) return 'redis-server is not installed: apt-get install redis-server';
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user to run PostgreSQL as';
  return undefined;
}

const asRoot = () => process.getuid?.() === 0;

function run(cmd: string, args: string[]): void {
  const full = asRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] as const : [cmd, args] as const;
  const r = spawnSync(full[0], full[1] as string[], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
}

export interface PgServer {
  port: number;
  /** a URL to the `postgres` database (superuser sejong, trust auth on loopback) */
  url: string;
  /** create a fresh database and return its URL */
  database(name?: string): Promise<string>;
  /**
   * stop the server (data kept) and start it again: run-time loss tests. Default `immediate` (a crash); `fast` is
   * an operator's restart (connections cut, WAL flushed): this cluster runs with synchronous_commit=off for speed,
   * so only a fast stop keeps every acknowledged commit, as a production server (synchronous_commit=on) would.
   */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** stop and delete everything */
  remove(): Promise<void>;
  /** the same, synchronously (for process exit) */
  removeSync(): void;
}

/**
 * What an earlier process left when it ended abnormally (an abort, SIGKILL: no 'exit' event), as sweepStaleRedis
 * does for Redis: its cluster directories (`sejong-pg-<pid>-…`) and the postmaster still running in them (stopped
 * with pg_ctl, immediate), when that process is gone. Nothing of a live process is touched. The number swept.
 */
export function sweepStalePostgres(tmp = os.tmpdir()): number {
  return sweepOrphans(tmp, 'sejong-pg-', (dir) => {
    const data = path.join(dir, 'data');
    const postmaster = Number(readOr(path.join(data, 'postmaster.pid')).split('\n')[0]);
    if (!postmaster || !readOr(`/proc/${postmaster}/cmdline`).includes('postgres')) return;
    try {
      run(pgBin('pg_ctl')!, ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      /* stopped meanwhile */
    }
  });
}

/**
 * For each temp directory `<prefix><pid>-…` whose process is gone: stop what it left running (stop), then remove
 * the directory. The number removed.
 */
function sweepOrphans(tmp: string, prefix: string, stop: (dir: string) => void): number {
  let n = 0;
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(prefix)) continue;
    const owner = /^(\d+)-/.exec(name.slice(prefix.length))?.[1];
    if (!owner || alive(Number(owner))) continue;
    const dir = path.join(tmp, name);
    stop(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    n++;
  }
  return n;
}

export async function startPostgres(): Promise<PgServer> {
  sweepStalePostgres();
  // named after this process, for sweepStalePostgres
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sejong-pg-${process.pid}-`));
  const data = path.join(dir, 'data');
  if (asRoot()) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
  fs.chmodSync(dir, 0o755);
  run(pgBin('initdb')!, ['-D', data, '-U', 'sejong', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const opts = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 -c shared_buffers=64MB`;
  const start = async () => run(pgBin('pg_ctl')!, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stopSync = (mode: 'immediate' | 'fast' = 'immediate') => run(pgBin('pg_ctl')!, ['-D', data, '-m', mode, '-w', 'stop']);
  const stop = async (mode?: 'immediate' | 'fast') => stopSync(mode);
  await start();
  const url = `postgres://sejong@127.0.0.1:${port}/postgres`;
  let n = 0;
  return {
    port,
    url,
    async database(name = `t${process.pid}_${++n}_${Math.random().toString(36).slice(2, 8)}`) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`create database "${name}"`);
      await c.end();
      return `postgres://sejong@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async remove() {
      try {
        await stop();
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
    removeSync() {
      try {
        stopSync();
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

export interface RedisOptions {
  /**
   * keep the data across stop/start (an append-only file fsynced at every write, in a temp dir removed with the
   * server), as docs/scale-out.md asks of a production Redis; default: memory only
   */
  persist?: boolean;
}

/** Redis servers of this process still up: SIGKILLed and their directory removed when the process exits. */
const liveRedis = new Set<() => void>();
let redisExitHook = false;
const REDIS_DIR = `sejong-redis-${process.pid}-`;

/**
 * What an earlier test process left when it ended abnormally (SIGKILL, a tap time-out's SIGTERM: no 'exit' event):
 * its Redis directories (`sejong-redis-<pid>-…`, the append-only file of a persistent one) and the redis-server it
 * had started (its pid in the directory), when that process is gone. Nothing of a live process is touched.
 */
export function sweepStaleRedis(tmp = os.tmpdir()): number {
  return sweepOrphans(tmp, 'sejong-redis-', (dir) => {
    const server = Number(readOr(path.join(dir, 'server.pid')));
    // the server it started, if still running (checked by its command line: a reused pid is left alone)
    if (!server || !readOr(`/proc/${server}/cmdline`).includes('redis-server')) return;
    try {
      process.kill(server, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export async function startRedis(opts: RedisOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  sweepStaleRedis();
  // every server has its directory (named after this process, for sweepStaleRedis): its pid, and the data if persistent
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), REDIS_DIR));
  const persistence = opts.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const removeSync = () => {
    liveRedis.delete(removeSync);
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  liveRedis.add(removeSync);
  if (!redisExitHook) {
    redisExitHook = true;
    process.once('exit', () => [...liveRedis].forEach((f) => f()));
  }
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    fs.writeFileSync(path.join(dir, 'server.pid'), String(child.pid ?? ''));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 20_000);
      child!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(t);
          resolve();
        }
      });
      child!.once('exit', (code) => {
        clearTimeout(t);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
    child.stdout!.resume();
    // a running server must not keep the test process alive (it is killed at exit or by remove())
    child.unref();
    for (const s of [child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    // ref'd again while we wait for its exit: an unref'd child would let the event loop empty under the await
    c.ref();
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill('SIGKILL');
    });
  };
  await start();
  const remove = async () => {
    await stop();
    removeSync();
  };
  return { port, url: `redis://127.0.0.1:${port}`, stop, start, remove };
}

/** One PostgreSQL per test process (started on first use, removed at exit); a fresh database per call. */
let shared: Promise<PgServer> | undefined;
export function sharedPostgres(): Promise<PgServer> {
  if (!shared) {
    shared = startPostgres();
    void shared.then((s) => process.once('exit', () => s.removeSync()));
  }
  return shared;
}

/** Settings of shared mode on a fresh database of the process's PostgreSQL and a private Redis. */
export async function sharedModeEnv(redisOpts: RedisOptions = {}): Promise<{ env: Record<string, string>; redis: RedisServer; databaseUrl: string }> {
  const pgs = await sharedPostgres();
  const databaseUrl = await pgs.database();
  const redis = await startRedis(redisOpts);
  return { env: { SEJONG_DATABASE_URL: databaseUrl, SEJONG_REDIS_URL: redis.url }, redis, databaseUrl };
}
