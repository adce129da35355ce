// Completion callbacks of the e-KYC enhance and pipeline jobs, signed the Standard Webhooks way
// (https://www.standardwebhooks.com): headers webhook-id, webhook-timestamp, webhook-signature
// = "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
//
// Delivery is at-least-once and survives restarts and node deaths: the callback is recorded in the outbox when
// the job is created (state "waiting"), armed when the job finishes (state "pending", body frozen), and retried
// with backoff until it is delivered (2xx) or SEJONG_CALLBACK_RETRY_HOURS have passed. Each attempt is made by
// the one node that claimed the callback (a lease); a node that dies mid-attempt leaves the lease to run out and
// another node makes the attempt again. Every attempt carries the same webhook-id and the same body, so a
// receiver drops duplicates by webhook-id: after a crash (or a lease that ran out while the receiver was slow)
// it may see one callback twice, never two different bodies under one id.
//
// The rules live here once; the outbox itself is a CallbackRepository (LMDB embedded, PostgreSQL shared).
import type { CallbackPayload } from './callback-payload.js';
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { SafeFetcher } from './fetch.js';
import type { JobRecord } from '../jobs/engine.js';
import type { Sealer } from '../jobs/sealed-keys.js';
import { type CallbackRecord, type CallbackRepository, type CallbackState, type Outcome } from './callback-repo.js';

export type { CallbackRecord, CallbackState } from './callback-repo.js';

/** Delays before attempt 2, 3, … (ms); the last one repeats until the retry window closes. */
export const BACKOFF_MS = [5_000, 30_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000];

export function backoffMs(attempts: number): number {
  return BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)]!;
}

/** The HMAC key of a secret: "whsec_<base64>" decodes to bytes; any other text is used as UTF-8. */
export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/** The webhook-signature value for one attempt. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return 'v1,' + crypto.createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** Receiver side (also used by the tests): true when one of the space-separated v1 signatures matches. */
export function verify(secret: string, headers: Record<string, string | undefined>, body: string, nowSec?: number, toleranceSec = 300): boolean {
  const id = headers['webhook-id'], ts = headers['webhook-timestamp'], sigs = headers['webhook-signature'];
  if (!id || !ts || !sigs || !/^\d+$/.test(ts)) return false;
  if (nowSec !== undefined && Math.abs(nowSec - Number(ts)) > toleranceSec) return false;
  const expected = Buffer.from(sign(secret, id, Number(ts), body).slice(3), 'base64');
  return sigs.split(' ').some((s) => {
    const [v, b64] = s.split(',');
    if (v !== 'v1' || !b64) return false;
    const got = Buffer.from(b64, 'base64');
    return got.length === expected.length && crypto.timingSafeEqual(got, expected);
  });
}

export interface CallbackJobs {
  get(id: string): JobRecord | undefined | Promise<JobRecord | undefined>;
  onFinished(l: (job: JobRecord) => void): () => void;
  /** the installation's sealer of data at rest (bodies and callback_meta are sealed in the outbox) */
  readonly sealer: Sealer;
}

export interface CallbackDeps {
  repo: CallbackRepository;
  clock: Clock;
  fetcher: SafeFetcher;
  jobs: CallbackJobs;
  log: Logger;
  config: { webhookSecret: string; callbackRetryHours: number };
  /** this node's name in the fleet (claims carry it); one fixed name in embedded mode */
  node: string;
}

export interface CallbackOptions {
  /** how often due attempts are looked for (ms) */
  pollMs?: number;
  /** timeout of one attempt (ms) */
  timeoutMs?: number;
  /** finished records are forgotten after this (ms) */
  keepMs?: number;
  /** how long a claim holds before another node may take the callback (ms); well above timeoutMs */
  leaseMs?: number;
  /** callbacks attempted at once by this node */
  batch?: number;
}

/** A waiting callback whose job record cannot be found is sent as failed only after this (another node's job
 * may not be visible yet; past this it is gone: expired or deleted). */
export const JOB_GONE_AFTER_MS = 15 * 60_000;

/** The record after an attempt: delivered on 2xx; failed on 410 or once the window closed; else retried later. */
export function afterAttempt(rec: CallbackRecord, now: number, status: number | undefined, error: string | undefined, jitter = Math.random()): Outcome {
  const attempts = rec.attempts + 1;
  if (!error) return { state: 'delivered', attempts, lastStatus: status, doneAt: now, dropBody: true };
  // 410 Gone: the receiver asks us to stop (Standard Webhooks). Otherwise retry until the window closes, the last
  // attempt exactly at its end, so that a receiver down for almost the whole window still gets it.
  if (status === 410 || now >= (rec.giveUpAt ?? 0)) return { state: 'failed', attempts, lastStatus: status, lastError: error, doneAt: now, dropBody: true };
  const next = now + backoffMs(attempts) * (1 + jitter * 0.1);
  return { state: 'pending', attempts, lastStatus: status, lastError: error, nextAt: Math.round(Math.min(next, rec.giveUpAt ?? next)), dropBody: false };
}

