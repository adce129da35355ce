// ensureAdminKey without SEJONG_ADMIN_KEY: one admin key is generated on a fresh store and never again. In shared
// mode three nodes starting together on a fresh database create exactly one (the bootstrap runs under an advisory lock).
import t from 'tap';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { enginesMissing, sharedModeEnv } from '../helpers/engines.js';

const noAdminKey = { SEJONG_ADMIN_KEY: '' };

t.test('embedded: generated once, kept on restart', async (t) => {
  const a = await startTestServer({ storage: 'embedded', env: noAdminKey });
  const admins = (ts: TestServer) => ts.services.keys.list().filter((k) => (k as { admin?: boolean }).admin).length;
  t.equal(admins(a), 1, 'one admin key generated');
  const b = await a.restart();
  t.teardown(() => b.close());
  t.equal(admins(b), 1, 'no second admin key after a restart');
  t.equal(b.services.keys.hasAdmin(), true);
});

t.test('shared: three nodes starting together create exactly one admin key', { skip: enginesMissing() }, async (t) => {
  const { env: sharedEnv, redis } = await sharedModeEnv();
  const nodes: TestServer[] = await Promise.all([0, 1, 2].map(() => startTestServer({ storage: 'shared', sharedEnv, env: noAdminKey })));
  t.teardown(async () => {
    for (const n of nodes) await n.close();
    await redis.remove();
  });
  const engines = nodes[0]!.services.engines;
  if (engines.mode !== 'shared') throw new Error('shared mode expected');
  const admins = await engines.pg.query<{ n: number }>("select count(*)::int as n from api_keys where (rec->>'admin')::boolean");
  t.equal(admins.rows[0]!.n, 1, 'one admin key in the table');
  const all = await engines.pg.query<{ n: number }>('select count(*)::int as n from api_keys');
  t.equal(all.rows[0]!.n, 4, 'the admin key and each node\'s test key');
  for (const n of nodes) t.equal(n.services.keys.hasAdmin(), true);
});
