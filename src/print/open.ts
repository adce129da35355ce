// The one place the print store is chosen, by the engines' mode: this node's LMDB (embedded) or the fleet's
// PostgreSQL (shared), with the signing secret of result-image URLs that goes with it.
import type { Engines } from '../shared/engines.js';
import { PrintStore } from './store.js';
import { PgPrintStore } from './store-pg.js';
import { sharedPrintSecret } from './secret-shared.js';
import type { PrintRepo } from './repo.js';

export interface OpenedPrintStore {
  store: PrintRepo;
  secret: Buffer;
  /** shared mode: how often a node looks for prints whose lease ran out (a node died mid-print); embedded: never
   * (this process alone composes, so what it left composing is recovered once, at start) */
  recoverEveryMs?: number;
}

/** leaseMs: how long a charged print may stay composing before another node refunds it. */
export async function openPrintStore(engines: Engines, opts: { leaseMs: number }): Promise<OpenedPrintStore> {
  if (engines.mode === 'shared') {
    const store = new PgPrintStore(engines.pg, { node: engines.node, leaseMs: opts.leaseMs });
    return { store, secret: await sharedPrintSecret(engines.pg), recoverEveryMs: Math.max(5000, Math.round(opts.leaseMs / 4)) };
  }
  const store = new PrintStore(engines.store);
  return { store, secret: await store.secret() };
}
