// The serialised answers of completed jobs, per server (an HTTP concern, so it lives beside the routes, not in the
// job engine). A completed job does not change until it expires; a route consults this only after jobs.read() has
// checked the caller, the family and the expiry, so revocation and expiry hold fleet-wide while polls of finished
// jobs skip rebuilding (and re-encoding) the same JSON. Keyed by kind, job id and completion time. Kept as UTF-8
// bytes: uWS sends a Buffer as it is, where a string (an answer may carry a whole base64 image) is converted to
// UTF-8 on every send.
import type { Services } from '../services.js';
import type { JobRecord } from '../jobs/engine.js';
import type { Family } from '../jobs/families.js';
import { reply, type Ctx, type Reply } from '../server/types.js';

const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

/** one kept answer: of which kind, for which completion of the job, its bytes */
interface Kept { kind: string; at: number; bytes: Buffer }

export class AnswerCache {
  /**
   * by job id, then the job's few kinds of answer: the lookup hashes the id as the request gave it, where a joined
   * `kind + id + time` key was a new string to build and hash on every poll
   */
  private readonly answers = new Map<string, Kept[]>();
  private bytes = 0;
  constructor(private readonly maxBytes = ANSWER_CACHE_BYTES) {}

  /** The JSON of a job's answer (UTF-8): built once for a completed job and kept (bounded), rebuilt otherwise. */
  json(job: JobRecord, kind: string, build: () => unknown): Buffer {
    if (job.status !== 'completed') return Buffer.from(JSON.stringify(build()));
    return this.find(job, kind) ?? this.keep(job, kind, Buffer.from(JSON.stringify(build())));
  }

  /** async builders (a blob read): same rule */
  async jsonAsync(job: JobRecord, kind: string, build: () => Promise<unknown>): Promise<Buffer> {
    if (job.status !== 'completed') return Buffer.from(JSON.stringify(await build()));
    const hit = this.find(job, kind);
    if (hit !== undefined) return hit;
    const value = await build();
    return this.find(job, kind) ?? this.keep(job, kind, Buffer.from(JSON.stringify(value)));
  }

  /** The kept answer of this completion of the job, if there is one (never builds). */
  peek(job: JobRecord, kind: string): Buffer | undefined {
    return this.find(job, kind);
  }

  private find(job: JobRecord, kind: string): Buffer | undefined {
    const list = this.answers.get(job.id);
    if (list === undefined) return undefined;
    const at = job.completedAt ?? 0;
    for (const k of list) if (k.kind === kind && k.at === at) return k.bytes;
    return undefined;
  }

  /** keep an answer: at most 64 MB of answers (an answer may carry a whole image), the oldest jobs' dropped first */
  private keep(job: JobRecord, kind: string, bytes: Buffer): Buffer {
    if (bytes.length > this.maxBytes / 4) return bytes;
    while (this.bytes + bytes.length > this.maxBytes && this.answers.size > 0) {
      const [oldest, list] = this.answers.entries().next().value!;
      this.answers.delete(oldest);
      for (const k of list) this.bytes -= k.bytes.length;
    }
    const at = job.completedAt ?? 0;
    // an answer of an earlier completion of this id (not expected: a completed job does not change) is replaced
    const list = (this.answers.get(job.id) ?? []).filter((k) => k.at === at);
    for (const k of this.answers.get(job.id) ?? []) if (k.at !== at) this.bytes -= k.bytes.length;
    list.push({ kind, at, bytes });
    this.answers.set(job.id, list);
    this.bytes += bytes.length;
    return bytes;
  }
}

const caches = new WeakMap<Services, AnswerCache>();

/**
 * A poll of a completed job answered synchronously: the job from this node's cache of finished records (which checks
 * the caller, the family and the expiry as read() does) and its kept answer — a Reply without a promise, which the
 * front end sends in the turn the request arrived. Undefined when either is missing (the first poll, a job still
 * processing, an error to report): the route's asynchronous path answers then.
 */
export function keptAnswer(ctx: Ctx, family: Family, kind: string): Reply | undefined {
  const job = ctx.services.jobs.peekFinished(ctx.principal, ctx.params.job_id!, family);
  if (job === undefined || job.status !== 'completed') return undefined;
  const body = answerCache(ctx.services).peek(job, kind);
  return body === undefined ? undefined : reply.make({ status: 200, body, contentType: 'application/json' });
}

/** This server's answer cache (one per running server, created on first use). */
export function answerCache(services: Services): AnswerCache {
  let c = caches.get(services);
  if (!c) caches.set(services, (c = new AnswerCache()));
  return c;
}
