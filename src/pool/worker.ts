// Worker entry: dispatches a task name to its module of the task table (loaded once per worker, on first use) and
// moves result buffers back.
import fs from 'node:fs';
import type { MessagePort } from 'node:worker_threads';
import { movable, releaseInput, TASK_ERROR_MARK } from './transfer.js';
import { isTaskName, TASKS } from '../tasks/table.js';
import { bindGate, markPoolThread, nativeIdle } from './native-gate.js';
import { reniceLibvips } from './helper-nice.js';
import { bindBudgetPort, type ClockMessage } from './budget-clock.js';
import { ownTid } from './thread-wait.js';

export interface TaskRequest {
  task: string;
  input: unknown;
  /** told when the task starts (after the worker booted and loaded the task module; with the thread's tid): the time
   *  budget starts then; then when a model load pauses it and resumes it (src/pool/budget-clock.ts) */
  started?: MessagePort;
  /** the task's native-call gate (src/pool/native-gate.ts): the pool terminates this worker only when it allows */
  gate?: Int32Array;
}

/** this thread's Linux tid: the start message carries it so the pool can read the thread's run-queue wait */
const tid = ownTid();

// native calls here only inside a task, on its gate (src/pool/native-gate.ts)
markPoolThread();

// name this thread for top -H, /proc and the benches' per-thread CPU (Linux; threads it creates inherit the name)
try {
  fs.writeFileSync('/proc/thread-self/comm', 'sejong-pool');
} catch {
  // not Linux: names are diagnostics only
}

/** a task module as the worker sees it: the table's types are checked at pool.run, here the input is opaque */
type TaskModule = { default: (input: unknown) => unknown };
const cache = new Map<string, Promise<TaskModule>>();

function load(task: string): Promise<TaskModule> {
  if (!isTaskName(task)) throw new Error(`bad task name ${task}`);
  let m = cache.get(task);
  if (!m) {
    m = TASKS[task]() as Promise<TaskModule>;
    cache.set(task, m);
  }
  return m;
}

export default async function dispatch(req: TaskRequest): Promise<unknown> {
  bindGate(req.gate);
  try {
    return await runTask(req);
  } finally {
    // a native call the task started and left behind (a rejected Promise.all) ends before the task does
    await nativeIdle();
    bindGate(undefined);
    reniceLibvips();
  }
}

async function runTask(req: TaskRequest): Promise<unknown> {
  const mod = await load(req.task);
  req.started?.postMessage((tid ?? 'start') satisfies ClockMessage);
  bindBudgetPort(req.started);
  try {
    const out = await mod.default(req.input);
    // after a success only: a failed task may have left a libvips call reading its input (a rejected Promise.all)
    releaseInput(req.input, out);
    return movable(out);
  } catch (e) {
    const err = e as { code?: unknown; message?: string; field?: unknown; status?: unknown };
    if (err && typeof err.code === 'string') {
      throw new Error(TASK_ERROR_MARK + JSON.stringify({ code: err.code, message: err.message, field: err.field, status: err.status }));
    }
    throw e;
  } finally {
    bindBudgetPort(undefined);
    req.started?.close();
  }
}
