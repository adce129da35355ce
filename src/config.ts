// Every setting of sejong: its environment variable, default, validation and meaning.
// Nothing else in src/ reads process.env. The README's settings table is checked against SETTINGS by a test.
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';

type Parser<T> = (raw: string, name: string) => T;

export interface Setting<T = unknown> {
  env: string;
  default: string;
  doc: string;
  parse: Parser<T>;
}

export class ConfigError extends Error {}

const fail = (name: string, msg: string): never => {
  throw new ConfigError(`${name}: ${msg}`);
};

const str: Parser<string> = (raw) => raw;
const int = (min: number, max: number): Parser<number> => (raw, name) => {
  if (!/^-?\d+$/.test(raw.trim())) fail(name, `expected an integer between ${min} and ${max}, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) fail(name, `expected an integer between ${min} and ${max}, got ${n}`);
  return n;
};
const num = (min: number, max: number): Parser<number> => (raw, name) => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) fail(name, `expected a number between ${min} and ${max}, got "${raw}"`);
  return n;
};
const bool: Parser<boolean> = (raw, name) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return fail(name, `expected true or false, got "${raw}"`);
};
const url: Parser<string> = (raw, name) => {
  if (raw === '') return '';
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(name, `expected an http(s) URL, got "${raw}"`);
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    fail(name, `expected a URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
};
const addr: Parser<string> = (raw, name) => {
  if (raw === '') return '';
  if (!/^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(raw.trim()) || Number(raw.trim().split(':').pop()) > 65535) fail(name, `expected host:port, got "${raw}"`);
  return raw.trim();
};
/** A connection URL of one of the given schemes ('' = unset). The password never appears in an error. */
const dsn = (...schemes: string[]): Parser<string> => (raw, name) => {
  if (raw === '') return '';
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    fail(name, `expected a ${schemes.join(' or ')} URL, got something that is not a URL`);
  }
  if (!schemes.includes(u!.protocol.replace(/:$/, ''))) fail(name, `expected a ${schemes.map((x) => x + '://').join(' or ')} URL, got "${u!.protocol}//…"`);
  return raw;
};
const list: Parser<string[]> = (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean);
// addresses or CIDRs (domain/client-address.ts builds the list from them)
const proxies: Parser<string[]> = (raw, name) => list(raw, name).map((e) => {
  const [a = '', len] = e.split('/');
  const v = net.isIP(a);
  if (!v || (len !== undefined && (!/^\d+$/.test(len) || Number(len) > (v === 6 ? 128 : 32)))) fail(name, `expected an IP address or CIDR, got "${e}"`);
  return e;
});
const oneOf = (...values: string[]): Parser<string> => (raw, name) => {
  if (!values.includes(raw)) fail(name, `expected one of ${values.join(', ')}, got "${raw}"`);
  return raw;
};

function s<T>(env: string, def: string, parse: Parser<T>, doc: string): Setting<T> {
  return { env, default: def, parse, doc };
}