export class Callbacks {
  private readonly repo: CallbackRepository;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly ticks = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private unlisten?: () => void;
  private secretValue = '';
  private stopping = false;
  private lastPurge = -Infinity;
  private timerBusy = false;
  private arming?: Promise<number>;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly keepMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;
  /** delivery attempts that failed (non-2xx or network) on this node, for /metrics */
  failedAttempts = 0;

  constructor(private readonly d: CallbackDeps, opts: CallbackOptions = {}) {
    this.repo = d.repo;
    this.pollMs = opts.pollMs ?? 1000;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.keepMs = opts.keepMs ?? 7 * 86400_000;
    this.leaseMs = opts.leaseMs ?? Math.max(60_000, 4 * this.timeoutMs);
    this.batch = opts.batch ?? 32;
  }

  /** The signing secret: SEJONG_WEBHOOK_SECRET, else the one generated on first start and kept in the outbox. */
  get secret(): string {
    return this.secretValue;
  }

  async start(): Promise<void> {
    this.stopping = false;
    if (this.d.config.webhookSecret) this.secretValue = this.d.config.webhookSecret;
    else {
      let s = await this.repo.loadSecret();
      if (!s) {
        // first writer wins: nodes starting together all read back the one stored
        s = await this.repo.saveSecret('whsec_' + crypto.randomBytes(32).toString('base64'));
        this.d.log.info({ msg: 'webhook signing secret ready (GET /api/v1/ekyc/enhance/webhook-secret with the admin key shows it)' });
      }
      this.secretValue = s;
    }
    // claims this node's name held before a restart are free again at once (others wait for the lease)
    await this.repo.releaseClaims(this.d.node);
    this.unlisten = this.d.jobs.onFinished((job) => {
      void this.armForJob(job)
        .then((armed) => (armed ? this.tick(false) : undefined))
        .catch((e) => this.d.log.warn({ msg: 'callback could not be armed', jobId: job.id, err: String(e) }));
    });
    // callbacks whose job finished while we were down (or was failed by crash recovery) are armed now
    await this.armFinished();
    this.timer = setInterval(() => {
      if (this.timerBusy) return; // a slow tick (busy database) is not piled on
      this.timerBusy = true;
      void this.tick()
        .catch((e) => this.d.log.warn({ msg: 'callback tick failed', err: String(e) }))
        .finally(() => (this.timerBusy = false));
    }, this.pollMs);
    this.timer.unref();
    void this.tick().catch(() => undefined);
  }

  /** Stop polling and wait for attempts in flight (their outcome is recorded). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    await Promise.allSettled([...this.ticks]);
    await this.idle();
  }

  /** Register the callback of a job at creation time; it is sent when the job finishes (on whichever node). */
  async register(opts: { jobId: string; url: string; meta?: unknown; type: string }): Promise<CallbackRecord> {
    const rec: CallbackRecord = {
      id: 'msg_' + crypto.randomBytes(16).toString('base64url'),
      jobId: opts.jobId,
      url: opts.url,
      ...(opts.meta !== undefined ? { sealedMeta: this.d.jobs.sealer.sealValue(opts.meta) } : {}),
      type: opts.type,
      state: 'waiting',
      createdAt: this.d.clock.now(),
      attempts: 0,
    };
    await this.repo.insert(rec);
    // the job may have finished before we registered (a very fast job)
    const job = await this.d.jobs.get(opts.jobId);
    if (job && job.status !== 'processing' && (await this.arm(rec, job))) void this.tick(false).catch(() => undefined);
    return (await this.repo.get(rec.id))!;
  }

  get(id: string): Promise<CallbackRecord | undefined> {
    return this.repo.get(id);
  }

  forJob(jobId: string): Promise<CallbackRecord | undefined> {
    return this.repo.forJob(jobId);
  }

  /** The JSON body of a job's callback. */
  static payload(rec: CallbackRecord, job: JobRecord | undefined, now: number, meta: unknown = rec.meta): CallbackPayload {
    const status = job?.status === 'completed' ? 'completed' : 'failed';
    return {
      type: `${rec.type}.${status === 'completed' ? 'completed' : 'failed'}`,
      timestamp: new Date(now).toISOString(),
      jobId: rec.jobId,
      status,
      result: status === 'completed' ? job?.result ?? {} : null,
      error: status === 'completed' ? null : job?.error ?? { code: 'INTERNAL_ERROR', message: 'The job record is gone' },
      callback_meta: meta ?? null,
    };
  }

  private async armForJob(job: JobRecord): Promise<boolean> {
    const rec = await this.repo.forJob(job.id);
    return rec?.state === 'waiting' ? this.arm(rec, job) : false;
  }

