// The bounded worker pool: long-lived threads running src/tasks/*, buffers transferred, full queue → 503.
import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ApiError, ERROR_CODES, type ErrorCode } from '../server/errors.js';
import { collectBuffers, TASK_ERROR_MARK } from './transfer.js';

export interface PoolOptions {
  workers: number;
  queueSize: number;
  /** extra worker data (e.g. limits) */
  workerData?: Record<string, unknown>;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** transfer the input's ArrayBuffers to the worker (the caller must not use them afterwards); default true */
  transfer?: boolean;
}

export class WorkerPool {
  private readonly piscina: Piscina;
  private closed = false;
  /** tasks handed to piscina and not yet settled (running or waiting in its queue) */
  running = 0;
  constructor(readonly opts: PoolOptions) {
    // sharp must be loaded on the main thread before workers use it (libvips is process-global).
    sharp.concurrency(1);
    // built code (dist/, `npm run build`) runs worker.js directly; from the sources, boot.mjs registers tsx first
    const compiled = import.meta.url.endsWith('.js');
    const filename = fileURLToPath(new URL(compiled ? './worker.js' : './boot.mjs', import.meta.url));
    this.piscina = new Piscina({
      filename,
      minThreads: opts.workers,
      maxThreads: opts.workers,
      maxQueue: opts.queueSize,
      idleTimeout: 2 ** 31 - 1,
      workerData: opts.workerData ?? {},
      // surface worker output (model load messages) on our stderr
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
    });
  }

  get size(): number {
    return this.opts.workers;
  }

  get queued(): number {
    return this.piscina.queueSize;
  }

  /** Run one task: `src/tasks/<task>.ts` default export, called with input. */
  async run<T = unknown>(task: string, input: unknown, opts: RunOptions = {}): Promise<T> {
    if (this.closed) throw new ApiError('SERVICE_BUSY', 'The server is shutting down', { headers: { 'Retry-After': '5' } });
    if (this.piscina.queueSize >= this.opts.queueSize) {
      throw new ApiError('SERVICE_BUSY', `All ${this.opts.workers} workers are busy and ${this.opts.queueSize} tasks are waiting; retry shortly`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(this.piscina.queueSize / this.opts.workers))) },
      });
    }
    const transferList = opts.transfer === false ? undefined : ([...collectBuffers(input)] as never);
    this.running++;
    try {
      return (await this.piscina.run({ task, input }, { transferList, signal: opts.signal })) as T;
    } catch (e) {
      const msg = (e as Error)?.message ?? '';
      const at = msg.indexOf(TASK_ERROR_MARK);
      if (at >= 0) {
        const info = JSON.parse(msg.slice(at + TASK_ERROR_MARK.length)) as { code: string; message?: string; field?: string; status?: number };
        if (info.code in ERROR_CODES) throw new ApiError(info.code as ErrorCode, info.message ?? info.code, { field: info.field, status: info.status });
        throw Object.assign(new Error(info.message), { code: info.code, field: info.field });
      }
      if (/queue is at limit|Task queue is at limit/i.test(msg)) {
        throw new ApiError('SERVICE_BUSY', 'The worker queue is full; retry shortly', { headers: { 'Retry-After': '1' } });
      }
      throw e;
    } finally {
      this.running--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.piscina.close();
  }
}
