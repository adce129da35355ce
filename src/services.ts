// The services every handler reaches through ctx.services: one instance of each per server.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { Store } from './store/env.js';
import type { Engines } from './shared/engines.js';
import type { BlobStore } from './store/blobs.js';
import type { VerificationStore } from './store/verifications.js';
import type { JobEngine } from './jobs/engine.js';
import type { WorkerPool } from './pool/pool.js';
import type { KeyStore } from './auth/keys.js';
import type { RateLimiter } from './auth/rate-limit.js';
import type { SafeFetcher } from './providers/fetch.js';
import type { RequestLog } from './usage/request-log.js';
import type { Spend } from './usage/spend.js';
import type { Metrics } from './server/metrics.js';
import type { Readiness } from './server/readiness.js';

export interface Services {
  config: Config;
  clock: Clock;
  log: Logger;
  /** the engines chosen at start (embedded LMDB, or shared PostgreSQL + Redis); the statute store is always `store` */
  engines: Engines;
  store: Store;
  blobs: BlobStore;
  /** e-KYC verification audit records */
  verifications: VerificationStore;
  jobs: JobEngine;
  pool: WorkerPool;
  keys: KeyStore;
  limiter: RateLimiter;
  fetcher: SafeFetcher;
  requestLog: RequestLog;
  spend: Spend;
  /** Prometheus registry (undefined when SEJONG_METRICS=off) */
  metrics?: Metrics;
  /** GET /ready's checks (set once the front end exists) */
  readiness?: Readiness;
  /** base URL clients reach us at (SEJONG_PUBLIC_URL or http://host:port) */
  baseUrl(): string;
  /** extension slots that api modules fill in their start() (e.g. the law store) */
  ext: Record<string, unknown>;
}
