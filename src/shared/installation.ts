// Installation-wide values every node of a fleet must agree on (the sealing key, the print signing secret, the
// webhook secret): one row each in the installation table. The first node to ask creates it (INSERT … ON CONFLICT
// DO NOTHING); every node then reads the row back, so nodes starting together end with the same value.
import type { Pg } from './pg.js';

/** The stored value of `name`, created from `make()` when absent (the first writer wins). */
export async function installationValue(pg: Pg, name: string, make: () => Buffer): Promise<Buffer> {
  await pg.query('insert into installation (name, value) values ($1, $2) on conflict (name) do nothing', [name, make()]);
  const v = (await pg.query<{ value: Buffer }>('select value from installation where name = $1', [name])).rows[0]?.value;
  if (!v) throw new Error(`the installation table holds no ${name}`);
  return Buffer.from(v);
}

/** The stored value of `name`, or undefined. */
export async function installationRead(pg: Pg, name: string): Promise<Buffer | undefined> {
  const v = (await pg.query<{ value: Buffer }>('select value from installation where name = $1', [name])).rows[0]?.value;
  return v ? Buffer.from(v) : undefined;
}
