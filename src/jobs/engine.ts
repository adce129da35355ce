// The job engine: access keys, states, progress, TTL with tombstones, crash recovery, sealing, authorization.
// Persistence is a JobRepo (repo-lmdb.ts embedded, repo-pg.ts shared), chosen at start-up (server/start.ts).
import { Store } from '../store/env.js';
import type { BlobStore } from '../store/blobs.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../domain/principal.js';
import { ApiError, isApiError } from '../domain/errors.js';
import { FAMILIES, familyOfId, type Family } from './families.js';
import { newAccessKey, newJobId, sameHash, sha256 } from './ids.js';
import { Sealer } from './sealed-keys.js';
import type { JobRecord, JobStatus } from './record.js';
import type { JobRepo } from './repo.js';
import { LmdbJobRepo } from './repo-lmdb.js';
import { FinishedCache } from './finished-cache.js';
import { inJobScope } from '../pool/scope.js';
import { isEngineBusy } from '../shared/errors.js';

/** families whose result images are ID cards (personal data): their blobs are stored sealed too */
const SEALED_BLOB_FAMILIES: ReadonlySet<Family> = new Set<Family>(['ekyc_enhance', 'ekyc_pipeline']);
/** records the sweeper handles per claim (one transaction in shared mode) */
const SWEEP_BATCH = 100;

export type { JobRecord, JobStatus } from './record.js';

export interface CreateJob {
  family: Family;
  owner?: string;
  ttlHours?: number;
  estimatedCost?: number;
  meta?: Record<string, unknown>;
  tenant?: string;
}

export interface Completion {
  result?: Record<string, unknown>;
  blobs?: Record<string, { bytes: Buffer | Uint8Array; contentType: string }>;
  actualCost?: number;
}

export type JobListener = (job: JobRecord) => void;

/** Where an engine keeps its records: the embedded store (repository and sealer opened on it), or given parts. */
export type JobEngineSource = Store | { repo: JobRepo; sealer: Sealer };

export class JobEngine {
  /** the persistence of job records (LMDB or PostgreSQL); only the engine should write through it */
  readonly repo: JobRepo;
  private readonly inflight = new Set<Promise<unknown>>();
  /** job id → runs of it in progress in this process (the queues' reconcilers leave these alone) */
  private readonly running = new Map<string, number>();
  private readonly listeners = new Set<JobListener>();
  private readonly finished = new FinishedCache();
  private sweepTimer?: NodeJS.Timeout;
  /** the installation's sealer of data at rest (also used by the callback outbox) */
  readonly sealer: Sealer;

  constructor(
    source: JobEngineSource,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly tombstoneMs = 7 * 86400_000,
  ) {
    if (source instanceof Store) {
      this.repo = new LmdbJobRepo(source);
      this.sealer = new Sealer(source);
    } else {
      this.repo = source.repo;
      this.sealer = source.sealer;
    }
  }

  /** The clear access key of a job, for result URLs that must carry it (`?key=`). */
  accessKeyOf(job: JobRecord): string | undefined {
    return this.sealer.unseal(job.sealedAccessKey);
  }

  /** Create a job in state processing; returns the record and the clear-text access key (shown once). */
  async create(req: CreateJob): Promise<{ job: JobRecord; accessKey: string }> {
    const now = this.clock.now();
    const accessKey = newAccessKey();
    const ttlHours = req.ttlHours ?? FAMILIES[req.family].defaultTtlHours;
    const job: JobRecord = {
      id: newJobId(req.family, now),
      family: req.family,
      owner: req.owner,
      accessKeyHash: sha256(accessKey),
      sealedAccessKey: this.sealer.seal(accessKey),
      status: 'processing',
      progress: 0,
      createdAt: now,
      updatedAt: now,
      ttlMs: Math.round(ttlHours * 3600_000),
      estimatedCost: req.estimatedCost,
      meta: req.meta ?? {},
      tenant: req.tenant,
    };
    await this.repo.insert(job);
    return { job, accessKey };
  }

  /**
   * A job as callers see it (result unsealed). Finished records come from this node's cache, opened once, until
   * they expire (a shallow copy: callers must not change the result or meta objects); records still processing
   * are read fresh from the repository on every call, so a state change made on any node is seen.
   */
  async get(id: string): Promise<JobRecord | undefined> {
    const now = this.clock.now();
    const hit = this.finished.get(id, now);
    if (hit) return { ...hit };
    const stored = await this.repo.get(id);
    const j = this.open(stored);
    if (!j || j.status === 'processing') return j;
    this.finished.offer(j, stored?.sealedResult?.byteLength ?? 0, now);
    return { ...j };
  }

