// Shared mode: spend per key and tenant in PostgreSQL, one book for the fleet. A record adds one job to the day's
// rows under their row locks (insert-if-missing, then SELECT … FOR UPDATE), so two nodes recording at once never
// lose an addition; the arithmetic is spend.ts's addToRow, the same as in embedded mode.
import type { Pg } from '../shared/pg.js';
import { addToRow, day, type SpendDay, type SpendRow, type SpendStore, type TenantDay } from './spend.js';

interface Row {
  id: string;
  day: string;
  jobs: number;
  cost: number;
  by_family: SpendRow['byFamily'];
}

const toRow = (r: Row): SpendRow => ({ jobs: r.jobs, cost: r.cost, byFamily: r.by_family });

export class PgSpend implements SpendStore {
  constructor(private readonly pg: Pg) {}

  async record(opts: { keyId?: string; tenant?: string; family: string; cost: number; at: number }): Promise<void> {
    const d = day(opts.at);
    const targets: Array<['key' | 'tenant', string]> = [];
    if (opts.keyId) targets.push(['key', opts.keyId]);
    if (opts.tenant) targets.push(['tenant', opts.tenant]);
    if (!targets.length) return;
    await this.pg.tx(async (c) => {
      for (const [scope, id] of targets) {
        await c.query("insert into spend (scope, id, day, jobs, cost, by_family) values ($1, $2, $3, 0, 0, '{}') on conflict do nothing", [scope, id, d]);
        const cur = (await c.query<Row>('select id, day, jobs, cost, by_family from spend where scope = $1 and id = $2 and day = $3 for update', [scope, id, d])).rows[0]!;
        const next = addToRow(toRow(cur), opts.family, opts.cost);
        await c.query('update spend set jobs = $4, cost = $5, by_family = $6 where scope = $1 and id = $2 and day = $3', [scope, id, d, next.jobs, next.cost, JSON.stringify(next.byFamily)]);
      }
    });
  }

  async forKey(keyId: string, from = '0000-00-00', to = '9999-99-99'): Promise<SpendDay[]> {
    const r = await this.pg.query<Row>("select id, day, jobs, cost, by_family from spend where scope = 'key' and id = $1 and day between $2 and $3 order by day", [keyId, from, to]);
    return r.rows.map((x) => ({ day: x.day, ...toRow(x) }));
  }

  async tenants(from = '0000-00-00', to = '9999-99-99', tenant?: string): Promise<TenantDay[]> {
    const r = await this.pg.query<Row>(
      "select id, day, jobs, cost, by_family from spend where scope = 'tenant' and ($3::text is null or id = $3) and day between $1 and $2 order by id, day",
      [from, to, tenant ?? null],
    );
    return r.rows.map((x) => ({ tenant: x.id, day: x.day, ...toRow(x) }));
  }
}
