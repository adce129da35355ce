// PostgreSQL's own CPU per request-log entry for the shapes the shared request log could take (front24): one jsonb
// row per request (migration 0060, as written until session 15), and one row per key and flush holding the flush's
// entries as the byte slab the node already wrote them into (usage/entry-slab.ts), compressed by PostgreSQL (pglz,
// its default for a value over 2 KB), by lz4, or stored as it is (storage external). The CPU is the backend's
// utime+stime (/proc/<pg_backend_pid>/stat, same machine), measured around N flushes of `perFlush` entries of one key.
// Shapes run interleaved, round after round. Usage: node --import tsx bench/request-log-pg-shapes.ts [rounds] [flushes] [perFlush]
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { startPostgres } from '../test/helpers/engines.js';
import { EntrySlab } from '../src/usage/entry-slab.js';

const [rounds = 3, flushes = 200, perFlush = 1000] = process.argv.slice(2).map(Number);
const server = await startPostgres();
const c = new pg.Client({ connectionString: await server.database() });
await c.connect();
const pid = (await c.query<{ p: number }>('select pg_backend_pid() as p')).rows[0]!.p;
const ticks = (): number => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };
const hz = 100;

await c.query(`create table per_request (id bigserial primary key, key_id text not null, time bigint not null, entry jsonb not null);
create index on per_request (key_id, time desc, id desc); create index on per_request (time);`);
for (const [name, storage] of [['slab_pglz', "set compression pglz"], ['slab_lz4', 'set compression lz4'], ['slab_external', 'set storage external']] as const) {
  await c.query(`create table ${name} (id bigserial primary key, key_id text not null, first_time bigint not null, last_time bigint not null, entries bytea not null);
  alter table ${name} alter column entries ${storage}; create index on ${name} (key_id, last_time desc, id desc); create index on ${name} (last_time);`);
}
let t0 = 1_790_000_000_000;
const entries = (): Array<{ time: number; method: string; path: string; status: number; ms: number; requestId: string }> =>
  Array.from({ length: perFlush }, (_, i) => ({ time: t0 + Math.floor(i / 40), method: 'GET', path: '/api/v1/text-to-image/status/txt2img_20261124_aaaaaaaaaaaa', status: 200, ms: 0.05 + (i % 7) / 100, requestId: `${(t0 + i).toString(36)}-${(i * 7919).toString(36)}` }));

const shapes: Record<string, () => Promise<void>> = {
  per_request: async () => {
    const es = entries();
    const json = '[' + es.map((e) => `["key_1",${e.time},${JSON.stringify(e)}]`).join(',') + ']';
    await c.query("insert into per_request (key_id, time, entry) select r->>0, (r->>1)::bigint, r->2 from jsonb_array_elements(convert_from($1::bytea, 'UTF8')::jsonb) with ordinality as x(r, n) order by n", [Buffer.from(json)]);
  },
};
for (const name of ['slab_pglz', 'slab_lz4', 'slab_external']) {
  shapes[name] = async () => {
    const slab = new EntrySlab();
    for (const e of entries()) slab.push(e);
    await c.query(`insert into ${name} (key_id, first_time, last_time, entries) select * from unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[])`, [['key_1'], [t0], [slab.lastTime], [slab.bytes()]]);
  };
}
console.log(`# ${rounds} rounds × ${flushes} flushes × ${perFlush} entries; load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
for (let r = 1; r <= rounds; r++) {
  for (const [name, fn] of Object.entries(shapes)) {
    const a = ticks();
    for (let f = 0; f < flushes; f++) { await fn(); t0 += 250; }
    const us = ((ticks() - a) * 1e6) / hz / (flushes * perFlush);
    const size = (await c.query<{ s: string }>(`select pg_total_relation_size('${name}') as s`)).rows[0]!.s;
    console.log(`round ${r} ${name.padEnd(14)} backend CPU ${us.toFixed(2)} µs/entry  table+indexes+toast ${(Number(size) / 1e6).toFixed(1)} MB  load ${os.loadavg()[0]!.toFixed(1)}`);
  }
}
await c.end();
await server.remove();
