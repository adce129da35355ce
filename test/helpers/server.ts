// Starts a real sejong server on port 0 with a temp LMDB dir, for tests. Returns urls, keys and a small client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server/start.js';
import { ManualClock, type Clock } from '../../src/clock.js';
import { sharedModeEnv } from './engines.js';

export interface TestServer extends RunningServer {
  dataDir: string;
  storage: 'embedded' | 'shared';
  /** shared mode: the settings naming its database and Redis (start more nodes on them) */
  sharedEnv?: Record<string, string>;
  adminKey: string;
  apiKey: string;
  apiKeyId: string;
  clock: Clock;
  /** fetch relative to the server with the test API key unless headers say otherwise */
  req(pathname: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  /** restart on the same data dir (persistence tests) */
  restart(): Promise<TestServer>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** use a ManualClock (tests move time with clock.advance) */
  manualClock?: boolean | ManualClock;
  dataDir?: string;
  workers?: number;
  /** delete dataDir on close (default: only when this call created it) */
  ownDir?: boolean;
  /**
   * storage mode: embedded LMDB, or shared (a fresh database on the process's private PostgreSQL and a private
   * Redis). Default: SEJONG_TEST_STORAGE, else embedded. A restart keeps the same database and Redis.
   */
  storage?: 'embedded' | 'shared';
  /** shared-mode settings of an earlier server (restart, or several nodes on one database) */
  sharedEnv?: Record<string, string>;
}

/** The storage mode tests run in (SEJONG_TEST_STORAGE=shared runs the server-level tests on PostgreSQL + Redis). */
export const testStorage = (): 'embedded' | 'shared' => (process.env.SEJONG_TEST_STORAGE === 'shared' ? 'shared' : 'embedded');

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-test-'));
  const storage = opts.storage ?? testStorage();
  const sharedEnv = storage === 'shared' ? opts.sharedEnv ?? (await sharedModeEnv()).env : undefined;
  const adminKey = 'sk_test_admin_' + 'x'.repeat(20);
  const env: Record<string, string> = {
    SEJONG_HOST: '127.0.0.1',
    SEJONG_PORT: '0',
    SEJONG_DATA_DIR: dataDir,
    SEJONG_WORKERS: String(opts.workers ?? 1),
    SEJONG_ADMIN_KEY: adminKey,
    SEJONG_LOG_LEVEL: 'silent',
    SEJONG_RATE_LIMIT_PER_MINUTE: '100000',
    SEJONG_RATE_LIMIT_PER_DAY: '10000000',
    // models load on first use (or on the first GET /ready), not at every test server's start
    SEJONG_WARMUP: 'off',
    // every JSON 2xx answer is checked against its route's declared response schema (500 on a mismatch)
    SEJONG_VALIDATE_RESPONSES: '1',
    ...sharedEnv,
    ...opts.env,
  };
  const config: Config = loadConfig(env);
  const clock = opts.manualClock instanceof ManualClock ? opts.manualClock : opts.manualClock ? new ManualClock() : undefined;
  const server = await startServer(config, { clock, log: pino({ level: 'silent' }), printSecret: () => undefined });
  const { record, key } = await server.services.keys.create({ name: 'test', now: server.services.clock.now() });
  const url = server.url;
  const ownsDir = opts.ownDir ?? opts.dataDir === undefined;
  const ts: TestServer = {
    ...server,
    async close() {
      await server.close();
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    dataDir,
    storage,
    sharedEnv,
    adminKey,
    apiKey: key,
    apiKeyId: record.id,
    clock: server.services.clock,
    req(pathname, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key !== null && !headers.has('x-api-key') && !headers.has('authorization')) headers.set('x-api-key', init.key ?? key);
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      return fetch(url + pathname, { ...init, headers, body });
    },
    async restart() {
      await server.close();
      // the restarted server takes over the temp dir (and deletes it on close)
      return startTestServer({ ...opts, dataDir, manualClock: clock ?? false, ownDir: ownsDir, storage, sharedEnv });
    },
  };
  return ts;
}

/** Build a multipart body from fields and files. */
export function formData(fields: Record<string, string | number | boolean | undefined>, files: Record<string, { data: Buffer | Uint8Array; filename?: string; type?: string }> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) fd.append(k, String(v));
  for (const [k, f] of Object.entries(files)) fd.append(k, new Blob([f.data], { type: f.type ?? 'application/octet-stream' }), f.filename ?? `${k}.bin`);
  return fd;
}
