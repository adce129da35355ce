// The job engine: records in LMDB, access keys, states, progress, TTL with tombstones, crash recovery.
import type { Database } from 'lmdb';
import type { Store } from '../store/env.js';
import type { BlobStore } from '../store/blobs.js';
import type { Clock } from '../clock.js';
import type { Principal } from '../domain/principal.js';
import { ApiError, isApiError } from '../domain/errors.js';
import { FAMILIES, familyOfId, type Family } from './families.js';
import { newAccessKey, newJobId, sameHash, sha256 } from './ids.js';
import { Sealer } from './sealed-keys.js';
import { inJobScope } from '../pool/scope.js';

const ANSWER_CACHE_CHARS = 64 * 1024 * 1024;
/** families whose result images are ID cards (personal data): their blobs are stored sealed too */
const SEALED_BLOB_FAMILIES: ReadonlySet<Family> = new Set<Family>(['ekyc_enhance', 'ekyc_pipeline']);

export type JobStatus = 'processing' | 'completed' | 'failed';

export interface JobRecord {
  id: string;
  family: Family;
  owner?: string; // API key id
  accessKeyHash: string;
  /** the access key sealed with the installation key, to rebuild result URLs (see sealed-keys.ts) */
  sealedAccessKey?: string;
  status: JobStatus;
  /** 0..1 */
  progress: number;
  createdAt: number;
  updatedAt: number;
  completedAt?: number;
  ttlMs: number;
  /** set when the job finishes: completedAt + ttlMs */
  expiresAt?: number;
  /** expired: blobs deleted, result dropped, kept to answer 410 */
  tombstone?: boolean;
  estimatedCost?: number;
  actualCost?: number;
  /** family data set at creation (no personal data, no image bytes) */
  meta: Record<string, unknown>;
  /** JSON result of a completed job (as read: stored sealed, see sealedResult) */
  result?: Record<string, unknown>;
  /** the result as stored: sealed with the installation key (it may hold personal data), dropped at expiry */
  sealedResult?: Uint8Array;
  /** blob ids by name (e.g. { image: 'txt2img_…/image' }) */
  blobs?: Record<string, string>;
  /** the blobs are sealed with the installation key (ID card images) */
  sealedBlobs?: boolean;
  /** field: the request field a refusal names (as in the error shape of a direct answer) */
  error?: { code: string; message: string; field?: string };
  tenant?: string;
}

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

