// Where the law service is composed: the statute store over an LMDB Store, and the search index over the store's
// narrow read view (SearchSource, search/source.ts). Everything that opens the statute store comes through here: the
// server (law/service.ts getLaw, services.ext.law), the law worker threads (search-worker.ts), the CLI, tests and
// benches. The index reads the store only through SearchSource and never writes the store's info record: the store
// records the generation the index built (LawStore.rebuildIndex). A separate module, not law/service.ts: the worker
// threads open the law too, and service.ts imports the worker pool (an import cycle) and the MCP SDK.
import type { Store } from '../store/env.js';
import { LawStore } from './store.js';
import { SearchIndex } from './search.js';

/** The statute store of `store` with its search index (call reload() to load the catalogue and open the index). */
export function openLaw(store: Store): LawStore {
  return new LawStore(store, (source) => new SearchIndex(source));
}
