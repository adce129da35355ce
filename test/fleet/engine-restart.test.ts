// Engine restarts under load (issue #14): two real sejong processes in shared mode, async text-to-image jobs created
// and polled on both nodes without pause while Redis is restarted (SIGKILL; its append-only file keeps the queue,
// as docs/scale-out.md asks of a production Redis), and then PostgreSQL (pg_ctl stop -m fast, start). Every
// request answers 200, or 503 SERVICE_BUSY with Retry-After during an outage: never a 500, never a refused
// connection (a node crashed). Both nodes recover by themselves (no node is restarted), and every job accepted
// before, between or after the outages completes.
import fs from 'node:fs';
import t from 'tap';
import { enginesMissing, sharedPostgres } from '../helpers/engines.js';
import { call, startFleet } from '../helpers/fleet.js';
import { FambFake } from '../fakes/famb.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MODEL = 'fam-b-2.5-flash-image';

interface Seen { phase: string; what: string; status: number | string; retryAfter?: string | null; code?: string }

t.test('two nodes: Redis restart, then PostgreSQL restart, while jobs are created and polled', { skip: enginesMissing() }, async (t) => {
  const famb = await new FambFake({ imageBase: 48 }).start();
  famb.latencyMs = 150;
  t.teardown(() => famb.close());
  const fleet = await startFleet({
    nodes: 2,
    haproxy: false,
    persistRedis: true,
    env: { SEJONG_FAMB_URL: famb.url, SEJONG_FAMB_KEY: famb.key, SEJONG_QUEUE_LOCK_MS: '4000', SEJONG_QUEUE_STALLED_MS: '2000' },
  });
  t.teardown(() => fleet.close());
  const pgs = await sharedPostgres();
  const r = await call(fleet.nodes[0]!.url, '/api/v1/admin/keys', { method: 'POST', key: fleet.adminKey, json: { name: 'restart' } });
  t.equal(r.status, 201, 'a key');
  const { key } = (await r.json()) as { key: string };

  let phase = 'before';
  const jobs: Array<{ id: string; token: string; phase: string }> = [];
  const seen: Seen[] = [];
  const record = async (what: string, res: Response | Error): Promise<unknown> => {
    if (res instanceof Error) { seen.push({ phase, what, status: `connection: ${res.message}` }); return undefined; }
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
    seen.push({ phase, what, status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code });
    return body;
  };
  let running = true;
  const create = async (w: number) => {
    for (let i = 0; running; i++) {
      const node = fleet.nodes[(w + i) % 2]!;
      const res = await call(node.url, '/api/v1/text-to-image/generate', { method: 'POST', key, json: { model: MODEL, prompt: `restart ${w}-${i}` } }).catch((e: Error) => e);
      const b = (await record('create', res)) as { jobId?: string; accessKey?: string } | undefined;
      if (!(res instanceof Error) && res.status === 200 && b?.jobId && b.accessKey) jobs.push({ id: b.jobId, token: b.accessKey, phase });
      await sleep(res instanceof Error || res.status !== 200 ? 200 : 50);
    }
  };
  const poll = async (w: number) => {
    for (let i = 0; running; i++) {
      const j = jobs[Math.floor(Math.random() * jobs.length)];
      if (j) {
        const node = fleet.nodes[(w + i) % 2]!;
        const res = await call(node.url, `/api/v1/text-to-image/status/${j.id}`, { headers: { authorization: `Bearer ${j.token}` } }).catch((e: Error) => e);
        await record('poll', res);
      }
      await sleep(50);
    }
  };
  const traffic = Promise.all([0, 1, 2, 3].map(create).concat([0, 1].map(poll)));

  /** both nodes answer a keyed request that needs Redis (the rate limit) and PostgreSQL (the job list) again */
  const recovered = async () => {
    for (const n of fleet.nodes) {
      let status = 0;
      for (let i = 0; i < 150 && status !== 200; i++) {
        status = (await call(n.url, '/api/v1/jobs?limit=1', { key }).catch(() => ({ status: 0 }))).status;
        if (status !== 200) await sleep(200);
      }
      t.equal(status, 200, `${n.name} answers again by itself`);
    }
  };

  await sleep(3000);
  phase = 'redis down';
  await fleet.redis!.stop();
  await sleep(3000);
  phase = 'redis back';
  await fleet.redis!.start();
  await recovered();
  await sleep(3000);
  phase = 'pg down';
  await pgs.stop('fast'); // an operator's restart: connections cut, no acknowledged commit lost
  await sleep(3000);
  phase = 'pg back';
  await pgs.start();
  await recovered();
  await sleep(3000);
  running = false;
  await traffic;

  // every request: 200, or 503 SERVICE_BUSY with Retry-After
  const bad = seen.filter((s) => !(s.status === 200 || (s.status === 503 && s.code === 'SERVICE_BUSY' && Number(s.retryAfter) >= 1)));
  t.same(bad.slice(0, 10), [], 'no 500, no other status, no refused connection (no node crashed)');
  const busy = (p: string) => seen.filter((s) => s.phase === p && s.status === 503).length;
  t.ok(busy('redis down') > 0, `requests during the Redis outage got 503 SERVICE_BUSY (${busy('redis down')})`);
  t.ok(busy('pg down') > 0, `requests during the PostgreSQL outage got 503 SERVICE_BUSY (${busy('pg down')})`);
  t.same(fleet.nodes.map((n) => n.proc?.exitCode ?? n.proc?.signalCode ?? 'running'), ['running', 'running'], 'neither node exited');
  for (const n of fleet.nodes) if (n.proc?.exitCode != null) fs.copyFileSync(n.logFile, `/tmp/engine-restart-${n.name}.log`);
  const phases = new Set(jobs.map((j) => j.phase));
  t.ok(phases.has('before') && phases.has('redis back') && phases.has('pg back'), `jobs accepted in every phase (${[...phases].join(', ')})`);

  // every accepted job completes
  const final = new Map<string, string>();
  const deadline = Date.now() + 120_000;
  let next = 0;
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (next < jobs.length) {
      const i = next++;
      const j = jobs[i]!;
      for (;;) {
        const res = await call(fleet.nodes[i % 2]!.url, `/api/v1/text-to-image/status/${j.id}`, { headers: { authorization: `Bearer ${j.token}` } });
        const b = (await res.json()) as { status?: string; error?: { message?: string } };
        if (res.status === 200 && b.status === 'processing' && Date.now() < deadline) { await sleep(250); continue; }
        final.set(j.id, res.status === 200 ? `${b.status}${b.error ? `: ${b.error.message}` : ''}` : `http ${res.status}`);
        break;
      }
    }
  }));
  const notDone = jobs.filter((j) => final.get(j.id) !== 'completed').map((j) => `${j.id} (${j.phase}): ${final.get(j.id) ?? 'not polled'}`);
  t.same(notDone, [], `all ${jobs.length} accepted jobs completed`);
  if (notDone.length) for (const n of fleet.nodes) fs.copyFileSync(n.logFile, `/tmp/engine-restart-${n.name}.log`);
});
