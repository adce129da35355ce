// The law store as a server singleton (services.ext.law, opened by openLaw in law/open.ts together with its search
// index), the MCP server factory and the daily sync timer.
import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Services } from '../services.js';
import type { LawStore } from './store.js';
import { openLaw } from './open.js';
import { Importer } from './import.js';
import { TOOLS, ToolError } from './tools.js';
import { scheduleGitSync } from './history/daily.js';
import { bounded } from './tools/bound.js';
import { LawBusyError, LawPool } from './search-pool.js';

export const MCP_PROTOCOL = '2024-11-05';

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
  if (law.catalog.length === 0 && config.lawImport.trim()) {
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
    if (now !== seen) { seen = now; law.reload(); log.info({ msg: 'law store changed on disk: catalogue and index reloaded' }); }
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
    pool = new LawPool(getLaw(services), { dataPath: services.store.path, workers: config.lawWorkers, queueSize: config.lawQueueSize });
    services.ext.lawPool = pool;
  }
  return pool;
}

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A fresh McpServer with the tools bound to the law worker pool (one per session, as the SDK expects). */
export function createMcpServer(services: Services): McpServer {
  const pool = getLawPool(services);
  const server = new McpServer({ name: 'sejong-law', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: 'Korean statutes and administrative rules. Start with search_laws (names, abbreviations, article words; "민법 제750조"), then get_law / get_article / get_table with the law_id (or the exact name) it returns; verify_citation checks a citation such as "근로기준법 제60조 제2항". Long answers come in pages: pass next_cursor back. Dates are YYYYMMDD.' });
  for (const t of TOOLS) {
    server.registerTool(t.name, { title: t.title, description: t.description, inputSchema: t.schema, outputSchema: t.output, annotations: { title: t.title, ...ANNOTATIONS } }, async (args: unknown) => {
      try {
        const out = bounded(await pool.call(t.name, args, services.clock.now())) as Record<string, unknown>;
        return { content: [{ type: 'text' as const, text: JSON.stringify(out) }], structuredContent: out };
      } catch (e) {
        if (e instanceof ToolError) return { content: [{ type: 'text' as const, text: `${e.field ? `${e.field}: ` : ''}${e.message}` }], isError: true };
        if (e instanceof LawBusyError) return { content: [{ type: 'text' as const, text: `SERVICE_BUSY: ${e.message} (retry after ${e.retryAfter} s)` }], isError: true };
        services.log.error({ msg: 'law tool failed', tool: t.name, err: (e as Error).message });
        return { content: [{ type: 'text' as const, text: `internal error in ${t.name}: ${(e as Error).message}` }], isError: true };
      }
    });
  }
  return server;
}
