// The one LMDB environment. Every module opens its own named databases from it.
import fs from 'node:fs';
import { open, type RootDatabase, type Database, type DatabaseOptions } from 'lmdb';

export type Key = string | number | Array<string | number>;

export interface StoreOptions {
  /** LMDB page size of a new environment (a power of two, 256 … 64 KiB; an existing one keeps the size it was made
   * with). Default: the OS page (4 KiB). */
  pageSize?: number;
}

export class Store {
  readonly root: RootDatabase;
  private readonly dbs = new Map<string, Database<any, any>>();
  /** closed before this one: environments opened beside it (onClose) */
  private readonly companions: Array<() => Promise<void>> = [];
  constructor(readonly path: string, opts: StoreOptions = {}) {
    fs.mkdirSync(path, { recursive: true });
    this.root = open({ path, maxDbs: 64, mapSize: 2 * 1024 ** 3, noMemInit: true, remapChunks: true, ...(opts.pageSize ? { pageSize: opts.pageSize } : {}) });
  }

  /** Close `fn`'s resource (e.g. another environment opened for this one, law/open.ts) when this store closes. */
  onClose(fn: () => Promise<void>): void {
    this.companions.push(fn);
  }

  /** A named database of msgpack records (default) or raw binary values (`encoding: 'binary'`). */
  db<V = any, K extends Key = Key>(name: string, opts: Omit<DatabaseOptions, 'name'> = {}): Database<V, K> {
    let db = this.dbs.get(name);
    if (!db) {
      db = this.root.openDB({ name, encoding: 'msgpack', ...opts } as DatabaseOptions & { name: string });
      this.dbs.set(name, db);
    }
    return db as Database<V, K>;
  }

  /** Run fn in one write transaction (all puts/removes inside commit together or not at all). */
  transaction<T>(fn: () => T): Promise<T> {
    return this.root.transaction(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.companions.splice(0)) await fn();
    await this.root.flushed;
    await this.root.close();
  }
}
