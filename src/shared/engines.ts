// The engines behind the storage seams, opened once at start: the embedded LMDB store always (the statute store
// lives there in both modes), and in shared mode PostgreSQL (migrated) and Redis as well.
import { storageMode, type Config } from '../config.js';
import { Store } from '../store/env.js';
import { Pg } from './pg.js';
import { connectRedis, connectQueueRedis, type Redis } from './redis.js';
import { migrate } from './migrate.js';

export interface EmbeddedEngines {
  mode: 'embedded';
  store: Store;
}

export interface SharedEngines {
  mode: 'shared';
  store: Store;
  pg: Pg;
  /** request-path commands (fail fast) */
  redis: Redis;
  /** BullMQ connection factory (each Queue/Worker/QueueEvents wants its own blocking connection) */
  queueRedis(): Promise<Redis>;
  /** name of this node in the fleet */
  node: string;
}

export type Engines = EmbeddedEngines | SharedEngines;

export async function openEngines(config: Config): Promise<Engines> {
  const store = new Store(config.dataPath);
  if (storageMode(config) === 'embedded') return { mode: 'embedded', store };
  let pg: Pg | undefined;
  try {
    pg = await Pg.connect(config.databaseUrl, config.engineConnectMs);
    await migrate(pg);
    const redis = await connectRedis(config.redisUrl, config.engineConnectMs);
    const node = config.nodeName || `${(await import('node:os')).hostname()}-${process.pid}`;
    return { mode: 'shared', store, pg, redis, queueRedis: () => connectQueueRedis(config.redisUrl, config.engineConnectMs), node };
  } catch (e) {
    await pg?.close();
    await store.close();
    throw e;
  }
}

export async function closeEngines(e: Engines): Promise<void> {
  if (e.mode === 'shared') {
    e.redis.disconnect();
    await e.pg.close();
  }
  await e.store.close();
}
