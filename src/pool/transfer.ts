// Marks the ArrayBuffers inside a task's input or output for transfer between threads (no copies).
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

/** Marker that carries a task error's code/field across the thread boundary (structured clone drops them). */
export const TASK_ERROR_MARK = '\u0000sejong-task-error:';
