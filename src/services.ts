// The services every handler reaches through ctx.services: one instance of each per server.
import type { LoginThrottle } from './console/throttle.js';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Clock } from './clock.js';
import type { Store } from './store/env.js';
import type { Engines } from './shared/engines.js';
import type { BlobStore } from './store/blobs.js';
import type { VerificationStore } from './store/verifications.js';
import type { JobEngine } from './jobs/engine.js';
import type { JobQueue } from './jobs/queue.js';
import type { WorkerPool } from './pool/pool.js';
import type { Keys } from './auth/keys.js';
import type { Limiter } from './auth/rate-limit.js';
import type { SafeFetcher } from './providers/fetch.js';
import type { RequestLogStore } from './usage/request-log.js';
import type { SpendStore } from './usage/spend.js';
import type { LawStore } from './law/store.js';
import type { LawPool } from './law/search-pool.js';
import type { McpState } from './law/mcp-sessions.js';
import type { McpLimits } from './law/mcp-limits.js';
import type { PrintState } from './print/state.js';
import type { Callbacks } from './providers/callbacks.js';
import type { AiSlot } from './providers/ai/gate.js';
import type { PaymentProvider } from './providers/payment/types.js';

/** What the front end and GET /metrics use of the metrics registry (`Metrics` in server/metrics.ts implements it). */
export interface MetricsSink {
  /** one answered request (route template, never the raw path) */
  observe(route: string, method: string, status: number, ms: number, code?: string): void;
  /** the Prometheus text exposition */
  text(): Promise<{ body: string; contentType: string }>;
}

/** GET /ready's answer: every check with its state. */
export interface ReadyCheck { ready: boolean; checks: Record<string, { ok: boolean; detail?: string }> }

/** What GET /ready uses of the readiness checks (`Readiness` in server/readiness.ts implements it). */
export interface ReadinessProbe {
  check(): Promise<ReadyCheck>;
}

/** Parts of one server that api modules create in their start() (or on first use): undefined until then. */
export interface ServiceSlots {
  /** the OpenAPI document of this server's routes (set by server/start.ts once the route table is built) */
  openApiJson?: () => string;
  /** the statute store (law/service.ts getLaw) */
  law?: LawStore;
  /** the law search worker pool (law/service.ts getLawPool) */
  lawPool?: LawPool;
  /** MCP sessions and rate buckets (api/mcp.ts) */
  mcp?: McpState;
  /** the print module (api/composite.ts start) */
  print?: PrintState;
  /** the completion-callback dispatcher (api/ekyc-enhance.ts start) */
  callbacks?: Callbacks;
  /** the AI gateway and its pool gate (providers/ai/service.ts) */
  ai?: AiSlot;
  /** the account-check provider (api/ekyc.ts) */
  payment?: PaymentProvider;
  /** stop hooks of timers started by the modules (cleared on stop and before a re-start) */
  mcpTimerStop?: () => void;
  lawStop?: () => void;
  lawWatchStop?: () => void;
  lawGitStop?: () => void;
}

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
  /** where async job work runs: in-process (embedded) or the shared BullMQ queue (any node); chosen at start */
  queue: JobQueue<Services>;
  pool: WorkerPool;
  keys: Keys;
  limiter: Limiter;
  /** the console's password-guess throttle (per node in memory, or fleet-wide in Redis) */
  loginThrottle: LoginThrottle;
  /** the MCP endpoint's per-client-address rate and session cap (per node in memory, or fleet-wide in Redis) */
  mcpLimits: McpLimits;
  fetcher: SafeFetcher;
  requestLog: RequestLogStore;
  spend: SpendStore;
  /** Prometheus registry (undefined when SEJONG_METRICS=off) */
  metrics?: MetricsSink;
  /** GET /ready's checks (set once the front end exists) */
  readiness?: ReadinessProbe;
  /** base URL clients reach us at (SEJONG_PUBLIC_URL or http://host:port) */
  baseUrl(): string;
  /** the parts api modules fill in their start() (typed slots: the law store, MCP sessions, print, callbacks, …) */
  ext: ServiceSlots;
}
