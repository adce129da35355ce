// Spend per API key and per tenant, per UTC day: what jobs cost (estimated before, actual after).
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';

export interface SpendRow {
  jobs: number;
  cost: number;
  /** per family */
  byFamily: Record<string, { jobs: number; cost: number }>;
}

export const day = (t: number) => new Date(t).toISOString().slice(0, 10);

export type SpendDay = { day: string } & SpendRow;
export type TenantDay = { tenant: string; day: string } & SpendRow;

/** Spend per key and tenant: LMDB (this file) or PostgreSQL (spend-pg.ts, shared mode: one book for the fleet). */
export interface SpendStore {
  record(opts: { keyId?: string; tenant?: string; family: string; cost: number; at: number }): Promise<void>;
  forKey(keyId: string, from?: string, to?: string): Promise<SpendDay[]>;
  tenants(from?: string, to?: string, tenant?: string): Promise<TenantDay[]>;
}

/** One job added to a day's row (both stores): counts, cost rounded to micro-units, per family. */
export function addToRow(row: SpendRow | undefined, family: string, cost: number): SpendRow {
  const r = row ?? { jobs: 0, cost: 0, byFamily: {} };
  r.jobs += 1;
  r.cost = Math.round((r.cost + cost) * 1e6) / 1e6;
  const f = (r.byFamily[family] ??= { jobs: 0, cost: 0 });
  f.jobs += 1;
  f.cost = Math.round((f.cost + cost) * 1e6) / 1e6;
  return r;
}

export class Spend implements SpendStore {
  private readonly byKey: Database<SpendRow, [string, string]>;
  private readonly byTenant: Database<SpendRow, [string, string]>;
  constructor(private readonly store: Store) {
    this.byKey = store.db<SpendRow, [string, string]>('spend-by-key');
    this.byTenant = store.db<SpendRow, [string, string]>('spend-by-tenant');
  }

  async record(opts: { keyId?: string; tenant?: string; family: string; cost: number; at: number }): Promise<void> {
    const d = day(opts.at);
    const add = (db: Database<SpendRow, [string, string]>, id: string) => db.put([id, d], addToRow(db.get([id, d]), opts.family, opts.cost));
    await this.store.transaction(() => {
      if (opts.keyId) add(this.byKey, opts.keyId);
      if (opts.tenant) add(this.byTenant, opts.tenant);
    });
  }

  async forKey(keyId: string, from = '0000-00-00', to = '9999-99-99'): Promise<SpendDay[]> {
    return [...this.byKey.getRange({ start: [keyId, from], end: [keyId, to + '~'] })].map(({ key, value }) => ({ day: (key as [string, string])[1], ...value }));
  }

  async tenants(from = '0000-00-00', to = '9999-99-99', tenant?: string): Promise<TenantDay[]> {
    const out: TenantDay[] = [];
    for (const { key, value } of this.byTenant.getRange(tenant ? { start: [tenant, from], end: [tenant, to + '~'] } : {})) {
      const [t, d] = key as [string, string];
      if (d >= from && d <= to) out.push({ tenant: t, day: d, ...value });
    }
    return out;
  }
}
