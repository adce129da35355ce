// `sejong law move-env`: moves the law of a data dir of the older layout (its law.* databases in the main LMDB
// environment) into its own environment, <data>/law with 1 KiB pages (law/open.ts lawEnv), without re-importing:
// the git history alone took 9 CPU minutes to import. Every key and value is copied as stored bytes (binary key and
// value encodings), so compressed databases (law.gvl, law.gat) and msgpack records need no decoding. The new
// environment is built beside (<data>/law-moving) and renamed into place only when complete: a crash leaves the
// older layout in force. Then the law databases are dropped from the main environment (its file keeps its size; the
// pages are reused). Run with the server stopped.
import fs from 'node:fs';
import path from 'node:path';
import { Store } from '../store/env.js';
import { LAW_ENV_DIR, LAW_PAGE_SIZE } from './open.js';

const RAW = { keyEncoding: 'binary', encoding: 'binary' } as const;
const BATCH = 5000;

export interface MoveResult { databases: string[]; entries: number }

/** the law.* databases of an environment (the main database's keys are the names of the named ones) */
function lawDatabases(store: Store): string[] {
  const out: string[] = [];
  for (const k of store.root.getKeys({})) if (typeof k === 'string' && k.startsWith('law.')) out.push(k);
  return out;
}

export async function moveLawEnv(store: Store, onDb?: (name: string, entries: number) => void): Promise<MoveResult> {
  const dir = path.join(store.path, LAW_ENV_DIR);
  if (fs.existsSync(path.join(dir, 'data.mdb'))) throw new Error(`${dir} exists already: the law has its own environment`);
  const names = lawDatabases(store);
  const aside = dir + '-moving'; // no dot: lmdb-js takes a path with an extension for a file, not a directory
  fs.rmSync(aside, { recursive: true, force: true });
  const target = new Store(aside, { pageSize: LAW_PAGE_SIZE });
  let entries = 0;
  for (const name of names) {
    const from = store.root.openDB({ name, ...RAW } as { name: string }), to = target.root.openDB({ name, ...RAW } as { name: string });
    let batch: Array<{ key: Buffer; value: Buffer }> = [], n = 0;
    const flush = async () => { const b = batch; batch = []; await target.transaction(() => { for (const e of b) to.put(e.key, e.value); }); };
    for (const { key, value } of from.getRange({})) {
      batch.push({ key: Buffer.from(key as Buffer), value: Buffer.from(value as Buffer) });
      n++;
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    entries += n;
    onDb?.(name, n);
  }
  await target.close();
  fs.renameSync(aside, dir);
  // the index's side files of long values (search/long-values.ts) go with the environment
  for (const f of fs.readdirSync(store.path)) if (/^idx-\d+\.long$/.test(f)) fs.renameSync(path.join(store.path, f), path.join(dir, f));
  for (const name of names) await store.root.openDB({ name, ...RAW } as { name: string }).drop();
  await store.root.flushed;
  return { databases: names, entries };
}
