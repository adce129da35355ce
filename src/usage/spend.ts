// Spend per API key and per tenant, per UTC day: what jobs cost (estimated before, actual after).
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';

export interface SpendRow {
  jobs: number;
  cost: number;
  /** per family */
  byFamily: Record<string, { jobs: number; cost: number }>;
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

export class Spend {
  private readonly byKey: Database<SpendRow, [string, string]>;
  private readonly byTenant: Database<SpendRow, [string, string]>;
  constructor(private readonly store: Store) {
    this.byKey = store.db<SpendRow, [string, string]>('spend-by-key');
    this.byTenant = store.db<SpendRow, [string, string]>('spend-by-tenant');
  }

  async record(opts: { keyId?: string; tenant?: string; family: string; cost: number; at: number }): Promise<void> {
    const d = day(opts.at);
    const add = (db: Database<SpendRow, [string, string]>, id: string) => {
      const row = db.get([id, d]) ?? { jobs: 0, cost: 0, byFamily: {} };
      row.jobs += 1;
      row.cost = Math.round((row.cost + opts.cost) * 1e6) / 1e6;
      const f = (row.byFamily[opts.family] ??= { jobs: 0, cost: 0 });
      f.jobs += 1;
      f.cost = Math.round((f.cost + opts.cost) * 1e6) / 1e6;
      db.put([id, d], row);
    };
    await this.store.transaction(() => {
      if (opts.keyId) add(this.byKey, opts.keyId);
      if (opts.tenant) add(this.byTenant, opts.tenant);
    });
  }

  forKey(keyId: string, from = '0000-00-00', to = '9999-99-99'): Array<{ day: string } & SpendRow> {
    return [...this.byKey.getRange({ start: [keyId, from], end: [keyId, to + '~'] })].map(({ key, value }) => ({ day: (key as [string, string])[1], ...value }));
  }

  tenants(from = '0000-00-00', to = '9999-99-99', tenant?: string): Array<{ tenant: string; day: string } & SpendRow> {
    const out: Array<{ tenant: string; day: string } & SpendRow> = [];
    for (const { key, value } of this.byTenant.getRange(tenant ? { start: [tenant, from], end: [tenant, to + '~'] } : {})) {
      const [t, d] = key as [string, string];
      if (d >= from && d <= to) out.push({ tenant: t, day: d, ...value });
    }
    return out;
  }
}
