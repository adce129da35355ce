// Completion callbacks of the e-KYC enhance and pipeline jobs, signed the Standard Webhooks way
// (https://www.standardwebhooks.com): headers webhook-id, webhook-timestamp, webhook-signature
// = "v1," + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
//
// Delivery is at-least-once and survives restarts: the callback is recorded in LMDB when the job is created
// (state "waiting"), armed when the job finishes (state "pending", body frozen), and retried with backoff until
// it is delivered (2xx) or SEJONG_CALLBACK_RETRY_HOURS have passed. Every attempt carries the same webhook-id, so a
// receiver can drop duplicates. A graceful stop waits for attempts in flight and records their outcome; after a
// crash an attempt whose outcome was not recorded is made again (a receiver may then see it twice, same id).
import type { CallbackPayload } from './callback-payload.js';
import crypto from 'node:crypto';
import type { Database } from 'lmdb';
import type { Logger } from 'pino';
import type { Store } from '../store/env.js';
import type { Clock } from '../clock.js';
import type { SafeFetcher } from './fetch.js';
import type { JobEngine, JobRecord } from '../jobs/engine.js';

export type CallbackState = 'waiting' | 'pending' | 'delivered' | 'failed';

export interface CallbackRecord {
  /** webhook-id, the same on every attempt */
  id: string;
  jobId: string;
  url: string;
  /** the client's callback_meta, returned unchanged: stored sealed (see sealedMeta), never in clear */
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
}

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

export interface CallbackDeps {
  store: Store;
  clock: Clock;
  fetcher: SafeFetcher;
  jobs: JobEngine;
  log: Logger;
  config: { webhookSecret: string; callbackRetryHours: number };
}

export interface CallbackOptions {
  /** how often due attempts are looked for (ms) */
  pollMs?: number;
  /** timeout of one attempt (ms) */
  timeoutMs?: number;
  /** finished records are forgotten after this (ms) */
  keepMs?: number;
}

export class Callbacks {
  private readonly db: Database<CallbackRecord, string>;
  private readonly due: Database<null, [number, string]>;
  private readonly byJob: Database<string, string>;
  private readonly meta: Database<string, string>;
  private readonly inflight = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private unlisten?: () => void;
  private secretValue = '';
  private stopping = false;
  private readonly pollMs: number;
  private readonly timeoutMs: number;
  private readonly keepMs: number;
  /** delivery attempts that failed (non-2xx or network), for /metrics */
  failedAttempts = 0;

  constructor(private readonly d: CallbackDeps, opts: CallbackOptions = {}) {
    this.db = d.store.db<CallbackRecord, string>('callbacks');
    this.due = d.store.db<null, [number, string]>('callbacks-due');
    this.byJob = d.store.db<string, string>('callbacks-by-job');
    this.meta = d.store.db<string, string>('callbacks-meta');
    this.pollMs = opts.pollMs ?? 1000;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.keepMs = opts.keepMs ?? 7 * 86400_000;
  }

  /** The signing secret: SEJONG_WEBHOOK_SECRET, else the one generated on first start and kept in LMDB. */
  get secret(): string {
    return this.secretValue;
  }

  async start(): Promise<void> {
    this.stopping = false;
    if (this.d.config.webhookSecret) this.secretValue = this.d.config.webhookSecret;
    else {
      // kept sealed with the installation key (a secret stored before sealing existed is sealed now)
      const stored = this.meta.get('secret');
      let s = stored?.startsWith('whsec_') ? stored : this.d.jobs.sealer.unseal(stored);
      if (stored?.startsWith('whsec_')) await this.meta.put('secret', this.d.jobs.sealer.seal(stored));
      if (!s) {
        s = 'whsec_' + crypto.randomBytes(32).toString('base64');
        await this.meta.put('secret', this.d.jobs.sealer.seal(s));
        this.d.log.info({ msg: 'generated a webhook signing secret (GET /api/v1/ekyc/enhance/webhook-secret with the admin key shows it)' });
      }
      this.secretValue = s;
    }
    this.unlisten = this.d.jobs.onFinished((job) => {
      const id = this.byJob.get(job.id);
      if (id) void this.arm(id, job).then(() => this.tick()).catch((e) => this.d.log.warn({ msg: 'callback could not be armed', jobId: job.id, err: String(e) }));
    });
    // callbacks whose job finished while we were down (or was failed by crash recovery) are armed now
    for (const { value } of this.db.getRange()) {
      if (value.state !== 'waiting') continue;
      const job = await this.d.jobs.get(value.jobId);
      if (!job) await this.arm(value.id, undefined);
      else if (job.status !== 'processing') await this.arm(value.id, job);
    }
    this.timer = setInterval(() => void this.tick().catch((e) => this.d.log.warn({ msg: 'callback tick failed', err: String(e) })), this.pollMs);
    this.timer.unref();
    void this.tick();
  }

