// Worker entry: dispatches a task name to src/tasks/<name>.ts (loaded once per worker) and moves result buffers back.
import type { MessagePort } from 'node:worker_threads';
import { movable, TASK_ERROR_MARK } from './transfer.js';

export interface TaskRequest {
  task: string;
  input: unknown;
  /** told when the task starts (after the worker booted and loaded the task module): the time budget starts then */
  started?: MessagePort;
}

type TaskModule = { default: (input: any) => unknown };
const cache = new Map<string, Promise<TaskModule>>();
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

function load(task: string): Promise<TaskModule> {
  if (!/^[a-z0-9-]+$/.test(task)) throw new Error(`bad task name ${task}`);
  let m = cache.get(task);
  if (!m) {
    m = import(new URL(`../tasks/${task}${ext}`, import.meta.url).href) as Promise<TaskModule>;
    cache.set(task, m);
  }
  return m;
}

export default async function dispatch(req: TaskRequest): Promise<unknown> {
  const mod = await load(req.task);
  req.started?.postMessage(1);
  req.started?.close();
  try {
    const out = await mod.default(req.input);
    return movable(out);
  } catch (e) {
    const err = e as { code?: unknown; message?: string; field?: unknown; status?: unknown };
    if (err && typeof err.code === 'string') {
      throw new Error(TASK_ERROR_MARK + JSON.stringify({ code: err.code, message: err.message, field: err.field, status: err.status }));
    }
    throw e;
  }
}
