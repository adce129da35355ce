// Persistence of the completion-callback outbox: the repository interface the delivery rules (callbacks.ts) sit
// on, and its embedded implementation in LMDB. The PostgreSQL one is callback-repo-pg.ts; ekyc-enhance.ts picks
// one at start by services.engines.mode. Repositories only store: states, backoff and give-up are decided above.
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { Sealer } from '../jobs/sealed-keys.js';

export type CallbackState = 'waiting' | 'pending' | 'delivered' | 'failed';

export interface CallbackRecord {
  /** webhook-id, the same on every attempt */
  id: string;
  jobId: string;
  url: string;
  /** the client's callback_meta as written before sealing existed (legacy LMDB records only) */
  meta?: unknown;
  /** callback_meta sealed with the installation key (it may hold personal data) */
  sealedMeta?: Uint8Array;
  /** event type prefix, e.g. ekyc.enhance */
  type: string;
  state: CallbackState;
  createdAt: number;
  /** set when armed: the exact bytes signed and sent on every attempt, sealed (unsealed only to send) */
  body?: string;
  armedAt?: number;
  /** no attempt after this */
  giveUpAt?: number;
  nextAt?: number;
  attempts: number;
  lastStatus?: number;
  lastError?: string;
  doneAt?: number;
  /** the node making an attempt now, and until when its claim holds */
  claimedBy?: string;
  leaseUntil?: number;
}

/** What arming writes (only onto a record still waiting). */
export interface Armed {
  body: string;
  armedAt: number;
  giveUpAt: number;
  nextAt: number;
}

/** The record after one attempt, as decided by the rules (written only while the attempt's claim holds). */
export interface Outcome {
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus?: number;
  lastError?: string;
  nextAt?: number;
  doneAt?: number;
  /** drop the body (once delivered or given up: it may carry OCR fields) */
  dropBody: boolean;
}

export interface CallbackRepository {
  /** the stored signing secret, if any */
  loadSecret(): Promise<string | undefined>;
  /** store `secret` unless one is stored already (first writer wins); returns the one stored */
  saveSecret(secret: string): Promise<string>;
  insert(rec: CallbackRecord): Promise<void>;
  get(id: string): Promise<CallbackRecord | undefined>;
  /** the latest callback registered for a job */
  forJob(jobId: string): Promise<CallbackRecord | undefined>;
  /** callbacks still waiting for their job, oldest first */
  waiting(limit: number): Promise<CallbackRecord[]>;
  /** waiting → pending with its frozen body; false when it was armed already (by another node or listener) */
  arm(id: string, armed: Armed): Promise<boolean>;
  /**
   * Claim up to `limit` pending callbacks due at `now` whose lease is free or ran out, for `node` until
   * `leaseUntil`. A callback is claimed by one node at a time.
   */
  claimDue(now: number, node: string, leaseUntil: number, limit: number): Promise<CallbackRecord[]>;
  /** record an attempt's outcome and free the claim; undefined when `node` no longer holds the claim */
  settle(id: string, node: string, outcome: Outcome): Promise<CallbackRecord | undefined>;
  /** free every claim held by `node` (a node restarting under the same name) */
  releaseClaims(node: string): Promise<number>;
  /** forget delivered and failed callbacks finished at or before `before` */
  purge(before: number): Promise<number>;
  /** records by state */
  counts(): Promise<Record<CallbackState, number>>;
}

export const emptyCounts = (): Record<CallbackState, number> => ({ waiting: 0, pending: 0, delivered: 0, failed: 0 });

/** The embedded outbox: records by id, a due index [nextAt, id], a waiting set, a done index [doneAt, id]. */
export class LmdbCallbackRepository implements CallbackRepository {
  private readonly db: Database<CallbackRecord, string>;
  private readonly due: Database<null, [number, string]>;
  private readonly byJob: Database<string, string>;
  private readonly waitingSet: Database<number, string>;
  private readonly done: Database<null, [number, string]>;
  private readonly meta: Database<string, string>;

  constructor(private readonly store: Store, private readonly sealer: Sealer) {
    this.db = store.db<CallbackRecord, string>('callbacks');
    this.due = store.db<null, [number, string]>('callbacks-due');
    this.byJob = store.db<string, string>('callbacks-by-job');
    this.waitingSet = store.db<number, string>('callbacks-waiting');
    this.done = store.db<null, [number, string]>('callbacks-done');
    this.meta = store.db<string, string>('callbacks-meta');
  }

  /** Index records written before the waiting set and the done index existed (one scan, at start). */
  async init(): Promise<void> {
    if (this.meta.get('indexed') === '2') return;
    await this.store.transaction(() => {
      for (const { value } of this.db.getRange()) {
        if (value.state === 'waiting') this.waitingSet.put(value.id, value.createdAt);
        if ((value.state === 'delivered' || value.state === 'failed') && value.doneAt !== undefined) this.done.put([value.doneAt, value.id], null);
      }
      this.meta.put('indexed', '2');
    });
  }

