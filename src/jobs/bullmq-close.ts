// Closing BullMQ workers and queues without waiting for ever. BullMQ's Worker.close() can stay pending when its
// blocking connection is parked in ioredis' reconnecting state (after Redis went away and came back, or never
// answered): it awaits an 'end' event that never comes (taskforcesh/bullmq#4656, open at 6.7). A node that cannot
// finish its shutdown keeps its port, its timers and its process alive, so each step here is bounded and a stuck
// one is ended by force (the connection dropped: what a dying node does, and what BullMQ's stalled-job check is for).
import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

/** true when p settled within ms (its outcome is ignored), false when the time ran out first */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => { timer = setTimeout(() => r(false), ms); });
  try {
    return await Promise.race([p.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keep the connections BullMQ makes from conn (a worker's blocking connection is conn.duplicate()): BullMQ's own
 * disconnect leaves a reconnecting duplicate retrying for ever, so a forced close must end them itself.
 */
export function keepDuplicates(conn: Redis, into: Redis[]): Redis {
  const duplicate = conn.duplicate.bind(conn);
  conn.duplicate = ((...args: Parameters<Redis['duplicate']>) => {
    const d = duplicate(...args);
    into.push(d);
    return d;
  }) as Redis['duplicate'];
  return conn;
}

/**
 * Close one worker: its own close (force: drop running jobs) for up to ms, then a forced disconnect of its
 * connections and of the duplicates kept by keepDuplicates. The caller has already waited for this node's running
 * jobs when it wants a drain. True when the close finished by itself.
 */
export async function closeWorker(w: Worker<any>, force: boolean, ms: number, duplicates: Redis[] = []): Promise<boolean> {
  if (await settlesWithin(w.close(force), ms)) return true;
  await settlesWithin(w.disconnect(), ms);
  for (const d of duplicates) d.disconnect();
  await stopTimers(w);
  return false;
}

/** The parts of a BullMQ 6 worker whose timers its stuck close() never reached (it stops them after the wait). */
interface WorkerTimers {
  lockManager?: { close(): Promise<void> };
  stalledCheckStopper?: () => void;
}

/**
 * Stop the lock-renewal timer and the stalled-job checker a stuck close() left running (each re-arms itself and
 * keeps the process alive). They are internal to BullMQ (6.7): optional here, so a version without them changes
 * nothing, and test/jobs/bullmq-close.test.ts notices (it counts the timers left).
 */
async function stopTimers(w: Worker<any>): Promise<void> {
  const inner = w as unknown as WorkerTimers;
  await settlesWithin(inner.lockManager?.close() ?? Promise.resolve(), 1000);
  inner.stalledCheckStopper?.();
}

/** Close one queue for up to ms, then disconnect it by force. True when the close finished by itself. */
export async function closeQueue(q: Queue<any>, ms: number): Promise<boolean> {
  if (await settlesWithin(q.close(), ms)) return true;
  await settlesWithin(q.disconnect(), ms);
  return false;
}
