// The serialised answers of completed jobs, per server (an HTTP concern, so it lives beside the routes, not in the
// job engine). A completed job does not change until it expires; a route consults this only after jobs.read() has
// checked the caller, the family and the expiry, so revocation and expiry hold fleet-wide while polls of finished
// jobs skip rebuilding (and re-encoding) the same JSON. Keyed by kind, job id and completion time. Kept as UTF-8
// bytes: uWS sends a Buffer as it is, where a string (an answer may carry a whole base64 image) is converted to
// UTF-8 on every send.
import type { Services } from '../services.js';
import type { JobRecord } from '../jobs/engine.js';

const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;

export class AnswerCache {
  private readonly answers = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes = ANSWER_CACHE_BYTES) {}

  /** The JSON of a job's answer (UTF-8): built once for a completed job and kept (bounded), rebuilt otherwise. */
  json(job: JobRecord, kind: string, build: () => unknown): Buffer {
    if (job.status !== 'completed') return Buffer.from(JSON.stringify(build()));
    const k = `${kind}\u0000${job.id}\u0000${job.completedAt ?? 0}`;
    let s = this.answers.get(k);
    if (s === undefined) {
      s = Buffer.from(JSON.stringify(build()));
      // at most 64 MB of answers (an answer may carry a whole image), oldest dropped first
      if (s.length > this.maxBytes / 4) return s;
      while (this.bytes + s.length > this.maxBytes && this.answers.size > 0) {
        const [oldest, text] = this.answers.entries().next().value!;
        this.answers.delete(oldest);
        this.bytes -= text.length;
      }
      this.answers.set(k, s);
      this.bytes += s.length;
    }
    return s;
  }

  /** async builders (a blob read): same rule */
  async jsonAsync(job: JobRecord, kind: string, build: () => Promise<unknown>): Promise<Buffer> {
    if (job.status !== 'completed') return Buffer.from(JSON.stringify(await build()));
    const k = `${kind}\u0000${job.id}\u0000${job.completedAt ?? 0}`;
    const hit = this.answers.get(k);
    if (hit !== undefined) return hit;
    const value = await build();
    return this.json(job, kind, () => value);
  }
}

const caches = new WeakMap<Services, AnswerCache>();

/** This server's answer cache (one per running server, created on first use). */
export function answerCache(services: Services): AnswerCache {
  let c = caches.get(services);
  if (!c) caches.set(services, (c = new AnswerCache()));
  return c;
}