  async loadSecret(): Promise<string | undefined> {
    const stored = this.meta.get('secret');
    if (stored?.startsWith('whsec_')) {
      // a secret stored before sealing existed is sealed now
      await this.meta.put('secret', this.sealer.seal(stored));
      return stored;
    }
    return this.sealer.unseal(stored);
  }

  async saveSecret(secret: string): Promise<string> {
    const existing = await this.loadSecret();
    if (existing) return existing;
    await this.meta.put('secret', this.sealer.seal(secret));
    return secret;
  }

  async insert(rec: CallbackRecord): Promise<void> {
    await this.store.transaction(() => {
      this.db.put(rec.id, rec);
      this.byJob.put(rec.jobId, rec.id);
      if (rec.state === 'waiting') this.waitingSet.put(rec.id, rec.createdAt);
    });
  }

  async get(id: string): Promise<CallbackRecord | undefined> {
    return this.db.get(id);
  }

  async forJob(jobId: string): Promise<CallbackRecord | undefined> {
    const id = this.byJob.get(jobId);
    return id ? this.db.get(id) : undefined;
  }

  async waiting(limit: number): Promise<CallbackRecord[]> {
    const out: CallbackRecord[] = [];
    for (const { key } of this.waitingSet.getRange()) {
      const rec = this.db.get(key);
      if (rec?.state === 'waiting') out.push(rec);
      if (out.length >= limit) break;
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async arm(id: string, armed: Armed): Promise<boolean> {
    return this.store.transaction(() => {
      const rec = this.db.get(id);
      this.waitingSet.remove(id);
      if (!rec || rec.state !== 'waiting') return false;
      delete rec.sealedMeta; // now inside the sealed body
      delete rec.meta;
      this.db.put(id, { ...rec, ...armed, state: 'pending' });
      this.due.put([armed.nextAt, id], null);
      return true;
    });
  }

  async claimDue(now: number, node: string, leaseUntil: number, limit: number): Promise<CallbackRecord[]> {
    return this.store.transaction(() => {
      const out: CallbackRecord[] = [];
      for (const key of this.due.getKeys({ end: [now, '\uffff'] })) {
        if (out.length >= limit) break;
        const [at, id] = key as [number, string];
        const rec = this.db.get(id);
        if (!rec || rec.state !== 'pending' || rec.nextAt !== at) {
          // a stale entry (older records also kept their forget time here)
          this.due.remove(key as [number, string]);
          if (rec && (rec.state === 'delivered' || rec.state === 'failed')) this.done.put([rec.doneAt ?? at, id], null);
          continue;
        }
        if (rec.leaseUntil !== undefined && rec.leaseUntil > now) continue;
        const claimed = { ...rec, claimedBy: node, leaseUntil };
        this.db.put(id, claimed);
        out.push(claimed);
      }
      return out;
    });
  }

  async settle(id: string, node: string, o: Outcome): Promise<CallbackRecord | undefined> {
    return this.store.transaction(() => {
      const rec = this.db.get(id);
      if (!rec || rec.state !== 'pending' || rec.claimedBy !== node) return undefined;
      if (rec.nextAt !== undefined) this.due.remove([rec.nextAt, id]);
      const next: CallbackRecord = { ...rec, state: o.state, attempts: o.attempts, lastStatus: o.lastStatus, lastError: o.lastError, nextAt: o.nextAt, doneAt: o.doneAt };
      delete next.claimedBy;
      delete next.leaseUntil;
      if (o.dropBody) delete next.body;
      for (const k of ['lastStatus', 'lastError', 'nextAt', 'doneAt'] as const) if (next[k] === undefined) delete next[k];
      this.db.put(id, next);
      if (next.state === 'pending' && next.nextAt !== undefined) this.due.put([next.nextAt, id], null);
      if (next.state !== 'pending') this.done.put([next.doneAt ?? 0, id], null);
      return next;
    });
  }

  async releaseClaims(node: string): Promise<number> {
    return this.store.transaction(() => {
      let n = 0;
      for (const key of this.due.getKeys()) {
        const rec = this.db.get((key as [number, string])[1]);
        if (rec?.claimedBy !== node) continue;
        delete rec.claimedBy;
        delete rec.leaseUntil;
        this.db.put(rec.id, rec);
        n++;
      }
      return n;
    });
  }

  async purge(before: number): Promise<number> {
    return this.store.transaction(() => {
      let n = 0;
      for (const key of this.done.getKeys({ end: [before, '\uffff'] })) {
        const id = (key as [number, string])[1];
        this.done.remove(key as [number, string]);
        const rec = this.db.get(id);
        if (!rec || rec.state === 'waiting' || rec.state === 'pending') continue;
        this.db.remove(id);
        if (this.byJob.get(rec.jobId) === id) this.byJob.remove(rec.jobId);
        n++;
      }
      return n;
    });
  }

  async counts(): Promise<Record<CallbackState, number>> {
    const out = emptyCounts();
    for (const { value } of this.db.getRange()) out[value.state] = (out[value.state] ?? 0) + 1;
    return out;
  }
}
