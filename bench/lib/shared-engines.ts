// For bench/status-ab.sh SHARED=1: one private PostgreSQL and one Redis (test/helpers/engines.ts) for the run, a
// fresh database per checkout; writes {redis, databases[]} to OUT, removes both on SIGTERM (or at exit).
// Usage: OUT=<file.json> N=<databases> node --import tsx bench/lib/shared-engines.ts
import fs from 'node:fs';
import { startPostgres, startRedis } from '../../test/helpers/engines.js';

const pg = await startPostgres();
const redis = await startRedis();
const databases: string[] = [];
for (let i = 0; i < Number(process.env.N ?? 2); i++) databases.push(await pg.database());
let gone = false;
const remove = async (): Promise<void> => {
  if (gone) return;
  gone = true;
  await redis.remove();
  await pg.remove();
};
process.once('exit', () => void (gone || pg.removeSync()));
process.on('SIGTERM', () => void remove().then(() => process.exit(0)));
fs.writeFileSync(process.env.OUT!, JSON.stringify({ redis: redis.url, databases }));
setInterval(() => undefined, 60_000);
