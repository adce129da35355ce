// Prometheus metrics (prom-client): one registry per server. Counters and histograms are fed by the front end
// and the job engine's completion events; pool, job, callback and law gauges are read at scrape time from the
// services themselves, so no other module imports this one. Route labels are route templates, never raw paths.
import http from 'node:http';
import client from 'prom-client';
import type { MetricsSink, Services } from '../services.js';
import { RequestMetrics } from './request-metrics.js';
import { FAMILIES } from '../jobs/families.js';

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Scrape-time views of services that live elsewhere (callbacks, law) and may be absent. */
export interface MetricSources {
  callbacks?: () => Promise<{ states: Record<string, number>; failedAttempts: number } | undefined>;
  law?: () => { documents: number; articles: number; indexGeneration: number } | undefined;
}

/** A counter kept by another module as a plain number: at each scrape it catches up by what was added since. */
function catchUpCounter(reg: client.Registry[], name: string, help: string, read: () => number | Promise<number>): void {
  let seen = 0;
  new client.Counter({
    name, help, registers: reg,
    async collect() {
      const n = await read();
      if (n > seen) this.inc(n - seen);
      seen = n;
    },
  });
}

export class Metrics implements MetricsSink {
  readonly registry = new client.Registry();
  private readonly perRequest = new RequestMetrics(this.registry, {
    requests: 'sejong_http_requests_total', requestsHelp: 'HTTP requests by route template, method and status',
    latency: 'sejong_http_request_duration_seconds', latencyHelp: 'Time from request to answer, by route template',
  }, LATENCY_BUCKETS);
  private readonly refusals = new client.Counter({ name: 'sejong_http_refusals_total', help: 'Answers refusing work: RATE_LIMITED (rate limits), SERVICE_BUSY (pool full, draining, body budget), PAYLOAD_TOO_LARGE', labelNames: ['code'] as const, registers: [this.registry] });
  private readonly jobsFinished = new client.Counter({ name: 'sejong_jobs_finished_total', help: 'Jobs that reached a final state, by family and state', labelNames: ['family', 'state'] as const, registers: [this.registry] });
  private readonly jobSeconds = new client.Histogram({ name: 'sejong_job_duration_seconds', help: 'Creation to completion or failure, by family and state', labelNames: ['family', 'state'] as const, buckets: JOB_BUCKETS, registers: [this.registry] });

