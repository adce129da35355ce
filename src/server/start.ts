// Assemble the services, load every api module, listen; and the graceful shutdown in reverse order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import type { Config } from '../config.js';
import { systemClock, type Clock } from '../clock.js';
import { openEngines, closeEngines, type Engines } from '../shared/engines.js';
import { LmdbBlobStore } from '../store/blobs.js';
import { PgBlobStore } from '../store/blobs-pg.js';
import { LmdbVerificationStore } from '../store/verifications.js';
import { PgVerificationStore } from '../store/verifications-pg.js';
import { LmdbJobRepo } from '../jobs/repo-lmdb.js';
import { PgJobRepo } from '../jobs/repo-pg.js';
import { Sealer } from '../jobs/sealed-keys.js';
import { sharedSealer } from '../jobs/sealed-keys-shared.js';
import { JobEngine } from '../jobs/engine.js';
import type { JobQueue } from '../jobs/queue.js';
import { LocalJobQueue } from '../jobs/queue-local.js';
import { BullJobQueue } from '../jobs/queue-bullmq.js';
import { WorkerPool } from '../pool/pool.js';
import { KeyStore, type Keys } from '../auth/keys.js';
import { SharedKeyStore } from '../auth/keys-shared.js';
import { RateLimiter, type Limiter } from '../auth/rate-limit.js';
import { RedisRateLimiter } from '../auth/rate-limit-redis.js';
import { MemoryLoginThrottle, type LoginThrottle } from '../console/throttle.js';
import { RedisLoginThrottle } from '../console/throttle-redis.js';
import { MemoryMcpLimits, type McpLimits } from '../law/mcp-limits.js';
import { RedisMcpLimits } from '../law/mcp-limits-redis.js';
import { SafeFetcher } from '../providers/fetch.js';
import { RequestLog, type RequestLogStore } from '../usage/request-log.js';
import { Spend, type SpendStore } from '../usage/spend.js';
import { PgSpend } from '../usage/spend-pg.js';
import { PgRequestLog } from '../usage/request-log-pg.js';
import type { Services } from '../services.js';
import type { ApiModule, RouteDef } from './types.js';
import { HttpServer, nativeUwsLoaded } from './app.js';
import { ensureAdminKey } from '../auth/bootstrap.js';
import { Metrics } from './metrics.js';
import { Readiness } from './readiness.js';
import { buildOpenApi } from './openapi.js';
import type { Server as NodeHttpServer } from 'node:http';

export interface StartOptions {
  clock?: Clock;
  log?: Logger;
  /** print the generated admin key here (default: stdout) */
  printSecret?: (line: string) => void;
}

export interface RunningServer {
  services: Services;
  http: HttpServer;
  port: number;
  url: string;
  /** set when a new admin key was generated on this start */
  generatedAdminKey?: string;
  /** the route table of every api module (bench, tools) */
  routes: readonly RouteDef[];
  close(): Promise<void>;
}

const apiDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'api');

export async function loadApiModules(): Promise<Array<{ name: string; mod: ApiModule }>> {
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const files = fs.existsSync(apiDir) ? fs.readdirSync(apiDir).filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts') && !f.includes('.test.')).sort() : [];
  const out: Array<{ name: string; mod: ApiModule }> = [];
  for (const f of files) out.push({ name: f.replace(/\.[tj]s$/, ''), mod: (await import(pathToFileURL(path.join(apiDir, f)).href)) as ApiModule });
  return out;
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  if (!nativeUwsLoaded()) throw new Error('The native uWebSockets.js binary did not load (JS fallback active); this Node version/platform is not supported');
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? pino({ level: config.logLevel, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ sync: false }));
  const engines = await openEngines(config);
  const store = engines.store;
  const { blobs, jobRepo, verifications } = jobStorage(engines);
  const sealer = engines.mode === 'shared' ? await sharedSealer(engines.pg, config.sealKeyFile) : new Sealer(store);
  const jobs = new JobEngine({ repo: jobRepo, sealer }, blobs, clock, config.tombstoneDays * 86400_000);
  const { keys, limiter, loginThrottle } = await authStorage(engines);
  const pool = new WorkerPool({ workers: config.workers, queueSize: config.queueSize, waitBudgetMs: config.queueWaitMs, taskTimeoutMs: config.taskTimeoutMs, trimIdleMs: config.modelTrimIdleMs, heapMb: config.taskHeapMb, nice: config.workerNice, workerData: { maxInputPixels: config.maxInputPixels } });
  let port = config.port;
  const services: Services = {
    config, clock, log, engines, store, blobs, verifications, jobs, pool, keys,
    queue: undefined as unknown as JobQueue<Services>, // set just below (the queue runs jobs with these services)
    limiter,
    loginThrottle,
    mcpLimits: mcpLimits(engines, config),
    fetcher: new SafeFetcher({ allow: config.fetchAllow, timeoutMs: config.fetchTimeoutMs, maxBytes: Math.round(config.fetchMaxMb * 1048576), selfPort: () => port }),
    ...usageStorage(engines, config.logRetentionDays * 86400_000, log),
    baseUrl: () => config.publicUrl || `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    ext: {},
  };
  services.queue = await openJobQueue(services);
  const generatedAdminKey = await ensureAdminKey(services, opts.printSecret);
  // embedded: this node is alone on its store, so what it left processing died with it (recoverInterrupted). Shared:
  // other nodes may be running those jobs; a dead node's jobs are taken again by the queue (stalled jobs), and only
  // jobs BullMQ gave up on unrecorded are failed here.
  const recovered = await services.queue.recover();
  if (recovered) log.warn({ msg: 'jobs interrupted by a previous stop were marked failed', count: recovered });

  const modules = await loadApiModules();
  const routes: RouteDef[] = modules.flatMap((m) => m.mod.routes ?? []);
  let openApi: string | undefined;
  services.ext.openApiJson = () => (openApi ??= JSON.stringify(buildOpenApi(routes, '3.6.0')));
  for (const m of modules) await m.mod.start?.(services);
  await services.queue.start(); // every api module has defined its job runners by now
  const metricsServer = config.metrics ? await startMetrics(services) : undefined;
  const http = new HttpServer(services, routes);
  const readiness = new Readiness(services, () => http.isDraining);
  services.readiness = readiness;
  if (config.warmup) readiness.warmUp();
  port = await http.listen(config.host, config.port);
  jobs.startSweeper(config.sweepSeconds * 1000);
  const pruneTimer = setInterval(() => void services.requestLog.prune(clock.now()).catch(() => undefined), 3600_000);
  pruneTimer.unref();
  log.info({ msg: 'listening', port, host: config.host, workers: config.workers, routes: routes.length });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(pruneTimer);
      await http.close();
      metricsServer?.close();
      for (const m of [...modules].reverse()) await m.mod.stop?.(services);
      await services.queue.close();
      await jobs.drain();
      await services.limiter.close();
      keys.close?.();
      await services.requestLog.flush();
      await pool.close();
      await services.fetcher.close();
      await closeEngines(engines);
      log.info({ msg: 'stopped' });
      log.flush?.();
    })());
  return { services, http, port, url: `http://127.0.0.1:${port}`, generatedAdminKey, routes, close };
}

