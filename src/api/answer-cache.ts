// The serialised answers of completed jobs, per server (an HTTP concern, so it lives beside the routes, not in the
// job engine). A completed job does not change until it expires; a route consults this only after jobs.read() has
// checked the caller, the family and the expiry, so revocation and expiry hold fleet-wide while polls of finished
// jobs skip rebuilding (and re-encoding) the same JSON. Keyed by kind, job id and completion time.
import type { Services } from '../services.js';
import type { JobRecord } from '../jobs/engine.js';

const ANSWER_CACHE_CHARS = 64 * 1024 * 1024;

export class AnswerCache {
  private readonly answers = new Map<string, string>();
  private chars = 0;
  constructor(private readonly maxChars = ANSWER_CACHE_CHARS) {}

  /** The JSON text of a job's answer: built once for a completed job and kept (bounded), rebuilt otherwise. */
  json(job: JobRecord, kind: string, build: () => unknown): string {
    if (job.status !== 'completed') return JSON.stringify(build());
    const k = `${kind}\u0000${job.id}\u0000${job.completedAt ?? 0}`;
    let s = this.answers.get(k);
    if (s === undefined) {
      s = JSON.stringify(build());
      // at most 64 MB of answers (an answer may carry a whole image), oldest dropped first
      if (s.length > this.maxChars / 4) return s;
      while (this.chars + s.length > this.maxChars && this.answers.size > 0) {
        const [oldest, text] = this.answers.entries().next().value!;
        this.answers.delete(oldest);
        this.chars -= text.length;
      }
      this.answers.set(k, s);
      this.chars += s.length;
    }
    return s;
  }

  /** async builders (a blob read): same rule */
  async jsonAsync(job: JobRecord, kind: string, build: () => Promise<unknown>): Promise<string> {
    if (job.status !== 'completed') return JSON.stringify(await build());
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
