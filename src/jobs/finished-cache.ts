// A per-node cache of finished job records (completed or failed, as stored). A finished record does not change
// until the sweeper tombstones it, which happens only after its expiresAt, and the engine checks expiresAt on every
// read: so a poll on any node answers from memory without a round trip to the database, and expiry still holds
// fleet-wide. An entry past its expiresAt is dropped at read (the database then says tombstone or gone).
import type { JobRecord } from './record.js';

export class FinishedCache {
  private readonly map = new Map<string, JobRecord>();
  constructor(private readonly max = 10_000, private readonly maxResultBytes = 256 * 1024) {}

  get(id: string, now: number): JobRecord | undefined {
    const j = this.map.get(id);
    if (!j) return undefined;
    if (j.expiresAt === undefined || j.expiresAt <= now) {
      this.map.delete(id);
      return undefined;
    }
    return j;
  }

  /** Keep a stored record if it is finished and not yet expired (large results are not kept). */
  offer(j: JobRecord | undefined, now: number): void {
    if (!j || j.status === 'processing' || j.tombstone || j.expiresAt === undefined || j.expiresAt <= now) return;
    if ((j.sealedResult?.byteLength ?? 0) > this.maxResultBytes) return;
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(j.id, j);
  }

  delete(id: string): void {
    this.map.delete(id);
  }
}