  constructor(private readonly services: Services, sources: MetricSources = {}) {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'sejong_' });
    // the labelled series of every known code, family and state exist from the start (at 0): dashboards and alerts
    // (rate(), absent()) see them before the first refusal or job
    for (const code of ['RATE_LIMITED', 'SERVICE_BUSY', 'PAYLOAD_TOO_LARGE']) this.refusals.inc({ code }, 0);
    for (const family of Object.keys(FAMILIES)) {
      for (const state of ['completed', 'failed']) {
        this.jobsFinished.inc({ family, state }, 0);
        this.jobSeconds.zero({ family, state });
      }
    }
    const { pool, jobs } = services;
    const reg = [this.registry];
    new client.Gauge({ name: 'sejong_pool_workers', help: 'Worker threads in the CPU pool', registers: reg, collect() { this.set(pool.size); } });
    new client.Gauge({ name: 'sejong_pool_busy', help: 'Tasks running on a worker now', registers: reg, collect() { this.set(pool.running); } });
    new client.Gauge({ name: 'sejong_pool_queue', help: 'Tasks waiting for a worker', registers: reg, collect() { this.set(pool.queued); } });
    // the pool counts its own refusals; the counters catch up at scrape time
    const refusedSeen: Record<string, number> = {};
    const refusals = new client.Counter({
      name: 'sejong_pool_refusals_total', help: 'Synchronous tasks the worker pool refused with SERVICE_BUSY, by reason (queue_full, wait_budget: the expected wait is over SEJONG_QUEUE_WAIT_MS, shutting_down)', labelNames: ['reason'] as const, registers: reg,
      collect() {
        for (const [reason, n] of Object.entries(pool.refused)) {
          refusals.inc({ reason }, n - (refusedSeen[reason] ?? 0));
          refusedSeen[reason] = n;
        }
      },
    });
    catchUpCounter(reg, 'sejong_pool_task_timeouts_total', 'Tasks stopped at their time budget (SEJONG_TASK_TIMEOUT_MS; the worker is replaced)', () => pool.timedOut);
    new client.Gauge({
      name: 'sejong_jobs_processing', help: 'Jobs in state processing, by family', labelNames: ['family'] as const, registers: reg,
      async collect() {
        const counts = await jobs.processingByFamily();
        this.reset();
        for (const family of Object.keys(FAMILIES)) this.set({ family }, 0);
        for (const [family, n] of Object.entries(counts)) this.set({ family }, n);
      },
    });
    new client.Gauge({
      name: 'sejong_callbacks', help: 'Completion callbacks in the outbox by state (pending = backlog awaiting delivery)', labelNames: ['state'] as const, registers: reg,
      async collect() {
        const states = (await sources.callbacks?.().catch(() => undefined))?.states;
        this.reset();
        for (const [state, n] of Object.entries(states ?? {})) this.set({ state }, n);
      },
    });
    catchUpCounter(reg, 'sejong_callback_failed_attempts_total', 'Callback delivery attempts that failed (non-2xx answer or network error)', async () => (await sources.callbacks?.().catch(() => undefined))?.failedAttempts ?? 0);
    const law = () => sources.law?.();
    new client.Gauge({ name: 'sejong_law_documents', help: 'Statutes and administrative rules in the statute store', registers: reg, collect() { this.set(law()?.documents ?? 0); } });
    new client.Gauge({ name: 'sejong_law_articles', help: 'Articles in the statute store', registers: reg, collect() { this.set(law()?.articles ?? 0); } });
    new client.Gauge({ name: 'sejong_law_index_generation', help: 'Generation of the statute search index (grows with each import or sync)', registers: reg, collect() { this.set(law()?.indexGeneration ?? 0); } });
    // the fetcher counts its own refusals; the counter catches up at scrape time
    const fetcher = services.fetcher;
    catchUpCounter(reg, 'sejong_fetch_refusals_total', 'Outbound URLs the safe fetcher refused (SSRF guard: private, loopback, link-local or metadata addresses)', () => fetcher.refusals);
    jobs.onFinished((job) => {
      const state = job.status;
      this.jobsFinished.inc({ family: job.family, state });
      const end = job.completedAt ?? job.updatedAt;
      this.jobSeconds.observe({ family: job.family, state }, Math.max(0, (end - job.createdAt) / 1000));
    });
  }

  /** One answered request (route template, never the raw path). */
  observe(route: string, method: string, status: number, ms: number, code?: string): void {
    this.perRequest.observe(route, method, status, ms / 1000);
    if (code === 'RATE_LIMITED' || code === 'SERVICE_BUSY' || code === 'PAYLOAD_TOO_LARGE') this.refusals.inc({ code });
  }

  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** Serve /metrics on its own address (SEJONG_METRICS_ADDR): node:http is plenty for one scrape every few seconds. */
  listenSeparately(addr: string): Promise<http.Server> {
    const { host, port } = splitAddr(addr);
    const server = http.createServer((req, res) => {
      if (req.url?.split('?')[0] !== '/metrics' || req.method !== 'GET') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      void this.text().then(({ body, contentType }) => res.writeHead(200, { 'content-type': contentType }).end(body), () => res.writeHead(500).end());
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve(server));
    });
  }
}

/** "host:port" or "[v6]:port" → parts. */
export function splitAddr(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(addr.trim());
  if (!m) throw new Error(`expected host:port, got "${addr}"`);
  return { host: m[1] ?? m[2]!, port: Number(m[3]) };
}
