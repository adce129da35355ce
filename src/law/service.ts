// The law store as a server singleton (services.ext.law, opened by openLaw in law/open.ts together with its search
// index), the MCP server factory and the daily sync timer.
import fs from 'node:fs';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../services.js';
import type { LawStore } from './store.js';
import { openLaw } from './open.js';
import { Importer } from './import.js';
import { scheduleGitSync } from './history/daily.js';
import { LawPool } from './search-pool.js';
import { buildMcpServer } from './mcp-server.js';
import { LocalBackend, type McpBackend } from './mcp-backend.js';
import { McpWorkers } from './mcp-workers.js';
import type { LawCpus } from './thread-affinity.js';

export { MCP_PROTOCOL } from './mcp-server.js';

export function getLaw(services: Services): LawStore {
  let law = services.ext.law;
  if (!law) {
    law = openLaw(services.store);
    law.reload();
    services.ext.law = law;
  }
  return law;
}

/** Open the store; import SEJONG_LAW_IMPORT on the first start (empty store); schedule the daily sync. */
export async function startLaw(services: Services): Promise<LawStore> {
  const law = getLaw(services);
  const { config, log } = services;
  if (config.lawImport.trim() && law.catalog.length === 0) { // the catalogue is loaded only to see whether to import
    const paths = config.lawImport.split(',').map((p) => p.trim()).filter(Boolean);
    const missing = paths.filter((p) => !fs.existsSync(p));
    if (missing.length) log.warn({ msg: 'SEJONG_LAW_IMPORT path(s) not found', missing });
    const ok = paths.filter((p) => fs.existsSync(p));
    if (ok.length) {
      const stats = await new Importer(law, undefined, () => services.clock.now()).run(ok);
      log.info({ msg: 'law corpus imported on first start', statutes: stats.statutes, admin_rules: stats.admin_rules, articles: stats.articles, ms: stats.ms, errors: stats.errors.length });
    }
  }
  if (config.lawWorkers === 0) void law.search; // the tools run on this thread: open the index now, not on the first call
  if (config.lawSyncHour >= 0) scheduleSync(services, law);
  if (config.lawGit) scheduleGitSync(services, law);
  // a `sejong law import/sync` run by another process: reload the catalogue and the index when the store says so
  let seen = JSON.stringify(law.info());
  const watch = setInterval(() => {
    const now = JSON.stringify(law.info());
    if (now === seen) return;
    seen = now;
    // a store of a newer format (written by newer code) is refused by reload(): logged, this process keeps what it has
    try { law.reload(); } catch (e) { log.error({ msg: 'law store changed on disk but not reloaded', err: (e as Error).message }); return; }
    log.info({ msg: 'law store changed on disk: catalogue and index reloaded' });
  }, 15_000);
  watch.unref();
  services.ext.lawWatchStop?.();
  services.ext.lawWatchStop = () => clearInterval(watch);
  return law;
}

function scheduleSync(services: Services, law: LawStore): void {
  const tick = async () => {
    const now = new Date(services.clock.now());
    const info = law.info();
    const today = now.toISOString().slice(0, 10);
    if (now.getHours() === services.config.lawSyncHour && !(info.last_sync ?? '').startsWith(today)) {
      try {
        const { syncLaw } = await import('./sync.js');
        const r = await syncLaw(services.config, law, { now: services.clock.now(), log: services.log });
        services.log.info({ msg: 'law sync done', ...r, errors: r.errors.length });
      } catch (e) {
        services.log.error({ msg: 'law sync failed', err: (e as Error).message });
      }
    }
  };
  const t = setInterval(() => void tick(), 10 * 60_000);
  t.unref();
  services.ext.lawStop?.();
  services.ext.lawStop = () => clearInterval(t);
}

/** The law worker pool of this server (services.ext.lawPool), created on first use. */
export function getLawPool(services: Services): LawPool {
  let pool = services.ext.lawPool;
  if (!pool) {
    const { config } = services;
    pool = new LawPool(getLaw(services), { dataPath: services.store.path, workers: config.lawWorkers, queueSize: config.lawQueueSize, nice: config.lawWorkerNice, cpus: config.lawCpus as LawCpus, youngMb: config.lawYoungMb, heapMb: config.lawHeapMb });
    services.ext.lawPool = pool;
  }
  return pool;
}

/** A fresh McpServer with the tools bound to the law worker pool (one per session; protocol on the main thread). */
export function createMcpServer(services: Services): McpServer {
  const pool = getLawPool(services);
  return buildMcpServer((tool, args, now) => pool.call(tool, args, now), (tool, err) => services.log.error({ msg: 'law tool failed', tool, err: err.message }), () => services.clock.now());
}

/** Where this server hosts its MCP sessions: the law worker threads (the default), else the main thread. */
export function createMcpBackend(services: Services): McpBackend {
  const { config, log } = services;
  if (config.lawWorkers > 0 && config.mcpThread === 'worker') {
    const law = getLaw(services);
    return new McpWorkers({ dataPath: services.store.path, workers: config.lawWorkers, queueSize: config.lawQueueSize, nice: config.lawWorkerNice, cpus: config.lawCpus as LawCpus, youngMb: config.lawYoungMb, heapMb: config.lawHeapMb, version: () => law.version, log: (level, obj) => log[level](obj) });
  }
  return new LocalBackend(() => createMcpServer(services), () => getLawPool(services).queued);
}