  /** Arm waiting callbacks whose job has finished, whichever node ran it or heard of it (each tick). One scan at
   * a time per node; a caller gets a scan that began after its call. */
  private async armFinished(): Promise<number> {
    while (this.arming) await this.arming.catch(() => 0);
    const p = this.armFinishedOnce();
    this.arming = p;
    try {
      return await p;
    } finally {
      if (this.arming === p) this.arming = undefined;
    }
  }

  private async armFinishedOnce(): Promise<number> {
    let n = 0;
    const now = this.d.clock.now();
    for (const rec of await this.repo.waiting(200)) {
      const job = await this.d.jobs.get(rec.jobId);
      if (job ? job.status !== 'processing' : rec.createdAt + JOB_GONE_AFTER_MS <= now) n += Number(await this.arm(rec, job));
    }
    return n;
  }

  /** Freeze the body (sealed) and make the callback due now; false when it was armed already. */
  private async arm(rec: CallbackRecord, job: JobRecord | undefined): Promise<boolean> {
    const now = this.d.clock.now();
    const sealer = this.d.jobs.sealer;
    const meta = rec.sealedMeta !== undefined ? sealer.unsealValue(rec.sealedMeta) : rec.meta;
    const body = sealer.seal(JSON.stringify(Callbacks.payload(rec, job, now, meta)));
    return this.repo.arm(rec.id, { body, armedAt: now, giveUpAt: now + Math.round(this.d.config.callbackRetryHours * 3600_000), nextAt: now });
  }

  /** Arm finished jobs' callbacks (unless `arm` is false: a listener that has just armed one) and attempt every
   * due one this node can claim (poll timer; tests after moving a manual clock). */
  async tick(arm = true): Promise<void> {
    if (this.stopping) return;
    const p = this.tickOnce(arm);
    this.ticks.add(p);
    try {
      await p;
    } finally {
      this.ticks.delete(p);
    }
  }

  private async tickOnce(arm: boolean): Promise<void> {
    if (arm) await this.armFinished();
    if (this.stopping) return; // claim nothing once stop() began: its leases would hold up the other nodes
    const now = this.d.clock.now();
    const free = this.batch - this.inflight.size;
    const claimed = free > 0 ? await this.repo.claimDue(now, this.d.node, now + this.leaseMs, free) : [];
    const started: Promise<void>[] = [];
    for (const rec of claimed) {
      if (this.inflight.has(rec.id)) continue;
      const p = this.attempt(rec).finally(() => this.inflight.delete(rec.id));
      this.inflight.set(rec.id, p);
      started.push(p);
    }
    if (now - this.lastPurge >= Math.min(this.keepMs, 60_000)) {
      this.lastPurge = now;
      await this.repo.purge(now - this.keepMs);
    }
    await Promise.allSettled(started);
  }

  /** Wait until nothing is in flight (tests). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight.values()]);
  }

  /** One attempt of a callback this node has claimed. */
  private async attempt(rec: CallbackRecord): Promise<void> {
    const ts = Math.floor(this.d.clock.now() / 1000);
    let status: number | undefined;
    let error: string | undefined;
    // sealed at rest; a body written before bodies were sealed is sent as it is
    const body = rec.body === undefined ? undefined : rec.body.startsWith('{') ? rec.body : this.d.jobs.sealer.unseal(rec.body);
    try {
      if (body === undefined) throw new Error('the sealed callback body cannot be opened with this installation key');
      const r = await this.d.fetcher.fetch(rec.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': rec.id,
          'webhook-timestamp': String(ts),
          'webhook-signature': sign(this.secretValue, rec.id, ts, body),
        },
        timeoutMs: this.timeoutMs,
        maxBytes: 65536,
        maxRedirects: 0,
        field: 'callback_url',
      });
      status = r.status;
      if (status < 200 || status >= 300) error = `the receiver answered HTTP ${status}`;
    } catch (e) {
      error = (e as Error).message ?? String(e);
    }
    if (error) this.failedAttempts++;
    let after: CallbackRecord | undefined;
    try {
      after = await this.repo.settle(rec.id, this.d.node, afterAttempt(rec, this.d.clock.now(), status, error));
    } catch (e) {
      this.d.log.warn({ msg: 'callback outcome not recorded (the attempt is made again after the lease)', id: rec.id, jobId: rec.jobId, err: String(e) });
      return;
    }
    if (!after) this.d.log.warn({ msg: 'callback claim lost before its outcome was recorded (another node retries it)', id: rec.id, jobId: rec.jobId });
    else if (after.state === 'failed') this.d.log.warn({ msg: 'callback given up', jobId: after.jobId, attempts: after.attempts, lastError: after.lastError });
  }

  /** Records by state (pending = the backlog awaiting delivery, fleet-wide in shared mode), for /metrics. */
  async counts(): Promise<Record<CallbackState, number>> {
    return this.repo.counts();
  }
}
