// The persistence of job records, behind one small async interface: `repo-lmdb.ts` (embedded, one node) and
// `repo-pg.ts` (shared mode, PostgreSQL). Only storage lives here: the states, progress, TTL, tombstones, sealing
// and authorization rules are the engine's (engine.ts), so the two modes cannot drift.
import type { JobRecord } from './record.js';

/** What the sweeper does with one due record: keep it as a tombstone until sweepAt, or forget it. */
export type SweepAction = { tombstone: JobRecord; sweepAt: number } | 'forget';

export interface JobRepo {
  /** Store a new record (and its access-key and owner indexes). */
  insert(job: JobRecord): Promise<void>;
  /** The stored record (a copy the caller may change), or undefined. */
  get(id: string): Promise<JobRecord | undefined>;
  getByAccessKeyHash(hash: string): Promise<JobRecord | undefined>;
  /**
   * Change one record atomically, also against other nodes: fn sees the current record (locked until the change
   * is stored) and returns the record to store, or undefined to leave it as it is. Returns the record as it stands
   * afterwards and whether fn changed it.
   */
  mutate(id: string, fn: (job: JobRecord) => JobRecord | undefined): Promise<{ job?: JobRecord; changed: boolean }>;
  /** Records of one owner, newest first (createdAt, then id, descending), strictly after `after` when given. */
  pageByOwner(owner: string, after: { createdAt: number; id: string } | undefined, limit: number): Promise<JobRecord[]>;
  /** Count of records in state processing, by family. */
  processingByFamily(): Promise<Record<string, number>>;
  /** Ids of records in state processing whose last update is older than `updatedBefore` (all when omitted). */
  processingIds(updatedBefore?: number): Promise<string[]>;
  /**
   * Claim up to `limit` records due for the sweeper (finished with expiresAt, or tombstoned with their forget time,
   * at or before `now`) so that no other node processes them at the same time, apply `step`'s decision to each,
   * and return how many were claimed.
   */
  sweepDue(now: number, limit: number, step: (job: JobRecord) => Promise<SweepAction>): Promise<number>;
}
