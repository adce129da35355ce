// Marks the ArrayBuffers inside a task's input or output for transfer between threads (no copies).
import { MessageChannel } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';

/** Every ArrayBuffer reachable from value (through plain objects and arrays) that owns its whole memory. */
export function collectBuffers(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): Set<ArrayBuffer> {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value)) {
    const b = value.buffer;
    // Only transfer a buffer the view covers whole: Node's small Buffers share a pooled slab.
    if (b instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === b.byteLength) out.add(b);
    return out;
  }
  if (value instanceof ArrayBuffer) {
    out.add(value);
    return out;
  }
  if (Array.isArray(value)) for (const v of value) collectBuffers(v, out, depth + 1);
  else for (const v of Object.values(value)) collectBuffers(v, out, depth + 1);
  return out;
}

/** Wrap a value so that piscina transfers its buffers instead of copying them. */
export function movable<T>(value: T): T {
  const list = [...collectBuffers(value)];
  if (list.length === 0) return value;
  return move({ [transferableSymbol]: list, [valueSymbol]: value } as never) as unknown as T;
}

/** Every ArrayBuffer a value refers to, through whole or partial views (what an output still needs). */
function referenced(value: unknown, out = new Set<ArrayBufferLike>(), depth = 0): Set<ArrayBufferLike> {
  if (depth > 6 || value === null || typeof value !== 'object') return out;
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (value instanceof ArrayBuffer) out.add(value);
  else for (const v of Array.isArray(value) ? value : Object.values(value)) referenced(v, out, depth + 1);
  return out;
}

/** buffers smaller than this are left to the GC (a MessageChannel per task costs more than they weigh) */
const RELEASE_MIN_BYTES = 64 * 1024;

/**
 * Free a finished task's input buffers now instead of at the worker's next GC: they were transferred or cloned to
 * this worker for the task alone. V8 counts every ArrayBuffer's memory as "external" and adds what was allocated
 * since the last mark-compact to the old generation's size when it decides to start marking (≈ 8 MB of growth
 * with the pool workers' 8 MB heaps): a 1.5 MB input left to the GC per image was a fifth of what made the
 * remove-background worker run a mark-compact per image (issue 19). Detaching a buffer (transferring it into a
 * message that is never read) frees its memory and V8's count at once. Buffers the output refers to are kept;
 * ones that cannot be detached (made by native code, e.g. sharp's) are left to the GC.
 */
export function releaseInput(input: unknown, output: unknown): void {
  const keep = referenced(output);
  const list = [...collectBuffers(input)].filter((b) => b.byteLength >= RELEASE_MIN_BYTES && !keep.has(b));
  if (list.length === 0) return;
  const { port1 } = new MessageChannel();
  try {
    port1.postMessage(null, list);
  } catch {
    // a buffer that cannot be transferred: the GC frees it as before
  } finally {
    port1.close();
  }
}

/** Marker that carries a task error's code/field across the thread boundary (structured clone drops them). */
export const TASK_ERROR_MARK = '\u0000sejong-task-error:';