  /**
   * The finished record of `id` from this node's cache, synchronously, when the caller may read it and it has not
   * expired; undefined otherwise (not cached, still processing, another family, not the caller's, expired): then
   * read() answers, with its error. The record is the cache's own, not a copy — read it, never change it. This is
   * what lets a poll of a finished job be answered in the turn it arrived, with no promise (api/answer-cache.ts).
   */
  peekFinished(principal: Principal, id: string, family: Family): JobRecord | undefined {
    const fam = familyOfId(id);
    if (fam !== family) return undefined;
    const job = this.finished.get(id, this.clock.now());
    if (!job || job.family !== fam || this.isExpired(job) || !this.mayRead(principal, job)) return undefined;
    return job;
  }

  /** A stored record as callers see it: the result unsealed, on a copy (the stored one stays sealed). */
  private open(j: JobRecord | undefined): JobRecord | undefined {
    if (!j || j.sealedResult === undefined) return j;
    const { sealedResult, ...rest } = j;
    return { ...rest, result: this.sealer.unsealValue<Record<string, unknown>>(sealedResult) ?? {} };
  }

  /** The job of this family by access key (for `/image?key=` endpoints). */
  async findByAccessKey(accessKey: string): Promise<JobRecord | undefined> {
    return this.open(await this.repo.getByAccessKeyHash(sha256(accessKey)));
  }

  isExpired(job: JobRecord): boolean {
    return job.tombstone === true || (job.expiresAt !== undefined && job.expiresAt <= this.clock.now());
  }

  /**
   * Read a job for a request: checks family, caller (owner key, admin, or the job's access key), expiry.
   * Throws JOB_NOT_FOUND (unknown, other family, other owner) or IMAGE_EXPIRED.
   */
  async read(principal: Principal, id: string, family: Family | Family[], opts: { allowExpired?: boolean } = {}): Promise<JobRecord> {
    const fam = familyOfId(id);
    const wanted = fam !== undefined && (Array.isArray(family) ? family.includes(fam) : family === fam);
    const job = wanted ? await this.get(id) : undefined;
    if (!job || job.family !== fam) {
      throw new ApiError('JOB_NOT_FOUND', `No ${[family].flat().join(' or ')} job with id ${id}`);
    }
    this.authorize(principal, job);
    if (!opts.allowExpired && this.isExpired(job)) {
      throw new ApiError('IMAGE_EXPIRED', `The result of job ${id} expired at ${new Date(job.expiresAt ?? 0).toISOString()}`);
    }
    return job;
  }

