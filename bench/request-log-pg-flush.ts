// The node's side of a shared-mode request-log flush, per checkout (its built dist/), against a real PostgreSQL (one
// per checkout, test/helpers/engines.ts): CPU of this process (process.cpuUsage: the JSON or the slab bytes, pg's
// parameter encoding, the socket) and of the PostgreSQL backend (/proc) per entry, over `flushes` flushes of
// 1,000 poll-like entries of one key, checkouts interleaved round after round.
// Usage: node --import tsx bench/request-log-pg-flush.ts <rounds> <flushes> <checkout>…
import fs from 'node:fs';
import os from 'node:os';
import { startPostgres, type PgServer } from '../test/helpers/engines.js';

const [rounds, flushes, ...roots] = process.argv.slice(2);
interface Side { name: string; server: PgServer; log: { add(k: string, e: object): void; flush(): Promise<void> }; backend: () => number }
const sides: Side[] = [];
for (const root of roots) {
  const { Pg } = await import(`${root}/dist/shared/pg.js`);
  const { migrate } = await import(`${root}/dist/shared/migrate.js`);
  const { PgRequestLog } = await import(`${root}/dist/usage/request-log-pg.js`);
  const server = await startPostgres();
  const pg = await Pg.connect(await server.database(), 5000, 1);
  await migrate(pg);
  const pid = (await pg.query('select pg_backend_pid() as p')).rows[0].p as number;
  const backend = (): number => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10_000; };
  sides.push({ name: root.split('/').pop()!, server, log: new PgRequestLog(pg, 86_400_000), backend });
}
let n = 0;
const path = '/api/v1/text-to-image/status/txt2img_20261124_aaaaaaaaaaaa';
console.log(`# ${rounds} rounds × ${flushes} flushes × 1,000 entries; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (let r = 1; r <= Number(rounds); r++) {
  for (const s of sides) {
    const c0 = process.cpuUsage(); const b0 = s.backend();
    for (let f = 0; f < Number(flushes); f++) {
      for (let i = 0; i < 1000; i++) s.log.add('key_bench', { time: 1_790_000_000_000 + (n >> 6), method: 'GET', path, status: 200, ms: 0.05, requestId: `0f1e2d3c-aaaa-bbbb-cccc-${(n++).toString(16).padStart(12, '0')}` });
      await s.log.flush();
    }
    const c = process.cpuUsage(c0); const entries = Number(flushes) * 1000;
    console.log(`round ${r} ${s.name.padEnd(8)} node CPU ${((c.user + c.system) / entries).toFixed(2)} µs/entry (user ${(c.user / entries).toFixed(2)})  PostgreSQL backend ${((s.backend() - b0) / entries).toFixed(2)} µs/entry  load ${os.loadavg()[0]!.toFixed(1)}`);
  }
}
for (const s of sides) await s.server.remove();
process.exit(0);
