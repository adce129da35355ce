// GET /api/v1/logs in shared mode through real HTTP, two nodes on one PostgreSQL, with the log stored as one row per
// key and flush (migration 0100) beside rows of the table before it (written by a node of the release before during
// a rolling upgrade): every request once, newest first, pages by cursor, entries past retention left out, a made-up
// cursor refused.
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';
import { Pg } from '../../src/shared/pg.js';

interface Line { time: string; method: string; path: string; status: number; ms: number; requestId: string; code: string | null }

async function pages(s: TestServer, key: string, limit: number): Promise<Line[]> {
  const out: Line[] = [];
  let cursor: string | undefined;
  do {
    const r = await s.req(`/api/v1/logs?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { key });
    t.equal(r.status, 200);
    const body = (await r.json()) as { logs: Line[]; next_cursor?: string };
    out.push(...body.logs);
    cursor = body.next_cursor;
  } while (cursor);
  return out;
}

t.test('shared: pages over two nodes\' batches and old rows, newest first, each line once', { skip: enginesMissing() }, async (t) => {
  const { env: sharedEnv, redis, databaseUrl } = await sharedModeEnv();
  const a = await startTestServer({ storage: 'shared', sharedEnv });
  const b = await startTestServer({ storage: 'shared', sharedEnv });
  const pg = await Pg.connect(databaseUrl, 5000);
  t.teardown(async () => {
    await pg.close();
    await a.close();
    await b.close();
    await redis.remove();
  });
  for (let i = 0; i < 6; i++) {
    t.equal((await (i % 2 ? a : b).req('/api/v1/jobs?limit=1', { key: a.apiKey })).status, 200, `request ${i + 1}`);
  }
  t.equal((await a.req('/api/v1/jobs?status=done', { key: a.apiKey })).status, 400);
  await Promise.all([a.services.requestLog.flush(), b.services.requestLog.flush()]);
  // rows as a node of the release before writes them, one between the requests above and one past retention
  const now = Date.now();
  const old = [
    { time: now - 60_000, method: 'GET', path: '/api/v1/jobs', status: 200, ms: 0.5, requestId: 'old-recent' },
    { time: now - 8 * 86_400_000, method: 'GET', path: '/api/v1/jobs', status: 200, ms: 0.5, requestId: 'old-expired' },
  ];
  for (const e of old) await pg.query('insert into request_log (key_id, time, entry) values ($1, $2, $3)', [a.apiKeyId, e.time, JSON.stringify(e)]);

  const lines = await pages(b, a.apiKey, 2);
  t.equal(lines.length, 8, 'seven requests of both nodes and the recent old row; not the row past retention');
  t.equal(new Set(lines.map((l) => l.requestId)).size, 8, 'no line twice');
  const times = lines.map((l) => Date.parse(l.time));
  t.same(times, [...times].sort((x, y) => y - x), 'newest first');
  t.equal(lines[lines.length - 1]!.requestId, 'old-recent', 'the old row in its place');
  t.match(lines.find((l) => l.status === 400), { method: 'GET', path: '/api/v1/jobs', code: 'INVALID_REQUEST' });
  // the listing's own requests are logged too (newer than the lines above)
  const whole = (await pages(a, a.apiKey, 500)).filter((l) => l.path !== '/api/v1/logs');
  t.same(whole.map((l) => l.requestId), lines.map((l) => l.requestId), 'one page or many, the same lines from either node');
  const bad = await b.req('/api/v1/logs?cursor=bm90LWEtY3Vyc29y', { key: a.apiKey });
  t.equal(bad.status, 400, 'a made-up cursor is refused');
});