/** Where job records, result blobs and e-KYC verification records live: chosen here, once, by the engines' mode. */
function jobStorage(engines: Engines) {
  if (engines.mode === 'shared') {
    return { blobs: new PgBlobStore(engines.pg), jobRepo: new PgJobRepo(engines.pg), verifications: new PgVerificationStore(engines.pg) };
  }
  return { blobs: new LmdbBlobStore(engines.store), jobRepo: new LmdbJobRepo(engines.store), verifications: new LmdbVerificationStore(engines.store) };
}

/** Request log and spend: this node's LMDB (embedded) or the fleet's PostgreSQL (shared). */
function usageStorage(engines: Engines, retentionMs: number, log: { warn(o: object): void }): { requestLog: RequestLogStore; spend: SpendStore } {
  if (engines.mode === 'shared') {
    return { requestLog: new PgRequestLog(engines.pg, retentionMs, (e) => log.warn({ msg: 'request log not written', err: e.message })), spend: new PgSpend(engines.pg) };
  }
  return { requestLog: new RequestLog(engines.store, retentionMs), spend: new Spend(engines.store) };
}

/** Where API keys and rate-limit counters live: LMDB, or PostgreSQL (keys) and Redis (counters, exact fleet-wide). */
async function authStorage(engines: Engines): Promise<{ keys: Keys; limiter: Limiter; loginThrottle: LoginThrottle }> {
  if (engines.mode === 'shared') {
    return { keys: await SharedKeyStore.open(engines.pg, engines.redis), limiter: new RedisRateLimiter(engines.redis), loginThrottle: new RedisLoginThrottle(engines.redis) };
  }
  return { keys: new KeyStore(engines.store), limiter: new RateLimiter(engines.store), loginThrottle: new MemoryLoginThrottle() };
}

/** The MCP endpoint's per-address limits: this node's memory, or Redis (one budget per address for the fleet). */
function mcpLimits(engines: Engines, config: Config): McpLimits {
  const settings = { ratePerSecond: config.mcpRatePerSecond, burst: config.mcpRateBurst, perClient: config.mcpSessionsPerClient, idleMs: config.mcpIdleSeconds * 1000 };
  return engines.mode === 'shared' ? new RedisMcpLimits(engines.redis, settings) : new MemoryMcpLimits(settings);
}

/** The one place the job queue is chosen: in-process when embedded, the shared BullMQ queue in shared mode. */
async function openJobQueue(services: Services): Promise<JobQueue<Services>> {
  const { engines, config, jobs, log } = services;
  if (engines.mode === 'embedded') return new LocalJobQueue<Services>({ jobs, services }, { log });
  return BullJobQueue.open<Services>({ jobs, services }, {
    pg: engines.pg,
    connect: () => engines.queueRedis(),
    node: engines.node,
    concurrency: config.queueConcurrency || Math.max(4, 2 * config.workers),
    ioConcurrency: config.queueIoConcurrency,
    attempts: config.queueAttempts,
    lockMs: config.queueLockMs,
    stalledMs: config.queueStalledMs,
    timeoutMs: config.engineConnectMs,
    clock: services.clock,
    log,
  });
}

/** The metrics registry over this server's services; its own listener when SEJONG_METRICS_ADDR is set. */
async function startMetrics(services: Services): Promise<NodeHttpServer | undefined> {
  const { ext } = services;
  const metrics = new Metrics(services, {
    law: () => { const law = ext.law; if (!law) return undefined; const c = law.counts(); return { documents: c.statutes + c.admin_rules, articles: c.articles, indexGeneration: law.info().index_gen }; },
    callbacks: async () => ext.callbacks && { states: await ext.callbacks.counts(), failedAttempts: ext.callbacks.failedAttempts },
  });
  services.metrics = metrics;
  if (!services.config.metricsAddr) return undefined;
  const server = await metrics.listenSeparately(services.config.metricsAddr);
  services.log.info({ msg: 'metrics listening', addr: services.config.metricsAddr });
  return server;
}
