// Law worker entry: opens the server's LMDB environment (lmdb-js shares one env between the threads of a process),
// keeps its own catalogue and search index, and runs a legal-information tool off the main event loop.
import fs from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { open, type RootDatabase, type Database, type DatabaseOptions } from 'lmdb';
import type { Store } from '../store/env.js';
import type { LawStore } from './store.js';
import { openLaw } from './open.js';
import { runTool, ToolError } from './tools.js';
import { pinOwnThread, type LawCpus } from './thread-affinity.js';

export interface LawTask {
  dataPath: string;
  /** the main thread's catalogue version: a different one means the store was reloaded (import, sync) */
  stamp: number;
  tool: string;
  args: unknown;
  now: number;
}

export type LawTaskResult =
  | { ok: true; out: unknown }
  | { ok: false; error: { message: string; field?: string; code: 'INVALID_REQUEST' | 'NOT_FOUND' } };

/** The Store surface LawStore reads through, over an env opened in this thread (same options as src/store/env.ts). */
class ThreadStore {
  readonly root: RootDatabase;
  private readonly dbs = new Map<string, Database<any, any>>();
  constructor(readonly path: string) {
    this.root = open({ path, maxDbs: 64, mapSize: 2 * 1024 ** 3, noMemInit: true, remapChunks: true });
  }
  db(name: string, opts: Omit<DatabaseOptions, 'name'> = {}): Database<any, any> {
    let db = this.dbs.get(name);
    if (!db) {
      db = this.root.openDB({ name, encoding: 'msgpack', ...opts } as DatabaseOptions & { name: string });
      this.dbs.set(name, db);
    }
    return db;
  }
  transaction<T>(): Promise<T> {
    throw new Error('the law worker reads only');
  }
}

// name the law threads (this module is the Piscina law worker and is loaded by the MCP law worker too) for top -H,
// /proc and the test of their niceness (Linux; elsewhere names are diagnostics only)
if (!isMainThread) {
  try { fs.writeFileSync('/proc/thread-self/comm', 'sejong-law'); } catch { /* not Linux */ }
  // off one CPU when SEJONG_LAW_CPUS=spare-one (passed by LawPool and McpWorkers: thread-affinity.ts); refused: one log line on
  // stderr (this thread has no logger of the service's) and the thread keeps every CPU
  const cpus = (workerData as { cpus?: LawCpus } | null)?.cpus ?? 'any';
  void pinOwnThread(cpus).then((r) => { if (r instanceof Error) console.error(JSON.stringify({ level: 40, msg: 'law thread keeps every CPU', err: r.message })); });
}

let law: LawStore | null = null;
let stamp = -1;

/** This thread's law store over the env at dataPath, reloaded when the main thread's catalogue version moved. */
export function threadLaw(dataPath: string, version: number): LawStore {
  if (!law) law = openLaw(new ThreadStore(dataPath) as unknown as Store);
  if (stamp !== version) {
    law.reload();
    stamp = version;
  }
  return law;
}

const lawFor = (task: LawTask): LawStore => threadLaw(task.dataPath, task.stamp);

export default function run(task: LawTask): LawTaskResult {
  try {
    return { ok: true, out: runTool(task.tool, { law: lawFor(task), now: task.now }, task.args) };
  } catch (e) {
    if (e instanceof ToolError) return { ok: false, error: { message: e.message, field: e.field, code: e.code } };
    throw e;
  }
}