export class JobEngine {
  readonly jobs: Database<JobRecord, string>;
  private readonly byKey: Database<string, string>;
  private readonly byOwner: Database<null, [string, number, string]>;
  private readonly active: Database<null, string>;
  private readonly expiry: Database<null, [number, string]>;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly listeners = new Set<JobListener>();
  private sweepTimer?: NodeJS.Timeout;
  /** the installation's sealer of data at rest (also used by the callback outbox) */
  readonly sealer: Sealer;
  /** serialised answers of completed jobs (immutable until expiry, which read() checks first) */
  private readonly answers = new Map<string, string>();
  private answerBytes = 0;

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly tombstoneMs = 7 * 86400_000,
  ) {
    this.jobs = store.db<JobRecord, string>('jobs', { cache: true });
    this.byKey = store.db<string, string>('job-access-keys');
    this.byOwner = store.db<null, [string, number, string]>('jobs-by-owner');
    this.active = store.db<null, string>('jobs-active');
    this.expiry = store.db<null, [number, string]>('jobs-expiry');
    this.sealer = new Sealer(store);
  }

  /**
   * The JSON text of a completed job's answer, built once and kept (bounded): a completed job does not change
   * until it expires, and read() answers 410 before this is reached. Polls of finished jobs then skip the work.
   */
  completedJson(job: JobRecord, kind: string, build: () => unknown): string {
    if (job.status !== 'completed') return JSON.stringify(build());
    const k = `${kind}\u0000${job.id}`;
    let s = this.answers.get(k);
    if (s === undefined) {
      s = JSON.stringify(build());
      // at most 64 MB of answers (an answer may carry a whole image), oldest dropped first
      if (s.length > ANSWER_CACHE_CHARS / 4) return s;
      while (this.answerBytes + s.length > ANSWER_CACHE_CHARS && this.answers.size > 0) {
        const [oldest, text] = this.answers.entries().next().value!;
        this.answers.delete(oldest);
        this.answerBytes -= text.length;
      }
      this.answers.set(k, s);
      this.answerBytes += s.length;
    }
    return s;
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
    await this.store.transaction(() => {
      this.jobs.put(job.id, job);
      this.byKey.put(job.accessKeyHash, job.id);
      if (job.owner) this.byOwner.put([job.owner, now, job.id], null);
      this.active.put(job.id, null);
    });
    return { job, accessKey };
  }

  get(id: string): JobRecord | undefined {
    return this.open(this.jobs.get(id));
  }

  /** A stored record as callers see it: the result unsealed, on a copy (the stored one stays sealed). */
  private open(j: JobRecord | undefined): JobRecord | undefined {
    if (!j || j.sealedResult === undefined) return j;
    const { sealedResult, ...rest } = j;
    return { ...rest, result: this.sealer.unsealValue<Record<string, unknown>>(sealedResult) ?? {} };
  }

  /** The job of this family by access key (for `/image?key=` endpoints). */
  findByAccessKey(accessKey: string): JobRecord | undefined {
    const id = this.byKey.get(sha256(accessKey));
    return id ? this.get(id) : undefined;
  }

  isExpired(job: JobRecord): boolean {
    return job.tombstone === true || (job.expiresAt !== undefined && job.expiresAt <= this.clock.now());
  }

  /**
   * Read a job for a request: checks family, caller (owner key, admin, or the job's access key), expiry.
   * Throws JOB_NOT_FOUND (unknown, other family, other owner) or IMAGE_EXPIRED.
   */
  read(principal: Principal, id: string, family: Family | Family[], opts: { allowExpired?: boolean } = {}): JobRecord {
    const families = Array.isArray(family) ? family : [family];
    const job = this.get(id);
    if (!job || !families.includes(job.family) || familyOfId(id) !== job.family) {
      throw new ApiError('JOB_NOT_FOUND', `No ${families.join(' or ')} job with id ${id}`);
    }
    this.authorize(principal, job);
    if (!opts.allowExpired && this.isExpired(job)) {
      throw new ApiError('IMAGE_EXPIRED', `The result of job ${id} expired at ${new Date(job.expiresAt ?? 0).toISOString()}`);
    }
    return job;
  }

  /** Read a job by its access key given as a query parameter. */
  readByAccessKey(accessKey: string | undefined, family: Family | Family[], param: string): JobRecord {
    const families = Array.isArray(family) ? family : [family];
    if (!accessKey) throw new ApiError('INVALID_API_KEY', `The ${param} query parameter (the job's access key) is required`, { field: param });
    const job = this.findByAccessKey(accessKey);
    if (!job) throw new ApiError('INVALID_API_KEY', `The ${param} query parameter is not a valid access key`, { field: param });
    if (!families.includes(job.family)) throw new ApiError('JOB_NOT_FOUND', `No ${families.join(' or ')} job for this access key`);
    if (this.isExpired(job)) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} expired`);
    return job;
  }

  authorize(principal: Principal, job: JobRecord): void {
    const p = principal;
    if (p.kind === 'admin') return;
    if (p.kind === 'key') {
      if (job.owner === undefined || job.owner === p.keyId) return;
      throw new ApiError('JOB_NOT_FOUND', `No job with id ${job.id} for this key`);
    }
    if (p.kind === 'token' && p.token && sameHash(sha256(p.token), job.accessKeyHash)) return;
    throw new ApiError('INVALID_API_KEY', 'An API key or this job\'s access key is required');
  }

  async progress(id: string, progress: number, meta?: Record<string, unknown>): Promise<void> {
    await this.update(id, (j) => {
      if (j.status !== 'processing') return false;
      j.progress = Math.max(j.progress, Math.min(1, progress));
      if (meta) Object.assign(j.meta, meta);
      return true;
    });
  }

  async complete(id: string, c: Completion): Promise<JobRecord | undefined> {
    const now = this.clock.now();
    const blobIds: Record<string, string> = {};
    const job = this.get(id);
    if (!job || job.status !== 'processing') return job;
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
    return this.finish(id, (j) => {
      j.status = 'failed';
      j.error = field ? { code, message, field } : { code, message };
      j.actualCost = 0;
    });
  }

  private async finish(id: string, fn: (j: JobRecord) => void): Promise<JobRecord | undefined> {
    const now = this.clock.now();
    let out: JobRecord | undefined;
    await this.store.transaction(() => {
      const j = this.jobs.get(id);
      if (!j || j.status !== 'processing') {
        out = this.open(j);
        return;
      }
      fn(j);
      if (j.result !== undefined) {
        j.sealedResult = this.sealer.sealValue(j.result);
        delete j.result;
      }
      j.completedAt = now;
      j.updatedAt = now;
      j.expiresAt = now + j.ttlMs;
      this.jobs.put(id, j);
      this.active.remove(id);
      this.expiry.put([j.expiresAt, id], null);
      out = this.open(j);
    });
    if (out) for (const l of this.listeners) l(out);
    return out;
  }

  private async update(id: string, fn: (j: JobRecord) => boolean): Promise<void> {
    await this.store.transaction(() => {
      const j = this.jobs.get(id);
      if (!j || !fn(j)) return;
      j.updatedAt = this.clock.now();
      this.jobs.put(id, j);
    });
  }

  /**
   * Run the work of a job in the background: its result completes the job, a thrown error fails it
   * (ApiError keeps its code; anything else is INTERNAL_ERROR with a generic message). Tracked for shutdown.
   */
  run(id: string, work: () => Promise<Completion>): Promise<void> {
    const p = (async () => {
      try {
        // pool tasks of an accepted job wait for a worker; they are never refused as SERVICE_BUSY
        const c = await inJobScope(work);
        await this.complete(id, c);
      } catch (e) {
        const code = isApiError(e) ? e.code : 'INTERNAL_ERROR';
        const message = isApiError(e) ? e.message : `Processing failed: ${(e as Error)?.message ?? String(e)}`;
        await this.fail(id, code, message, isApiError(e) ? e.field : undefined);
      }
    })();
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
    return p;
  }

  /** Jobs in state processing, by family (the active set is small: only unfinished jobs). */
  processingByFamily(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.active.getKeys()) {
      const f = familyOfId(id as string);
      if (f) out[f] = (out[f] ?? 0) + 1;
    }
    return out;
  }

  onFinished(l: JobListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** Blob bytes of a completed job (throws JOB_FAILED / IMAGE_EXPIRED / NOT_FOUND as fits). */
  blob(job: JobRecord, name = 'image'): { bytes: Buffer; contentType: string } {
    if (job.status === 'failed') throw new ApiError('JOB_FAILED', `Job ${job.id} failed: ${job.error?.message ?? 'unknown reason'}`);
    if (job.status !== 'completed') throw new ApiError('CONFLICT', `Job ${job.id} is still processing; poll its status and fetch the result when it is completed`);
    if (this.isExpired(job)) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} expired`);
    const blobId = job.blobs?.[name];
    const bytes = blobId ? this.blobs.get(blobId) : undefined;
    const meta = blobId ? this.blobs.getMeta(blobId) : undefined;
    const plain = bytes && job.sealedBlobs ? this.sealer.unsealBytes(bytes) : bytes;
    if (!plain || !meta) throw new ApiError('IMAGE_EXPIRED', `The result of job ${job.id} is no longer stored`);
    return { bytes: plain, contentType: meta.contentType };
  }

  /** Jobs of one owner, newest first, with an opaque cursor. */
  list(owner: string, opts: { family?: Family; status?: JobStatus | 'expired'; limit: number; cursor?: string }): { jobs: JobRecord[]; nextCursor?: string } {
    const out: JobRecord[] = [];
    let start: [string, number, string] = [owner, Number.MAX_SAFE_INTEGER, '\uffff'];
    if (opts.cursor) {
      const [t, id] = Buffer.from(opts.cursor, 'base64url').toString().split('|');
      if (!t || !id || !/^\d+$/.test(t)) throw new ApiError('INVALID_REQUEST', 'Expected a cursor returned by this endpoint for cursor', { field: 'cursor' });
      start = [owner, Number(t), id];
    }
    let nextCursor: string | undefined;
    for (const { key } of this.byOwner.getRange({ start, end: [owner, -1, ''], reverse: true, exclusiveStart: Boolean(opts.cursor) } as never)) {
      const k = key as [string, number, string];
      if (k[0] !== owner) break;
      const j = this.get(k[2]);
      if (!j) continue;
      if (opts.family && j.family !== opts.family) continue;
      const st = this.isExpired(j) ? 'expired' : j.status;
      if (opts.status && st !== opts.status) continue;
      if (out.length === opts.limit) {
        const last = out[out.length - 1]!;
        nextCursor = Buffer.from(`${last.createdAt}|${last.id}`).toString('base64url');
        break;
      }
      out.push(j);
    }
    return { jobs: out, nextCursor };
  }

  /** On start-up: jobs left processing by a crash are failed with a reason (never left hanging). */
  async recoverInterrupted(): Promise<number> {
    const ids = [...this.active.getKeys()] as string[];
    for (const id of ids) {
      const j = this.jobs.get(id);
      if (j?.status === 'processing') await this.fail(id, 'INTERNAL_ERROR', 'The server stopped while this job was processing; please submit it again');
      else await this.active.remove(id);
    }
    return ids.length;
  }

  /** Delete expired blobs (tombstone the job) and forget tombstones older than tombstoneMs. */
  async sweep(): Promise<{ expired: number; forgotten: number }> {
    const now = this.clock.now();
    let expired = 0;
    let forgotten = 0;
    const due: Array<[number, string]> = [];
    for (const key of this.expiry.getKeys({ end: [now, '\uffff'] })) due.push(key as [number, string]);
    for (const [at, id] of due) {
      const j = this.jobs.get(id);
      if (!j) {
        await this.expiry.remove([at, id]);
        continue;
      }
      if (!j.tombstone) {
        for (const blobId of Object.values(j.blobs ?? {})) await this.blobs.delete(blobId);
        await this.store.transaction(() => {
          j.tombstone = true;
          delete j.result;
          delete j.sealedResult;
          this.jobs.put(id, j);
          this.expiry.remove([at, id]);
          this.expiry.put([at + this.tombstoneMs, id], null);
        });
        expired++;
      } else {
        await this.store.transaction(() => {
          this.jobs.remove(id);
          this.byKey.remove(j.accessKeyHash);
          if (j.owner) this.byOwner.remove([j.owner, j.createdAt, id]);
          this.expiry.remove([at, id]);
        });
        forgotten++;
      }
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