  /** Stop polling and wait for attempts in flight (their outcome is recorded). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.unlisten?.();
    await Promise.allSettled([...this.inflight.values()]);
  }

  /** Register the callback of a job at creation time; it is sent when the job finishes. */
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
    await this.d.store.transaction(() => {
      this.db.put(rec.id, rec);
      this.byJob.put(opts.jobId, rec.id);
    });
    // the job may have finished before we registered (a very fast job)
    const job = await this.d.jobs.get(opts.jobId);
    if (job && job.status !== 'processing') {
      await this.arm(rec.id, job);
      void this.tick();
    }
    return this.db.get(rec.id)!;
  }

  get(id: string): CallbackRecord | undefined {
    return this.db.get(id);
  }

  forJob(jobId: string): CallbackRecord | undefined {
    const id = this.byJob.get(jobId);
    return id ? this.db.get(id) : undefined;
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

  private async arm(id: string, job: JobRecord | undefined): Promise<void> {
    const now = this.d.clock.now();
    await this.d.store.transaction(() => {
      const rec = this.db.get(id);
      if (!rec || rec.state !== 'waiting') return;
      const sealer = this.d.jobs.sealer;
      const meta = rec.sealedMeta !== undefined ? sealer.unsealValue(rec.sealedMeta) : rec.meta;
      rec.body = sealer.seal(JSON.stringify(Callbacks.payload(rec, job, now, meta)));
      delete rec.sealedMeta; // now inside the sealed body
      delete rec.meta;
      rec.state = 'pending';
      rec.armedAt = now;
      rec.giveUpAt = now + Math.round(this.d.config.callbackRetryHours * 3600_000);
      rec.nextAt = now;
      this.db.put(id, rec);
      this.due.put([now, id], null);
    });
  }

  /** Attempt every due callback now (called by the poll timer; tests call it after moving a manual clock). */
  async tick(): Promise<void> {
    if (this.stopping) return;
    const now = this.d.clock.now();
    const started: Promise<void>[] = [];
    for (const key of this.due.getKeys({ end: [now, '\uffff'] })) {
      const [, id] = key as [number, string];
      if (this.inflight.has(id)) continue;
      const p = this.attempt(id, key as [number, string]).finally(() => this.inflight.delete(id));
      this.inflight.set(id, p);
      started.push(p);
    }
    await Promise.allSettled(started);
  }

  /** Wait until nothing is in flight (tests). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight.values()]);
  }

  private async attempt(id: string, dueKey: [number, string]): Promise<void> {
    const rec = this.db.get(id);
    if (!rec || rec.state !== 'pending' || !rec.body) {
      await this.due.remove(dueKey);
      // a finished record's last due entry is its forget time
      if (rec && (rec.state === 'delivered' || rec.state === 'failed') && (rec.doneAt ?? 0) + this.keepMs <= this.d.clock.now()) await this.forget(rec);
      return;
    }
    const ts = Math.floor(this.d.clock.now() / 1000);
    let status: number | undefined;
    let error: string | undefined;
    // sealed at rest; a body written before bodies were sealed is sent as it is
    const body = rec.body.startsWith('{') ? rec.body : this.d.jobs.sealer.unseal(rec.body);
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
    const now = this.d.clock.now();
    await this.d.store.transaction(() => {
      const cur = this.db.get(id);
      this.due.remove(dueKey);
      if (!cur || cur.state !== 'pending') return;
      cur.attempts += 1;
      cur.lastStatus = status;
      cur.lastError = error;
      if (!error) {
        cur.state = 'delivered';
        cur.doneAt = now;
        delete cur.nextAt;
        delete cur.body; // the body may carry OCR fields: not kept once sent
        this.due.put([now + this.keepMs, id], null); // forget later
      } else {
        const next = now + backoffMs(cur.attempts) * (1 + Math.random() * 0.1);
        // 410 Gone: the receiver asks us to stop (Standard Webhooks). Otherwise retry until the window closes, the
        // last attempt exactly at its end, so that a receiver down for almost the whole window still gets it.
        if (status === 410 || now >= (cur.giveUpAt ?? 0)) {
          cur.state = 'failed';
          cur.doneAt = now;
          delete cur.nextAt;
          delete cur.body;
          this.due.put([now + this.keepMs, id], null);
        } else {
          cur.nextAt = Math.round(Math.min(next, cur.giveUpAt ?? next));
          this.due.put([cur.nextAt, id], null);
        }
      }
      this.db.put(id, cur);
    });
    const after = this.db.get(id);
    if (error) this.failedAttempts++;
    if (after?.state === 'failed') this.d.log.warn({ msg: 'callback given up', jobId: after.jobId, attempts: after.attempts, lastError: after.lastError });
  }

  /** Records by state (pending = the backlog awaiting delivery) plus failed attempts so far, for /metrics. */
  counts(): Record<string, number> {
    const out: Record<string, number> = { waiting: 0, pending: 0, delivered: 0, failed: 0 };
    for (const { value } of this.db.getRange()) out[value.state] = (out[value.state] ?? 0) + 1;
    return out;
  }

  private async forget(rec: CallbackRecord): Promise<void> {
    await this.d.store.transaction(() => {
      this.db.remove(rec.id);
      if (this.byJob.get(rec.jobId) === rec.id) this.byJob.remove(rec.jobId);
    });
  }
}
