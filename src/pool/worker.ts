// Worker entry: dispatches a task name to src/tasks/<name>.ts (loaded once per worker) and moves result buffers back.
import { movable } from './transfer.js';

export interface TaskRequest {
  task: string;
  input: unknown;
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
  const out = await mod.default(req.input);
  return movable(out);
}
