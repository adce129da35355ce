// One line of a key's request log (GET /api/v1/logs), as every store of it keeps it (request-log.ts, request-log-pg.ts,
// entry-slab.ts).
export interface RequestLogEntry {
  time: number;
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string;
  code?: string;
}
