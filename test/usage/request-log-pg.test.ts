// The shared-mode request log (usage/request-log-pg.ts) on a real PostgreSQL: a batch larger than one serialisation
// chunk and with several keys is written as one INSERT and read back with every value as it was added (quotes,
// backslashes, non-ASCII paths, codes), newest first, per key, with a working cursor.
import t from 'tap';
import { Pg } from '../../src/shared/pg.js';
import { loadMigrations, migrate } from '../../src/shared/migrate.js';
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

const at = (time: number, requestId: string, path = '/p'): RequestLogEntry => ({ time, method: 'GET', path, status: 200, ms: 1, requestId });

/** every entry of a key, page after page of `limit` */
async function allPages(log: PgRequestLog, key: string, limit: number, since?: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await log.list(key, limit, cursor, since);
    ids.push(...page.entries.map((e) => e.requestId));
    cursor = page.next;
    pages++;
  } while (cursor);
  return { ids, pages };
}

t.test('two nodes flushing one key at once: every entry lands once, pages interleave by time', { skip: missing ?? false }, async (t) => {
  const url = await (await sharedPostgres()).database();
  const [pa, pb] = [await Pg.connect(url, 5000), await Pg.connect(url, 5000)];
  t.teardown(async () => { await pa.close(); await pb.close(); });
  await migrate(pa);
  const a = new PgRequestLog(pa, 86_400_000);
  const b = new PgRequestLog(pb, 86_400_000);
  const t0 = 1_790_000_000_000;
  for (let i = 0; i < 600; i++) {
    a.add('k', at(t0 + 2 * i, `a${i}`));
    b.add('k', at(t0 + 2 * i + 1, `b${i}`));
    if (i % 150 === 149) await Promise.all([a.flush(), b.flush()]); // four batches of each node, overlapping in time
  }
  const rows = (await pa.query<{ n: number }>('select count(*)::int as n from request_log_batch')).rows[0]!.n;
  t.equal(rows, 8, 'one row per node, key and flush');
  const expected = Array.from({ length: 600 }, (_, i) => [`b${599 - i}`, `a${599 - i}`]).flat();
  const read = await allPages(b, 'k', 37);
  t.strictSame(read.ids, expected, 'all 1,200 entries, newest first across both nodes\' batches, none twice');
  t.equal(read.pages, Math.ceil(1200 / 37), 'full pages until the last');
  const one = await a.list('k', 1200);
  t.equal(one.next, undefined, 'no cursor when the page holds the last entry');
  t.same((await allPages(a, 'k', 50, t0 + 1000)).ids, expected.slice(0, 200), 'since: entries older than it are left out');
});

t.test('a failed flush keeps its entries for the next', { skip: missing ?? false }, async (t) => {
  const pg = await Pg.connect(await (await sharedPostgres()).database(), 5000);
  t.teardown(() => pg.close());
  await migrate(pg);
  const log = new PgRequestLog(pg, 86_400_000);
  for (let i = 0; i < 5; i++) log.add('k', at(1000 + i, `r${i}`));
  await pg.query('alter table request_log_batch rename to request_log_batch_away');
  await t.rejects(log.flush(), 'the write fails (the table is not there)');
  log.add('k', at(2000, 'later'));
  await t.rejects(log.list('k', 10), 'a list needs the write');
  await pg.query('alter table request_log_batch_away rename to request_log_batch');
  await log.flush();
  t.same((await log.list('k', 10)).entries.map((e) => e.requestId), ['later', 'r4', 'r3', 'r2', 'r1', 'r0'], 'the refused entries landed with the next flush');
});

t.test('a key\'s entries over more than the span go as several batches, listed as one', { skip: missing ?? false }, async (t) => {
  const pg = await Pg.connect(await (await sharedPostgres()).database(), 5000);
  t.teardown(() => pg.close());
  await migrate(pg);
  const log = new PgRequestLog(pg, 86_400_000);
  const times = [0, 4000, 9000, 12_000, 25_000, 26_000, 3000]; // the last: a clock stepped back
  times.forEach((ms, i) => log.add('k', at(1_000_000 + ms, `r${i}`)));
  await log.flush();
  const spans = (await pg.query<{ f: number; l: number }>('select first_time - 1000000 as f, last_time - 1000000 as l from request_log_batch order by id')).rows;
  t.same(spans, [{ f: 0, l: 9000 }, { f: 12_000, l: 12_000 }, { f: 25_000, l: 26_000 }, { f: 3000, l: 3000 }], 'no batch spans more than 10 s');
  t.same((await allPages(log, 'k', 2)).ids, ['r5', 'r4', 'r3', 'r2', 'r1', 'r6', 'r0'], 'in time order across them');
});

t.test('an existing database upgrades in place: rows of the table before 0100 stay readable, old cursors too, retention deletes both', { skip: missing ?? false }, async (t) => {
  const pg = await Pg.connect(await (await sharedPostgres()).database(), 5000);
  t.teardown(() => pg.close());
  const all = await loadMigrations();
  await migrate(pg, all.filter((m) => m.id < 100));
  // rows as the release before wrote them (its INSERT, one jsonb row per request)
  const old = Array.from({ length: 10 }, (_, i) => ({ ...at(1000 + i, `old${i}`, `/경로/"${i}"`), ...(i === 3 ? { code: 'RATE_LIMITED' } : {}) }));
  await pg.query("insert into request_log (key_id, time, entry) select r->>0, (r->>1)::bigint, r->2 from jsonb_array_elements($1::jsonb) with ordinality as x(r, n) order by n", [JSON.stringify(old.map((e) => ['k', e.time, e]))]);
  const oldId = (await pg.query<{ id: number }>("select id from request_log where entry->>'requestId' = 'old5'")).rows[0]!.id;
  t.same((await migrate(pg)).map((m) => m.id), all.filter((m) => m.id >= 100).map((m) => m.id), 'the new migration applies over the old rows');
  const log = new PgRequestLog(pg, 1000);
  log.add('k', at(1005, 'new5')); // the same time as an old row: the batch's id is larger
  log.add('k', at(1012, 'new12'));
  const list = await log.list('k', 100);
  t.same(list.entries.map((e) => e.requestId), ['new12', 'old9', 'old8', 'old7', 'old6', 'new5', 'old5', 'old4', 'old3', 'old2', 'old1', 'old0'], 'old rows and new batches in one order');
  t.strictSame(list.entries[8], old[3], 'an old row comes back whole');
  const fromOld = await log.list('k', 3, `1005.${oldId}.0`);
  t.same(fromOld.entries.map((e) => e.requestId), ['old4', 'old3', 'old2'], 'a cursor the old release gave goes on where it ended');
  t.same((await allPages(log, 'k', 5)).ids, list.entries.map((e) => e.requestId), 'pages cross old rows and batches');
  t.equal(await log.prune(2008), 8, 'prune: the 8 old rows past retention; the batch stays (its newest entry is not past it)');
  t.same((await log.list('k', 100)).entries.map((e) => e.requestId), ['new12', 'old9', 'old8', 'new5'], 'a batch is deleted whole');
  t.same((await log.list('k', 100, undefined, 1008)).entries.map((e) => e.requestId), ['new12', 'old9', 'old8'], 'the route\'s since leaves its older entries out');
  t.equal(await log.prune(2013), 3, 'then the batch and the last old rows');
  t.same((await log.list('k', 100)).entries, []);
});
