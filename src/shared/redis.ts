// The Redis side of shared mode. Two kinds of connection:
// - request-path commands (rate limits, notices): no offline queue and one retry, so a lost Redis answers
//   503 at once instead of holding requests;
// - the BullMQ connection: maxRetriesPerRequest null, as BullMQ's workers require (they block on Redis).
import { Redis, type RedisOptions } from 'ioredis';
import { engineBusy, engineDown, EngineUnavailable } from './errors.js';
import { redact, withTimeout } from './pg.js';

export type { Redis };

const base = (connectMs: number): RedisOptions => ({
  connectTimeout: connectMs,
  lazyConnect: true,
  // reconnect for ever, backing off to 2 s: the node recovers by itself when Redis returns
  retryStrategy: (times) => Math.min(times * 100, 2000),
});

/** A client for commands on the request path (fails fast while Redis is away). */
export async function connectRedis(url: string, connectMs: number): Promise<Redis> {
  const r = new Redis(url, { ...base(connectMs), enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: Math.max(1000, connectMs) });
  await open(r, url, connectMs);
  return r;
}

/** A client for BullMQ queues and workers (blocking commands; retried by BullMQ itself). */
export async function connectQueueRedis(url: string, connectMs: number): Promise<Redis> {
  const r = new Redis(url, { ...base(connectMs), maxRetriesPerRequest: null, enableReadyCheck: false });
  await open(r, url, connectMs);
  return r;
}

async function open(r: Redis, url: string, connectMs: number): Promise<void> {
  r.on('error', () => undefined); // reported through failing commands; an unhandled 'error' event would crash
  try {
    await withTimeout(r.connect(), connectMs, `no answer within ${connectMs} ms`);
    await withTimeout(r.ping(), connectMs, `no PONG within ${connectMs} ms`);
  } catch (e) {
    r.disconnect();
    throw new EngineUnavailable('Redis', `${(e as Error).message} (SEJONG_REDIS_URL ${redact(url)})`);
  }
}

/** Run one Redis command on the request path: a lost connection becomes 503 SERVICE_BUSY. */
export async function redisCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw engineDown(e) ? engineBusy('Redis') : e;
  }
}
