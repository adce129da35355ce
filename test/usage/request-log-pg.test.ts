// The shared-mode request log (usage/request-log-pg.ts) on a real PostgreSQL: a batch larger than one serialisation
// chunk and with several keys is written as one INSERT and read back with every value as it was added (quotes,
// backslashes, non-ASCII paths, codes), newest first, per key, with a working cursor.
import t from 'tap';
import { Pg } from '../../src/shared/pg.js';
import { migrate } from '../../src/shared/migrate.js';
import { PgRequestLog } from '../../src/usage/request-log-pg.js';
import type { RequestLogEntry } from '../../src/usage/request-log.js';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';

const missing = enginesMissing();

t.test('a batch of 950 entries over three keys comes back exactly, in order', { skip: missing ?? false }, async (t) => {
  const pg = await Pg.connect(await (await sharedPostgres()).database(), 5000);
  t.teardown(() => pg.close());
  await migrate(pg);
  const log = new PgRequestLog(pg, 86_400_000);
  const added = new Map<string, RequestLogEntry[]>();
  for (let i = 0; i < 950; i++) {
    const key = `key_${i % 3}`;
    const e: RequestLogEntry = {
      time: 1_790_000_000_000 + i,
      method: i % 2 ? 'POST' : 'GET',
      path: `/api/v1/law/법령/${i}?q="근로\\기준법"`,
      status: 200 + (i % 300),
      ms: i / 100,
      requestId: `req-${i}`,
      ...(i % 7 === 0 ? { code: 'INVALID_REQUEST' } : {}),
    };
    log.add(key, e);
    added.set(key, [...(added.get(key) ?? []), e]);
  }
  await log.flush();
  for (const [key, entries] of added) {
    const back = await log.list(key, 1000);
    t.strictSame(back.entries, [...entries].reverse(), `${key}: ${entries.length} entries, every field as added, newest first`);
  }
  const p1 = await log.list('key_1', 100);
  const p2 = await log.list('key_1', 100, p1.next);
  t.same(p2.entries[0]?.time, p1.entries[99]!.time - 3, 'the cursor continues where the page ended');
});