  /** Read a job by its access key given as a query parameter. */
  async readByAccessKey(accessKey: string | undefined, family: Family | Family[], param: string): Promise<JobRecord> {
    const families = Array.isArray(family) ? family : [family];
    if (!accessKey) throw new ApiError('INVALID_API_KEY', `The ${param} query parameter (the job's access key) is required`, { field: param });
    const job = await this.findByAccessKey(accessKey);
    if (!job) throw new ApiError('INVALID_API_KEY', `The ${param} query parameter is not a valid access key`, { field: param });
    if (!families.includes(job.family)) throw new ApiError('JOB_NOT_FOUND', `No ${families.join(' or ')} job for this access key`);
    if (this.isExpired(job)) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} expired`);
    return job;
  }

  authorize(principal: Principal, job: JobRecord): void {
    if (this.mayRead(principal, job)) return;
    if (principal.kind === 'key') throw new ApiError('JOB_NOT_FOUND', `No job with id ${job.id} for this key`);
    throw new ApiError('INVALID_API_KEY', 'An API key or this job\'s access key is required');
  }

  /** the admin, the owner key (or any key for an ownerless job), or the job's access key */
  private mayRead(p: Principal, job: JobRecord): boolean {
    if (p.kind === 'admin') return true;
    if (p.kind === 'key') return job.owner === undefined || job.owner === p.keyId;
    // the token's digest is computed once per request (server/auth.ts) and compared in constant time
    return p.kind === 'token' && !!p.token && sameHash(p.tokenHash ?? sha256(p.token), job.accessKeyHash);
  }

  /** Progress of a processing job: monotonic (never goes back), ignored once the job finished. */
  async progress(id: string, progress: number, meta?: Record<string, unknown>): Promise<void> {
    await this.repo.mutate(id, (j) => {
      if (j.status !== 'processing') return undefined;
      const p = Math.max(j.progress, Math.min(1, progress));
      if (p === j.progress && !meta) return undefined;
      j.progress = p;
      if (meta) Object.assign(j.meta, meta);
      j.updatedAt = this.clock.now();
      return j;
    });
  }

  async complete(id: string, c: Completion): Promise<JobRecord | undefined> {
    const now = this.clock.now();
    const blobIds: Record<string, string> = {};
    const job = await this.repo.get(id);
    if (!job || job.status !== 'processing') return this.open(job);
    const expiresAt = now + job.ttlMs;
    const seal = SEALED_BLOB_FAMILIES.has(job.family);
    for (const [name, b] of Object.entries(c.blobs ?? {})) {
      const blobId = `${id}/${name}`;
      await this.blobs.put(blobId, seal ? this.sealer.sealBytes(b.bytes) : b.bytes, { contentType: b.contentType, createdAt: now, expiresAt, jobId: id });
      blobIds[name] = blobId;
    }
    return this.finish(id, (j) => {
      j.status = 'completed';
      j.progress = 1;
      j.result = c.result ?? {};
      j.blobs = blobIds;
      if (seal) j.sealedBlobs = true;
      j.actualCost = c.actualCost ?? j.estimatedCost;
    });
  }

  async fail(id: string, code: string, message: string, field?: string): Promise<JobRecord | undefined> {
    return (await this.finishing(id, failWith(code, message, field))).out;
  }

  /** Fail a job still processing; true when this call failed it (false: it had ended, or is unknown). */
  async failIfProcessing(id: string, code: string, message: string): Promise<boolean> {
    return (await this.finishing(id, failWith(code, message))).changed;
  }

  /** Whether a run of this job is in progress in this process (engine.run). */
  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** The one way out of processing: under the record's lock, so that of two nodes racing only the first wins. */
  private async finish(id: string, fn: (j: JobRecord) => void): Promise<JobRecord | undefined> {
    return (await this.finishing(id, fn)).out;
  }

  private async finishing(id: string, fn: (j: JobRecord) => void): Promise<{ out: JobRecord | undefined; changed: boolean }> {
    const now = this.clock.now();
    const { job, changed } = await this.repo.mutate(id, (j) => {
      if (j.status !== 'processing') return undefined;
      fn(j);
      if (j.result !== undefined) {
        j.sealedResult = this.sealer.sealValue(j.result);
        delete j.result;
      }
      j.completedAt = now;
      j.updatedAt = now;
      j.expiresAt = now + j.ttlMs;
      return j;
    });
    const out = this.open(job);
    // the winner's record (ours or another node's) is final: the next poll on this node needs no read
    this.finished.offer(out, job?.sealedResult?.byteLength ?? 0, now);
    if (changed && out) for (const l of this.listeners) l({ ...out });
    return { out: out && { ...out }, changed };
  }

  /**
   * Run the work of a job in the background: its result completes the job, a thrown error fails it
   * (ApiError keeps its code; anything else is INTERNAL_ERROR with a generic message). Tracked for shutdown.
   * The returned promise rejects, and the job stays processing, when the storage engine (PostgreSQL, Redis) is
   * unreachable while the job finishes: that is no fault of the job, and the shared queue runs it again.
   */
  run(id: string, work: () => Promise<Completion>): Promise<void> {
    this.running.set(id, (this.running.get(id) ?? 0) + 1);
    const p = (async () => {
      try {
        // pool tasks of an accepted job wait for a worker; they are never refused as SERVICE_BUSY
        const c = await inJobScope(work);
        await this.complete(id, c);
      } catch (e) {
        if (isEngineBusy(e)) throw e;
        const code = isApiError(e) ? e.code : 'INTERNAL_ERROR';
        const message = isApiError(e) ? e.message : `Processing failed: ${(e as Error)?.message ?? String(e)}`;
        await this.fail(id, code, message, isApiError(e) ? e.field : undefined);
      } finally {
        const n = (this.running.get(id) ?? 1) - 1;
        if (n > 0) this.running.set(id, n);
        else this.running.delete(id);
      }
    })();
    // tracked for the drain without its outcome (the caller handles a rejection)
    const tracked = p.catch(() => undefined);
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
    return p;
  }

  /** Jobs in state processing, by family. */
  processingByFamily(): Promise<Record<string, number>> {
    return this.repo.processingByFamily();
  }

  onFinished(l: JobListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Blob bytes of a completed job (throws JOB_FAILED / IMAGE_EXPIRED / NOT_FOUND as fits). */
  async blob(job: JobRecord, name = 'image'): Promise<{ bytes: Buffer; contentType: string }> {
    if (job.status === 'failed') throw new ApiError('JOB_FAILED', `Job ${job.id} failed: ${job.error?.message ?? 'unknown reason'}`);
    if (job.status !== 'completed') throw new ApiError('CONFLICT', `Job ${job.id} is still processing; poll its status and fetch the result when it is completed`);
    if (this.isExpired(job)) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} expired`);
    const blobId = job.blobs?.[name];
    const b = blobId ? await this.blobs.read(blobId) : undefined;
    const plain = b && job.sealedBlobs ? this.sealer.unsealBytes(b.bytes) : b?.bytes;
    if (!plain || !b) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} is no longer stored`);
    return { bytes: plain, contentType: b.meta.contentType };
  }

  /** Jobs of one owner, newest first, with an opaque cursor. */
  async list(owner: string, opts: { family?: Family; status?: JobStatus | 'expired'; limit: number; cursor?: string }): Promise<{ jobs: JobRecord[]; nextCursor?: string }> {
    const out: JobRecord[] = [];
    let after: { createdAt: number; id: string } | undefined;
    if (opts.cursor) {
      const [t, id] = Buffer.from(opts.cursor, 'base64url').toString().split('|');
      if (!t || !id || !/^\d+$/.test(t)) throw new ApiError('INVALID_REQUEST', 'Expected a cursor returned by this endpoint for cursor', { field: 'cursor' });
      after = { createdAt: Number(t), id };
    }
    const batch = Math.min(500, Math.max(50, opts.limit + 1));
    for (;;) {
      const page = await this.repo.pageByOwner(owner, after, batch);
      for (const stored of page) {
        const j = this.open(stored)!;
        if (opts.family && j.family !== opts.family) continue;
        const st = this.isExpired(j) ? 'expired' : j.status;
        if (opts.status && st !== opts.status) continue;
        if (out.length === opts.limit) {
          const last = out[out.length - 1]!;
          return { jobs: out, nextCursor: Buffer.from(`${last.createdAt}|${last.id}`).toString('base64url') };
        }
        out.push(j);
      }
      if (page.length < batch) return { jobs: out };
      const last = page[page.length - 1]!;
      after = { createdAt: last.createdAt, id: last.id };
    }
  }

  /**
   * On start-up of a node that runs alone on its store (embedded mode): jobs left processing by a crash are failed
   * with a reason (never left hanging). In shared mode this is not called: other nodes may be running those jobs,
   * and a dead node's jobs are the queue's to take again (stalled-job recovery); see processingIds().
   */
  async recoverInterrupted(): Promise<number> {
    const ids = await this.repo.processingIds();
    for (const id of ids) await this.fail(id, 'INTERNAL_ERROR', 'The server stopped while this job was processing; please submit it again');
    return ids.length;
  }

  /** Ids of jobs still processing whose last change is older than `ms` (for a queue's recovery of a dead node's jobs). */
  processingIds(olderThanMs?: number): Promise<string[]> {
    return this.repo.processingIds(olderThanMs === undefined ? undefined : this.clock.now() - olderThanMs);
  }

  /**
   * Delete expired blobs (tombstone the job) and forget tombstones older than tombstoneMs. Safe on every node at
   * once: the repository claims each due record for one sweeper only.
   */
  async sweep(): Promise<{ expired: number; forgotten: number }> {
    const now = this.clock.now();
    let expired = 0;
    let forgotten = 0;
    for (;;) {
      const n = await this.repo.sweepDue(now, SWEEP_BATCH, async (j) => {
        this.finished.delete(j.id);
        if (j.tombstone) {
          forgotten++;
          return 'forget';
        }
        for (const blobId of Object.values(j.blobs ?? {})) await this.blobs.delete(blobId);
        j.tombstone = true;
        delete j.result;
        delete j.sealedResult;
        expired++;
        // forgotten at a later sweep, never in the same one
        return { tombstone: j, sweepAt: Math.max((j.expiresAt ?? now) + this.tombstoneMs, now + 1) };
      });
      if (n < SWEEP_BATCH) break;
    }
    await this.blobs.sweep(now);
    return { expired, forgotten };
  }

  startSweeper(intervalMs: number): void {
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), intervalMs);
    this.sweepTimer.unref();
  }

  /** Wait for in-flight background work (graceful shutdown). */
  async drain(timeoutMs = 30_000): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    const all = Promise.allSettled([...this.inflight]);
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }
}

function failWith(code: string, message: string, field?: string): (j: JobRecord) => void {
  return (j) => {
    j.status = 'failed';
    j.error = field ? { code, message, field } : { code, message };
    j.actualCost = 0;
  };
}