export const SETTINGS = {
  host: s('SEJONG_HOST', '127.0.0.1', str, 'Address the HTTP server binds to.'),
  port: s('SEJONG_PORT', '8080', int(0, 65535), 'HTTP port; 0 picks a free port, logged as {"msg":"listening","port":N}.'),
  dataDir: s('SEJONG_DATA_DIR', './data', str, 'Directory of the LMDB stores: data.mdb (jobs, blobs, keys, ledger) and law/ (statutes).'),
  workers: s('SEJONG_WORKERS', String(os.availableParallelism?.() ?? os.cpus().length), int(1, 64), 'Worker threads in the CPU pool (default: number of cores).'),
  queueSize: s('SEJONG_QUEUE_SIZE', '64', int(1, 100000), 'Tasks that may wait for a worker; beyond it requests get 503 SERVICE_BUSY.'),
  queueWaitMs: s('SEJONG_QUEUE_WAIT_MS', '10000', int(100, 600_000), 'Synchronous requests whose estimated wait for a worker (moving average of task durations) exceeds this get 503 SERVICE_BUSY with Retry-After; async jobs wait instead.'),
  taskTimeoutMs: s('SEJONG_TASK_TIMEOUT_MS', '30000', int(100, 3_600_000), 'Time budget of one worker task once running: its own time (wall time minus the time its thread waited for a CPU, Linux; wall time elsewhere; model loads left out); stopped anyway at 4× this in wall time. Past it the task is stopped and fails with 503 SERVICE_BUSY (an async job ends failed with it).'),
  enhanceBudgetMs: s('SEJONG_ENHANCE_BUDGET_MS', '120000', int(1000, 3_600_000), 'Time budget of one whole enhancement (preparation, every tile, encoding); checked between tiles; past it the job fails with 503 SERVICE_BUSY naming the step reached.'),
  workerNice: s('SEJONG_WORKER_NICE', '10', int(0, 19), 'Scheduling niceness added to the pool\'s worker threads (Linux: per thread), so the event loop wins a core over pixel work when both want one; 0 = same priority.'),
  modelTrimIdleMs: s('SEJONG_MODEL_TRIM_IDLE_MS', '10000', int(0, 86_400_000), 'After the worker pool has been idle this long following work, each worker releases and re-creates the OCR model sessions that ran, giving back the onnxruntime memory arenas that inputs of new shapes grew (~100-250 MB a worker); 0 = never.'),
  taskHeapMb: s('SEJONG_TASK_HEAP_MB', '1024', int(64, 16384), 'V8 old-generation limit of each worker thread in MB (image pixels are bounded by the pixel caps).'),
  adminKey: s('SEJONG_ADMIN_KEY', '', str, 'Bootstrap admin key. Unset on first start: one is generated, stored hashed and printed once.'),
  logLevel: s('SEJONG_LOG_LEVEL', 'info', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'Log level (pino).'),
  publicUrl: s('SEJONG_PUBLIC_URL', '', url, 'External base URL used in absolute result URLs; default http://HOST:PORT.'),
  rateLimitPerMinute: s('SEJONG_RATE_LIMIT_PER_MINUTE', '60', int(1, 10_000_000), 'Default requests per minute per API key.'),
  rateLimitPerDay: s('SEJONG_RATE_LIMIT_PER_DAY', '10000', int(1, 1_000_000_000), 'Default requests per day per API key.'),
  tokenRatePerMinute: s('SEJONG_TOKEN_RATE_PER_MINUTE', '300', int(1, 10_000_000), 'Requests per minute per job access key (Bearer/key= token on status and result routes); ten times that per client address.'),
  maxBodyMb: s('SEJONG_MAX_BODY_MB', '10', num(0.01, 200), 'Default request body cap in MB (routes may set their own).'),
  bodyBudgetMb: s('SEJONG_BODY_BUDGET_MB', '256', num(1, 65536), 'Bytes of request bodies being buffered at once, all requests together; beyond it 503 SERVICE_BUSY with Retry-After.'),
  openBodyKb: s('SEJONG_OPEN_BODY_KB', '256', int(1, 65536), 'Body cap in KB of routes that need no key (MCP, console) unless the route sets its own.'),
  maxInputPixels: s('SEJONG_MAX_INPUT_PIXELS', '50000000', int(1, 1_000_000_000), 'Largest decoded image (width x height) accepted; protects against decompression bombs.'),
  sweepSeconds: s('SEJONG_SWEEP_SECONDS', '60', int(1, 86400), 'Interval of the TTL sweeper that deletes expired result blobs.'),
  tombstoneDays: s('SEJONG_TOMBSTONE_DAYS', '7', int(1, 3650), 'Days an expired job is remembered so that it answers 410 IMAGE_EXPIRED instead of 404.'),
  logRetentionDays: s('SEJONG_LOG_RETENTION_DAYS', '7', int(1, 365), 'Days request logs are kept for GET /api/v1/logs.'),
  trustedProxies: s('SEJONG_TRUSTED_PROXIES', '', proxies, 'Comma-separated addresses or CIDRs of balancers/proxies (e.g. 127.0.0.1,10.0.0.0/8): from these peers the client address is the right-most untrusted one in X-Forwarded-For; empty = X-Forwarded-For ignored.'),
  fetchAllow: s('SEJONG_FETCH_ALLOW', '', list, 'Comma-separated hosts, addresses or CIDRs, each optionally with :port ([IPv6]:port), the safe fetcher may reach although private/loopback (e.g. 127.0.0.1:8080,10.0.0.0/8,[::1]:9000); never the service\'s own port.'),
  fetchTimeoutMs: s('SEJONG_FETCH_TIMEOUT_MS', '10000', int(100, 600000), 'Timeout of one outbound fetch of an image URL.'),
  fetchMaxMb: s('SEJONG_FETCH_MAX_MB', '10', num(0.01, 200), 'Largest body the safe fetcher downloads.'),
  famaUrl: s('SEJONG_FAMA_URL', '', url, 'Base URL of the family-A provider (messages API).'),
  famaKey: s('SEJONG_FAMA_KEY', '', str, 'API key of the family-A provider (sent as x-api-key).'),
  fambUrl: s('SEJONG_FAMB_URL', '', url, 'Base URL of the family-B provider (generateContent API).'),
  fambKey: s('SEJONG_FAMB_KEY', '', str, 'API key of the family-B provider.'),
  famcUrl: s('SEJONG_FAMC_URL', '', url, 'Base URL of the family-C provider (chat-completions / images-generations).'),
  famcKey: s('SEJONG_FAMC_KEY', '', str, 'API key of the family-C provider (Bearer).'),
  aiTimeoutMs: s('SEJONG_AI_TIMEOUT_MS', '120000', int(100, 900000), 'Timeout of one AI provider call.'),
  catalogFile: s('SEJONG_CATALOG_FILE', '', str, 'Optional JSON file overriding or extending the model catalog.'),
  paymentUrl: s('SEJONG_PAYMENT_URL', '', url, 'Base URL of the payment provider for bank-account checks; unset = built-in sandbox.'),
  paymentKey: s('SEJONG_PAYMENT_KEY', '', str, 'API key of the payment provider.'),
  paymentTimeoutMs: s('SEJONG_PAYMENT_TIMEOUT_MS', '8000', int(100, 600000), 'Timeout of one payment-provider call.'),
  webhookSecret: s('SEJONG_WEBHOOK_SECRET', '', str, 'Secret (whsec_… base64, or any text) signing completion callbacks; generated and stored on first start when unset.'),
  callbackRetryHours: s('SEJONG_CALLBACK_RETRY_HOURS', '2', num(0.01, 168), 'How long a failing callback is retried (with backoff).'),
  lawOc: s('SEJONG_LAW_OC', '', str, 'law.go.kr Open API OC key for `sejong law sync`.'),
  lawApiUrl: s('SEJONG_LAW_API_URL', 'https://www.law.go.kr', url, 'Base URL of the law.go.kr Open API.'),
  lawReferer: s('SEJONG_LAW_REFERER', '', str, 'Referer header sent to law.go.kr (the domain registered with the OC key).'),
  lawImport: s('SEJONG_LAW_IMPORT', '', str, 'Path(s) (comma-separated) to import into the statute store on first start when it is empty.'),
  lawGit: s('SEJONG_LAW_GIT', '', str, 'Path of a legalize-kr git clone refreshed daily (`git pull --ff-only`, then its new commits imported) at SEJONG_LAW_SYNC_HOUR (3 when that is -1).'),
  lawSyncHour: s('SEJONG_LAW_SYNC_HOUR', '-1', int(-1, 23), 'Hour (0-23, local) of the daily law sync; -1 disables it.'),
  consolePassword: s('SEJONG_CONSOLE_PASSWORD', '', str, 'Password of the web test console at /console (cookie test_auth); unset = console disabled.'),
  warmup: s('SEJONG_WARMUP', 'on', bool, 'Load the ONNX models on every worker at start (on), or on the first GET /ready (off).'),
  metrics: s('SEJONG_METRICS', 'on', bool, 'Prometheus metrics at GET /metrics on the service port (on/off).'),
  metricsAddr: s('SEJONG_METRICS_ADDR', '', addr, 'host:port of a separate listener for /metrics (e.g. 127.0.0.1:9464); when set, /metrics is not on the service port.'),
  validateResponses: s('SEJONG_VALIDATE_RESPONSES', 'off', bool, 'Check every JSON 2xx answer against its route\'s declared response schema (the one in /openapi.json) before sending; a mismatch answers 500 INTERNAL_ERROR and logs the zod issues. For tests and staging; off in production.'),
  mcpMaxSessions: s('SEJONG_MCP_MAX_SESSIONS', '1000', int(1, 100000), 'Concurrent MCP sessions (SSE and Streamable HTTP together); when full, the least recently used idle one makes room, else 503.'),
  mcpSessionsPerClient: s('SEJONG_MCP_SESSIONS_PER_CLIENT', '32', int(1, 100000), 'MCP sessions one client address may hold; beyond it its own idle sessions make room, else 429.'),
  mcpIdleSeconds: s('SEJONG_MCP_IDLE_SECONDS', '300', int(1, 86400), 'An MCP session unused this long is idle: it may be evicted for a new session (active ones never are).'),
  mcpRatePerSecond: s('SEJONG_MCP_RATE_PER_SECOND', '20', num(0.01, 100000), 'MCP messages per second per client address (token bucket refill); beyond it 429 with Retry-After.'),
  mcpRateBurst: s('SEJONG_MCP_RATE_BURST', '100', int(1, 1000000), 'MCP messages a client address may send at once (token bucket size).'),
  lawWorkers: s('SEJONG_LAW_WORKERS', '1', int(0, 16), 'Worker threads running the legal-information tools off the event loop (0 = on the main thread).'),
  mcpThread: s('SEJONG_MCP_THREAD', 'worker', oneOf('worker', 'main'), 'Where the MCP protocol of a session runs when SEJONG_LAW_WORKERS > 0: worker = in the law worker the session is pinned to (the event loop only admits and moves bytes), main = on the event loop with the tools in the law workers (the earlier design).'),
  lawWorkerNice: s('SEJONG_LAW_WORKER_NICE', '5', int(0, 19), 'Scheduling niceness added to the law worker threads (Linux: per thread): the event loop (admission, /health, status polls) wins a core over search when both want one, and search still wins over pixel work (SEJONG_WORKER_NICE); 0 = same priority as the event loop.'),
  lawCpus: s('SEJONG_LAW_CPUS', 'any', oneOf('any', 'spare-one'), 'CPUs of the law worker threads: any = every CPU; spare-one = every CPU the process may use but the first (fewer than two: all), set by each thread through util-linux taskset (Linux, no privilege needed), so an MCP burst keeps law work off one CPU; whether that shortens /health under a burst depends on the event loop waking on the spared CPU (not settled: bench/RESULTS.md, front23). taskset missing or refused: one log line, every CPU.'),
  lawHeapMb: s('SEJONG_LAW_HEAP_MB', '384', int(64, 16384), 'V8 old-generation limit in MB of each law worker thread. The catalogue, index tables and byte-bounded caches are ~120-155 MB live with the full corpus; V8 lets a heap grow by a factor that rises with this limit (~1.6 at 1024, ~1.35 at 384), so the lower limit keeps ~25 MB less committed (bench/RESULTS.md, rss20). A thread that reaches it ends and is replaced (its MCP sessions end).'),
  lawYoungMb: s('SEJONG_LAW_YOUNG_MB', '12', int(0, 1024), 'V8 young-generation limit in MB of each law worker thread (MCP sessions and tools); 0 = V8\'s default. Search makes short-lived garbage fast; V8 grows the young generation of a busy thread to its limit (48 MB here by default, 32 MB of it resident), so 12 keeps ~8 MB resident at the cost of more, shorter scavenges (bench/RESULTS.md, rss20).'),
  lawQueueSize: s('SEJONG_LAW_QUEUE_SIZE', '200', int(1, 100000), 'Law tool calls that may wait for a law worker; beyond it the call is refused (busy, Retry-After).'),
  databaseUrl: s('SEJONG_DATABASE_URL', '', dsn('postgres', 'postgresql'), 'Shared (fleet) mode: PostgreSQL URL of the system of record (postgres://user:pass@host:port/db). Set together with SEJONG_REDIS_URL; unset = embedded LMDB mode.'),
  redisUrl: s('SEJONG_REDIS_URL', '', dsn('redis', 'rediss'), 'Shared (fleet) mode: Redis URL for exact rate limits, the work queue and fleet-wide notices (redis://host:port). Set together with SEJONG_DATABASE_URL.'),
  engineConnectMs: s('SEJONG_ENGINE_CONNECT_MS', '5000', int(100, 600_000), 'Shared mode: how long start-up waits for PostgreSQL and Redis before it exits with an error naming the one that did not answer.'),
  queueConcurrency: s('SEJONG_QUEUE_CONCURRENCY', '0', int(0, 1000), 'Shared mode: jobs this node runs at once from the shared queue (0 = twice SEJONG_WORKERS: a job waits on the pool or a provider part of the time).'),
  queueIoConcurrency: s('SEJONG_QUEUE_IO_CONCURRENCY', '32', int(1, 1000), 'Shared mode: jobs this node runs at once from the shared queue\'s I/O lane (AI jobs that mostly wait on a provider; their pool work still waits for a worker).'),
  queueAttempts: s('SEJONG_QUEUE_ATTEMPTS', '3', int(1, 100), 'Shared mode: runs a job may start (a node dying mid-job costs one); past it the job fails with a reason.'),
  queueLockMs: s('SEJONG_QUEUE_LOCK_MS', '30000', int(500, 3_600_000), 'Shared mode: a running job\'s lock, renewed at half this by its node; a node silent this long has stalled and its job is taken again.'),
  queueStalledMs: s('SEJONG_QUEUE_STALLED_MS', '30000', int(200, 3_600_000), 'Shared mode: how often each node looks for stalled jobs (of nodes that died mid-job) to hand out again.'),
  sealKeyFile: s('SEJONG_SEAL_KEY_FILE', '', str, 'Shared mode: file holding the base64 32-byte key that seals personal data at rest, the same file on every node; unset = generated once and kept in PostgreSQL (installation table). Embedded mode uses seal.key in SEJONG_DATA_DIR.'),
  nodeName: s('SEJONG_NODE_NAME', '', str, 'Name of this node in a fleet (logs, metrics, the worker name in the shared queue); default host name and process id.'),
} as const;

