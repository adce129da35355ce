// Every tool answer stays under 50 KB on the wire. The answer travels twice in one MCP message (text content and
// structuredContent), so a page holds about 20 KB of JSON; tools page long lists with a cursor, and a last-resort
// guard shortens anything still too large and says so.

/** JSON bytes a tool fills with list items on one page */
export const PAGE_BYTES = 20_000;
/** JSON bytes of a whole answer; text + structuredContent + framing then stay under 50 KB */
export const ANSWER_BYTES = 23_000;

export const bytes = (o: unknown): number => Buffer.byteLength(JSON.stringify(o) ?? '');

/** How many items, from the first, fit in budget bytes (at least one, so a page always moves on). */
export function fitCount(items: readonly unknown[], budget = PAGE_BYTES): number {
  let used = 0, n = 0;
  for (const it of items) {
    const b = bytes(it) + 1;
    if (n > 0 && used + b > budget) break;
    used += b;
    n++;
  }
  return n;
}

type Obj = Record<string, unknown>;

function largestArray(o: unknown, depth = 0): { holder: Obj | unknown[]; key: string | number; len: number; size: number } | null {
  if (depth > 4 || !o || typeof o !== 'object') return null;
  let best: ReturnType<typeof largestArray> = null;
  for (const [k, v] of Object.entries(o as Obj)) {
    if (Array.isArray(v) && v.length > 1) {
      const size = bytes(v);
      if (!best || size > best.size) best = { holder: o as Obj, key: k, len: v.length, size };
    }
    const inner = largestArray(v, depth + 1);
    if (inner && (!best || inner.size > best.size)) best = inner;
  }
  return best;
}

function longestString(o: unknown, depth = 0): { holder: Obj; key: string; len: number } | null {
  if (depth > 5 || !o || typeof o !== 'object') return null;
  let best: ReturnType<typeof longestString> = null;
  for (const [k, v] of Object.entries(o as Obj)) {
    const c = typeof v === 'string' ? { holder: o as Obj, key: k, len: v.length } : longestString(v, depth + 1);
    if (c && (!best || c.len > best.len)) best = c;
  }
  return best;
}

/** Shorten an answer over ANSWER_BYTES: halve its largest lists, then its longest texts; mark it truncated. */
export function bounded(out: unknown): unknown {
  if (!out || typeof out !== 'object' || bytes(out) <= ANSWER_BYTES) return out;
  const o = out as Obj;
  for (let i = 0; i < 40 && bytes(o) > ANSWER_BYTES; i++) {
    const a = largestArray(o);
    if (a && a.size > ANSWER_BYTES / 4) {
      const arr = (a.holder as Obj)[a.key as string] as unknown[];
      arr.length = Math.ceil(arr.length / 2);
      continue;
    }
    const s = longestString(o);
    if (!s || s.len < 200) break;
    s.holder[s.key] = (s.holder[s.key] as string).slice(0, Math.floor(s.len / 2)) + '…';
  }
  o.truncated = true;
  o.truncated_note = 'This answer was shortened to stay under 50 KB. Ask for less (a smaller limit, one article, a range) to see the rest.';
  return o;
}
