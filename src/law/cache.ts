// A least-recently-used cache bounded by an estimate of the bytes it holds (and by entries): the law threads' caches
// (posting lists, article titles, tables of contents, search results) each get a byte budget, so a server answering
// many distinct queries keeps a fixed amount of heap for them instead of a count of entries of any size.

export class ByteCache<K, V> {
  /** entries in the order of use, least recent first; at: the count of appends when it was last appended */
  private readonly map = new Map<K, { v: V; n: number; at: number }>();
  private held = 0;
  /** entries appended to the order so far (set, and get moving an entry to the end) */
  private appended = 0;

  constructor(readonly maxBytes: number, readonly maxEntries = Number.MAX_SAFE_INTEGER) {}

  /**
   * The value under k, now the most recently used. An entry appended fewer than a quarter of the entries ago is
   * still among the last quarter and stays in its place (speed23: the delete and append on every hit were half the
   * cost of a hit, ~100 hits a query on the title and article-text caches); the order is otherwise least recently
   * used first, exactly.
   */
  get(k: K): V | undefined {
    const e = this.map.get(k);
    if (!e) return undefined;
    if (this.appended - e.at > this.map.size >> 2) {
      this.map.delete(k);
      this.map.set(k, e);
      e.at = ++this.appended;
    }
    return e.v;
  }

  /** the value under k, its place in the order of use unchanged */
  peek(k: K): V | undefined {
    return this.map.get(k)?.v;
  }

  /** keep v under k, counted as n bytes; the least recently used entries go until it fits (an entry larger than the
   * whole budget is not kept) */
  set(k: K, v: V, n: number): void {
    const old = this.map.get(k);
    if (old) { this.map.delete(k); this.held -= old.n; }
    if (n > this.maxBytes) return;
    while (this.map.size && (this.held + n > this.maxBytes || this.map.size >= this.maxEntries)) {
      const [ok, oe] = this.map.entries().next().value!;
      this.map.delete(ok);
      this.held -= oe.n;
    }
    this.map.set(k, { v, n, at: ++this.appended });
    this.held += n;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** the estimated bytes held */
  get bytes(): number {
    return this.held;
  }
}

/** an estimate of the heap a string takes (V8 keeps Hangul as two bytes a character; header included) */
export const stringBytes = (s: string | null | undefined): number => (s ? 16 + 2 * s.length : 0);
