// Job records in the embedded LMDB store (one node): the record, and indexes by access key, by owner, of the
// jobs still processing and of the sweeper's due times. Single writer per process, so a transaction is the lock.
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { JobRecord } from './record.js';
import type { JobRepo, SweepAction } from './repo.js';
import { familyOfId } from './families.js';

export class LmdbJobRepo implements JobRepo {
  private readonly jobs: Database<JobRecord, string>;
  private readonly byKey: Database<string, string>;
  private readonly byOwner: Database<null, [string, number, string]>;
  private readonly active: Database<null, string>;
  private readonly expiry: Database<null, [number, string]>;

  constructor(private readonly store: Store) {
    this.jobs = store.db<JobRecord, string>('jobs', { cache: true });
    this.byKey = store.db<string, string>('job-access-keys');
    this.byOwner = store.db<null, [string, number, string]>('jobs-by-owner');
    this.active = store.db<null, string>('jobs-active');
    this.expiry = store.db<null, [number, string]>('jobs-expiry');
  }

  async insert(job: JobRecord): Promise<void> {
    await this.store.transaction(() => {
      if (this.jobs.doesExist(job.id)) throw new Error(`job ${job.id} exists already`);
      this.jobs.put(job.id, job);
      this.byKey.put(job.accessKeyHash, job.id);
      if (job.owner) this.byOwner.put([job.owner, job.createdAt, job.id], null);
      if (job.status === 'processing') this.active.put(job.id, null);
    });
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return copy(this.jobs.get(id));
  }

  async getByAccessKeyHash(hash: string): Promise<JobRecord | undefined> {
    const id = this.byKey.get(hash);
    return id ? copy(this.jobs.get(id)) : undefined;
  }

  async mutate(id: string, fn: (job: JobRecord) => JobRecord | undefined): Promise<{ job?: JobRecord; changed: boolean }> {
    return this.store.transaction(() => {
      const cur = this.jobs.get(id);
      if (!cur) return { changed: false };
      const next = fn(copy(cur)!);
      if (!next) {
        // a finished job left in the active set (a crash between two writes of an older version): drop it
        if (cur.status !== 'processing' && this.active.doesExist(id)) this.active.remove(id);
        return { job: copy(cur), changed: false };
      }
      this.jobs.put(id, next);
      if (next.status !== 'processing') this.active.remove(id);
      if (next.expiresAt !== cur.expiresAt) {
        if (cur.expiresAt !== undefined) this.expiry.remove([cur.expiresAt, id]);
        if (next.expiresAt !== undefined) this.expiry.put([next.expiresAt, id], null);
      }
      return { job: copy(next), changed: true };
    });
  }

  async pageByOwner(owner: string, after: { createdAt: number; id: string } | undefined, limit: number): Promise<JobRecord[]> {
    const start: [string, number, string] = after ? [owner, after.createdAt, after.id] : [owner, Number.MAX_SAFE_INTEGER, '\uffff'];
    const out: JobRecord[] = [];
    for (const { key } of this.byOwner.getRange({ start, end: [owner, -1, ''], reverse: true, exclusiveStart: Boolean(after) } as never)) {
      const k = key as [string, number, string];
      if (k[0] !== owner) break;
      const j = copy(this.jobs.get(k[2]));
      if (j) out.push(j);
      if (out.length === limit) break;
    }
    return out;
  }

  async processingByFamily(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const id of this.active.getKeys()) {
      const f = familyOfId(id as string);
      if (f) out[f] = (out[f] ?? 0) + 1;
    }
    return out;
  }

  async processingIds(updatedBefore?: number): Promise<string[]> {
    const ids = [...this.active.getKeys()] as string[];
    if (updatedBefore === undefined) return ids;
    return ids.filter((id) => (this.jobs.get(id)?.updatedAt ?? 0) < updatedBefore);
  }

  async sweepDue(now: number, limit: number, step: (job: JobRecord) => Promise<SweepAction>): Promise<number> {
    const due: Array<[number, string]> = [];
    for (const key of this.expiry.getKeys({ end: [now, '\uffff'] })) {
      due.push(key as [number, string]);
      if (due.length === limit) break;
    }
    for (const [at, id] of due) {
      const j = copy(this.jobs.get(id));
      if (!j) {
        await this.expiry.remove([at, id]);
        continue;
      }
      const a = await step(j);
      await this.store.transaction(() => {
        this.expiry.remove([at, id]);
        if (a === 'forget') {
          this.jobs.remove(id);
          this.byKey.remove(j.accessKeyHash);
          if (j.owner) this.byOwner.remove([j.owner, j.createdAt, id]);
        } else {
          this.jobs.put(id, a.tombstone);
          this.expiry.put([a.sweepAt, id], null);
        }
      });
    }
    return due.length;
  }
}

/** A copy the caller may change (the LMDB cache hands out shared objects). */
function copy(j: JobRecord | undefined): JobRecord | undefined {
  return j && { ...j, meta: { ...j.meta } };
}
