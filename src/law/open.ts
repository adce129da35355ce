// Where the law service is composed: the statute store over its own LMDB environment (lawEnv below), and the search
// index over the store's narrow read view (SearchSource, search/source.ts). Everything that opens the statute store
// comes through here: the server (law/service.ts getLaw, services.ext.law), the law worker threads (search-worker.ts),
// the CLI, tests and benches. The index reads the store only through SearchSource and never writes the store's info
// record: the store records the generation the index built (LawStore.rebuildIndex). A separate module, not
// law/service.ts: the worker threads open the law too, and service.ts imports the worker pool (an import cycle) and
// the MCP SDK.
import fs from 'node:fs';
import path from 'node:path';
import { Store } from '../store/env.js';
import { LawStore } from './store.js';
import { SearchIndex } from './search.js';

/** the law environment's directory inside the data directory */
export const LAW_ENV_DIR = 'law';

/**
 * Page size of the law environment. Why not the OS page (4 KiB): the store is opened with remapChunks, which maps
 * the file in chunks of 16 pages as they are read and unmaps unused chunks only once ~8,191 are mapped (lmdb-js
 * mdb.c, MDB_ERPAGE_SIZE 16,384, purged at half); every chunk a search touches stays in the process's RSS as
 * file-backed pages until then (the kernel faults 64 KiB around each read, at most the chunk). 4 KiB pages: 64 KiB
 * chunks, up to ~512 MiB of the file in RSS; 1 KiB pages: 16 KiB chunks, at most ~128 MiB (bench/RESULTS.md, rss19:
 * RssFile 408 → 195 MB after 436 searches, 434 → 127 after 872; 512-byte pages 135 / 96 MB, not taken: a node must
 * hold two keys, and 1 KiB already holds every key of the full corpus).
 */
export const LAW_PAGE_SIZE = 1024;

const envs = new WeakMap<Store, Store>();

/**
 * The LMDB environment holding the statute store of the data directory `store` opens: its own environment in
 * `<data>/law` (1 KiB pages), made on first use; a data directory imported before it existed keeps the law in the
 * main environment (legacy: used as it is until re-imported into a fresh directory).
 */
export function lawEnv(store: Store): Store {
  let env = envs.get(store);
  if (!env) {
    const dir = path.join(store.path, LAW_ENV_DIR);
    // create: false (an lmdb-js option its types do not list): a fresh main environment gets no law database
    const sys = store.root.openDB({ name: 'law.sys', create: false } as { name: string }) as { get(k: string): unknown } | undefined;
    const legacy = !fs.existsSync(path.join(dir, 'data.mdb')) && sys?.get('info') !== undefined;
    env = legacy ? store : new Store(dir, { pageSize: LAW_PAGE_SIZE });
    if (env !== store) { const own = env; store.onClose?.(() => own.close()); }
    envs.set(store, env);
  }
  return env;
}

/** The statute store of `store`'s data directory with its search index (call reload() to load the catalogue and open the index). */
export function openLaw(store: Store): LawStore {
  return new LawStore(lawEnv(store), (source) => new SearchIndex(source));
}
