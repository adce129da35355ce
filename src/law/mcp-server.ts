// The McpServer of one MCP session: the law tools registered with their schemas, each call handed to `run` (the law
// worker pool from the main thread, or the tool code itself inside a law worker). No services: the law worker
// threads build it too.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TOOLS, ToolError } from './tools.js';
import { bounded } from './tools/bound.js';
import { LawBusyError } from './search-pool.js';

export const MCP_PROTOCOL = '2024-11-05';

/** Run a tool with parsed arguments at the request's time (ms): its answer, or ToolError / LawBusyError. */
export type ToolRun = (tool: string, args: unknown, now: number) => unknown;

/** The time of the request a tool call belongs to, as the host hands it through the SDK (extra.authInfo). */
export function callTime(now: number) {
  return { token: '', clientId: 'sejong', scopes: [] as string[], extra: { now } };
}

const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const INSTRUCTIONS = 'Korean statutes and administrative rules. Start with search_laws (names, abbreviations, article words; "민법 제750조"), then get_law / get_article / get_table with the law_id (or the exact name) it returns; verify_citation checks a citation such as "근로기준법 제60조 제2항". Long answers come in pages: pass next_cursor back. Dates are YYYYMMDD.';

/** A fresh McpServer with the tools bound to run (one per session, as the SDK expects); failures go to onFail. */
export function buildMcpServer(run: ToolRun, onFail: (tool: string, err: Error) => void, clock: () => number = Date.now): McpServer {
  const server = new McpServer({ name: 'sejong-law', version: '1.0.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  for (const t of TOOLS) {
    server.registerTool(t.name, { title: t.title, description: t.description, inputSchema: t.schema, outputSchema: t.output, annotations: { title: t.title, ...ANNOTATIONS } }, async (args: unknown, extra) => {
      const now = Number(extra.authInfo?.extra?.now ?? clock());
      try {
        const out = bounded(await run(t.name, args, now)) as Record<string, unknown>;
        return { content: [{ type: 'text' as const, text: JSON.stringify(out) }], structuredContent: out };
      } catch (e) {
        if (e instanceof ToolError) return { content: [{ type: 'text' as const, text: `${e.field ? `${e.field}: ` : ''}${e.message}` }], isError: true };
        if (e instanceof LawBusyError) return { content: [{ type: 'text' as const, text: `SERVICE_BUSY: ${e.message} (retry after ${e.retryAfter} s)` }], isError: true };
        onFail(t.name, e as Error);
        return { content: [{ type: 'text' as const, text: `internal error in ${t.name}: ${(e as Error).message}` }], isError: true };
      }
    });
  }
  return server;
}
