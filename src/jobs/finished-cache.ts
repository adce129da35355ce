// A per-node cache of finished job records (completed or failed), kept opened (the result unsealed) so that a poll
// costs neither a round trip to the database nor a cipher. A finished record does not change until the sweeper
// tombstones it, which happens only after its expiresAt, and the engine checks expiresAt on every read: so a poll on
// any node answers from memory, and expiry still holds fleet-wide. An entry past its expiresAt is dropped at read
// (the database then says tombstone or gone). Records still processing are never kept: they are read fresh.
// The unsealed results live only in this process's memory, as the answers built from them do (api/answer-cache.ts);
// what is sealed is the data at rest.
import type { JobRecord } from './record.js';

export class FinishedCache {
  private readonly map = new Map<string, JobRecord>();
  constructor(private readonly max = 10_000, private readonly maxResultBytes = 256 * 1024) {}

  /** The cached record (shared: callers get a shallow copy from the engine), or undefined once it expired. */
  get(id: string, now: number): JobRecord | undefined {
    const j = this.map.get(id);
    if (!j) return undefined;
    if (j.expiresAt === undefined || j.expiresAt <= now) {
      this.map.delete(id);
      return undefined;
    }
    return j;
  }

  /**
   * Keep an opened record if it is finished and not yet expired; `storedBytes` is the size of its sealed result
   * as stored (large results are not kept).
   */
  offer(j: JobRecord | undefined, storedBytes: number, now: number): void {
    if (!j || j.status === 'processing' || j.tombstone || j.expiresAt === undefined || j.expiresAt <= now) return;
    if (storedBytes > this.maxResultBytes) return;
    if (this.map.size >= this.max && !this.map.has(j.id)) this.map.delete(this.map.keys().next().value!);
    this.map.set(j.id, j);
  }

  delete(id: string): void {
    this.map.delete(id);
  }

  get size(): number {
    return this.map.size;
  }
}
