// For bench/status-ab.sh SHARED=1: a private PostgreSQL per checkout and one Redis (test/helpers/engines.ts) for the
// run, a fresh database in each; writes {redis, databases[]} to OUT, removes both on SIGTERM (or at exit).
// Usage: OUT=<file.json> N=<databases> node --import tsx bench/lib/shared-engines.ts
import fs from 'node:fs';
import { startPostgres, startRedis } from '../../test/helpers/engines.js';

// One PostgreSQL per checkout (front24): with one for all, the engines' CPU of one server's run also held the other
// database's autovacuum of what the other server had just written.
const pgs = await Promise.all(Array.from({ length: Number(process.env.N ?? 2) }, () => startPostgres()));
const redis = await startRedis();
const databases: string[] = [];
for (const pg of pgs) databases.push(await pg.database());
let gone = false;
const remove = async (): Promise<void> => {
  if (gone) return;
  gone = true;
  await redis.remove();
  for (const pg of pgs) await pg.remove();
};
process.once('exit', () => void (gone || pgs.forEach((pg) => pg.removeSync())));
process.on('SIGTERM', () => void remove().then(() => process.exit(0)));
fs.writeFileSync(process.env.OUT!, JSON.stringify({ redis: redis.url, databases }));
setInterval(() => undefined, 60_000);
