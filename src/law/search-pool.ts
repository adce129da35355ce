// A small worker pool of its own for the legal-information tools (search above all), separate from the image pool:
// law traffic never waits behind images and the reverse. Each worker opens the same LMDB environment and runs the
// same tool code (src/law/tools.ts); the main thread only forwards arguments and answers.
import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import type { LawStore } from './store.js';
import { runTool, ToolError } from './tools.js';
import type { LawTask, LawTaskResult } from './search-worker.js';
import type { LawCpus } from './thread-affinity.js';

export interface LawPoolOptions {
  dataPath: string;
  /** worker threads; 0 runs the tools on the calling thread (CLI, benches of the old behaviour) */
  workers: number;
  /** calls that may wait for a worker; beyond it LawBusyError */
  queueSize: number;
  /** niceness added to the worker threads (Linux: per thread; Piscina applies it in each thread); default 0 */
  nice?: number;
  /** the threads' CPUs (thread-affinity.ts); default any */
  cpus?: LawCpus;
  /** V8 young-generation limit of each worker in MB (lawThreadLimits) */
  youngMb?: number;
  /** V8 old-generation limit of each worker in MB (lawThreadLimits) */
  heapMb?: number;
}

/**
 * The V8 limits of a law worker thread. The old generation holds the catalogue, the index tables and the byte-bounded
 * caches (≈ 120 – 155 MB used after many distinct searches); its limit is low enough (384 MB by default) that V8
 * grows the heap by a smaller factor (rss20: 186 → 161 MB committed after 992 calls), high enough for twice that.
 * The young generation is capped because V8 grows it to its limit in a thread that allocates as fast as search does
 * (3 × a 16 MB semi-space by default: 32 MB resident in the MCP law thread after 496 searches, while the other
 * threads keep < 1 MB). Without a figure (0) V8's own young limit stays.
 */
export function lawThreadLimits(youngMb?: number, heapMb = 384): ResourceLimits {
  return { maxOldGenerationSizeMb: heapMb, ...(youngMb ? { maxYoungGenerationSizeMb: youngMb } : {}) };
}

/** The law pool is full: answer 503 / a JSON-RPC error with retryAfter seconds. */
export class LawBusyError extends Error {
  constructor(readonly retryAfter: number, message: string) {
    super(message);
  }
}

export class LawPool {
  private readonly piscina: Piscina | null;
  private closed = false;
  constructor(private readonly law: LawStore, readonly opts: LawPoolOptions) {
    this.piscina = opts.workers > 0
      ? new Piscina({
        // built code (dist/) runs search-worker.js directly; from the sources, search-boot.mjs registers tsx first
        filename: fileURLToPath(new URL(import.meta.url.endsWith('.js') ? './search-worker.js' : './search-boot.mjs', import.meta.url)),
        minThreads: opts.workers,
        maxThreads: opts.workers,
        maxQueue: opts.queueSize,
        niceIncrement: opts.nice ?? 0,
        workerData: { cpus: opts.cpus ?? 'any' },
        idleTimeout: 2 ** 31 - 1,
        resourceLimits: lawThreadLimits(opts.youngMb, opts.heapMb),
      })
      : null;
  }

  /** calls waiting for a worker */
  get queued(): number {
    return this.piscina?.queueSize ?? 0;
  }

  /** Run a tool by name with parsed arguments; tool errors come back as ToolError, a full queue as LawBusyError. */
  async call(tool: string, args: unknown, now: number): Promise<unknown> {
    if (this.closed) throw new LawBusyError(5, 'the server is shutting down');
    if (!this.piscina) return runTool(tool, { law: this.law, now }, args);
    const { workers, queueSize } = this.opts;
    if (this.piscina.queueSize >= queueSize) {
      throw new LawBusyError(Math.max(1, Math.ceil(this.piscina.queueSize / (workers * 50))), `all ${workers} law workers are busy and ${queueSize} calls are waiting; retry shortly`);
    }
    const task: LawTask = { dataPath: this.opts.dataPath, stamp: this.law.version, tool, args, now };
    let r: LawTaskResult;
    try {
      r = (await this.piscina.run(task)) as LawTaskResult;
    } catch (e) {
      if (/queue is at limit/i.test((e as Error)?.message ?? '')) throw new LawBusyError(1, 'the law worker queue is full; retry shortly');
      throw e;
    }
    if (!r.ok) throw new ToolError(r.error.message, r.error.field, r.error.code);
    return r.out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.piscina?.close();
  }
}