type Settings = typeof SETTINGS;
export type Config = { [K in keyof Settings]: Settings[K] extends Setting<infer T> ? T : never } & {
  /** absolute data dir */
  dataPath: string;
};

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    const raw = env[setting.env];
    out[key] = setting.parse(raw === undefined ? setting.default : raw, setting.env);
  }
  const cfg = { ...out, ...overrides } as Config;
  cfg.dataPath = path.resolve(cfg.dataDir);
  if (Boolean(cfg.databaseUrl) !== Boolean(cfg.redisUrl)) {
    const [missing, given] = cfg.databaseUrl ? ['SEJONG_REDIS_URL', 'SEJONG_DATABASE_URL'] : ['SEJONG_DATABASE_URL', 'SEJONG_REDIS_URL'];
    fail(missing, `shared mode needs both SEJONG_DATABASE_URL and SEJONG_REDIS_URL; ${given} is set but ${missing} is not`);
  }
  return cfg;
}

/** embedded: one node, everything in LMDB under SEJONG_DATA_DIR; shared: PostgreSQL + Redis, many nodes. */
export function storageMode(cfg: Pick<Config, 'databaseUrl' | 'redisUrl'>): 'embedded' | 'shared' {
  return cfg.databaseUrl && cfg.redisUrl ? 'shared' : 'embedded';
}

/** Settings the tests and CLI need that are not operator-facing (e.g. whether stdout is a terminal). */
export const runtimeEnv = {
  isTTY: () => Boolean(process.stdout.isTTY),
  isCI: () => process.env.CI === 'true',
};
