// Marks work that runs inside an accepted async job: pool tasks started there wait for a worker instead of being
// refused with SERVICE_BUSY (the job was already answered 200; it must never fail later because the pool is busy).
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<true>();

/** Run fn so that every pool.run inside it (also after awaits) defaults to `{ wait: true }`. */
export function inJobScope<T>(fn: () => Promise<T>): Promise<T> {
  return scope.run(true, fn);
}

/** True inside inJobScope. */
export function inJob(): boolean {
  return scope.getStore() === true;
}
