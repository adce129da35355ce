// When PostgreSQL or Redis cannot be reached at run time, a request answers 503 SERVICE_BUSY with Retry-After
// (the node recovers by itself when the engine returns: the pg pool and ioredis reconnect on their own).
import { ApiError } from '../domain/errors.js';

const DOWN_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, connection_exception family
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006',
]);
const DOWN_MESSAGES = [
  /Connection terminated/i, /timeout exceeded when trying to connect/i, /Client has encountered a connection error/i,
  /Connection is closed/i, /enableOfflineQueue/i, /Reached the max retries per request/i, /Command timed out/i,
  /the database system is (starting up|shutting down)/i,
];

/** Whether an error says PostgreSQL or Redis cannot be reached (connection refused, reset, shut down, timed out). */
export function engineDown(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const err = e as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof err.code === 'string' && DOWN_CODES.has(err.code)) return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  return typeof err.message === 'string' && DOWN_MESSAGES.some((re) => re.test(err.message as string));
}

/** The 503 a request gets while an engine is away. */
export function engineBusy(engine: 'PostgreSQL' | 'Redis', retryAfterSeconds = 2): ApiError {
  return new ApiError('SERVICE_BUSY', `${engine} is not reachable from this node; retry shortly`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
    details: { engine },
  });
}

/** Whether an error is the 503 of an unreachable engine (engineBusy), not a fault of the request or job itself. */
export function isEngineBusy(e: unknown): boolean {
  return e instanceof ApiError && e.code === 'SERVICE_BUSY' && typeof e.details?.engine === 'string';
}

/** Start-up could not reach an engine within its time: the message names it; the CLI exits with code 69 (EX_UNAVAILABLE). */
export class EngineUnavailable extends Error {
  constructor(readonly engine: 'PostgreSQL' | 'Redis', reason: string) {
    super(`${engine} is not reachable: ${reason}`);
  }
}
