// The one LMDB environment. Every module opens its own named databases from it.
import fs from 'node:fs';
import { open, type RootDatabase, type Database, type DatabaseOptions } from 'lmdb';

export type Key = string | number | Array<string | number>;

export class Store {
  readonly root: RootDatabase;
  private readonly dbs = new Map<string, Database<any, any>>();
  constructor(readonly path: string) {
    fs.mkdirSync(path, { recursive: true });
    this.root = open({ path, maxDbs: 64, mapSize: 2 * 1024 ** 3, noMemInit: true, remapChunks: true });
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
    await this.root.flushed;
    await this.root.close();
  }
}
