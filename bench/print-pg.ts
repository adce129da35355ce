// The shared-mode money path: 200 concurrent print charges from two nodes (two pools on one private PostgreSQL),
// one album rotating over three advertisers, a third of the job_ids sent twice (once to each node). The two lock
// strategies of PgPrintStore side by side: 'row-locks' (advisory xact lock on the job_id + advertisers SELECT … FOR
// UPDATE in id order, READ COMMITTED) and 'serializable' (no explicit locks, SERIALIZABLE, retry on 40001/40P01).
// Reports wall time, charges per second, p50/p99 of one charge, rolled-back transactions (retries) and errors, and
// checks the ledger (balance = start - charges, one charge per job_id).
// Run: npm run bench -- print-pg [--n 200] [--rounds 3]
import { startPostgres } from '../test/helpers/engines.js';
import { Pg } from '../src/shared/pg.js';
import { migrate } from '../src/shared/migrate.js';
import { PgPrintStore } from '../src/print/store-pg.js';
import { table } from './lib/load.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('n', 200);
const ROUNDS = arg('rounds', 3);
const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
type Isolation = 'row-locks' | 'serializable';

const server = await startPostgres();
const rows: Array<Record<string, string | number>> = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const isolation of (round % 2 ? ['serializable', 'row-locks'] : ['row-locks', 'serializable']) as Isolation[]) rows.push(await run(isolation));
  }
} finally {
  await server.remove();
}
console.log(table(rows));

async function run(isolation: Isolation): Promise<Record<string, string | number>> {
  const url = await server.database();
  const pools = [await Pg.connect(url, 5000, 16), await Pg.connect(url, 5000, 16)];
  await migrate(pools[0]!);
  const nodes = pools.map((pg, i) => new PgPrintStore(pg, { node: `n${i + 1}`, leaseMs: 60_000, isolation }));
  const ps = nodes[0]!;
  const now = Date.now();
  const START = 1_000_000;
  const advs = [];
  for (let i = 0; i < 3; i++) {
    const a = await ps.createAdvertiser({ name: `a${i}`, unit_points: i + 1, initial_points: START }, now + i);
    const app = await ps.createApplication({ advertiser_id: a.id, title: 't', album_ids: [] }, { bytes: Buffer.from([i]), format: 'png', width: 10, height: 5 }, now);
    if (typeof app === 'string') throw new Error(app);
    await ps.decide(app.id, 1, 'approved', undefined, now);
    advs.push(a);
  }
  await ps.createAlbum({ id: 'alb', name: 'alb', ad_mode: 'selected' }, now);
  const sends = Array.from({ length: N }, (_, i) => `job-${i}`);
  for (let i = 0; i < N; i += 3) sends.push(`job-${i}`);
  const rollbacks = async () => Number((await pools[0]!.query<{ n: number }>('select xact_rollback::bigint as n from pg_stat_database where datname = current_database()')).rows[0]!.n);
  await new Promise((r) => setTimeout(r, 800));
  const rb0 = await rollbacks();
  const lat: number[] = [];
  let errors = 0;
  let charged = 0;
  const t0 = performance.now();
  await Promise.all(sends.map(async (job, i) => {
    const s = performance.now();
    try {
      const o = await nodes[i % 2]!.selectAndCharge({ job_id: job, album_id: 'alb', at: now, want_ad: true });
      if (o.kind === 'new' && o.impression.advertiser_id) charged++;
    } catch {
      errors++;
    }
    lat.push(performance.now() - s);
  }));
  const secs = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 800)); // the statistics collector flushes about every 500 ms
  const retries = (await rollbacks()) - rb0;
  let exact = true;
  for (const a of advs) {
    const bal = (await ps.advertiser(a.id))!.balance;
    const sum = await ps.ledgerSum(a.id);
    const charges = (await ps.ledgerOf(a.id)).filter((e) => e.kind === 'charge');
    if (sum.sum !== bal || new Set(charges.map((e) => e.job_id)).size !== charges.length || bal !== START - charges.reduce((n, e) => n - e.delta, 0)) exact = false;
  }
  for (const p of pools) await p.close();
  return {
    isolation,
    'sends (dup)': `${sends.length} (${sends.length - N})`,
    charged,
    'wall ms': Math.round(secs * 1000),
    'charges/s': Math.round(charged / secs),
    'p50 ms': pct(lat, 50).toFixed(1),
    'p99 ms': pct(lat, 99).toFixed(1),
    'rolled back (retries)': retries,
    errors,
    ledger: exact && charged === N ? 'exact' : 'MISMATCH',
  };
}
