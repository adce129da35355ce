// The embedded queue: a submitted job runs at once in this process (in job scope, tracked by the engine for the
// graceful drain). A crash leaves the job processing; the next start fails it with a reason (recoverInterrupted); a
// job whose outcome could not be written is failed by the periodic reconciler (./reconcile.ts).
import type { JobInput, Runner } from './runners.js';
import { runInProcess, type JobQueue, type QueueDeps } from './queue.js';
import { reconcileAction, type Reconciled } from './reconcile.js';

export interface LocalQueueOptions {
  /** how often the reconciler runs (default 5 min) */
  reconcileEveryMs?: number;
  /** a job unchanged this long and not running here is settled (default 10 min) */
  staleMs?: number;
  log?: { warn(o: object): void };
}

export class LocalJobQueue<S = unknown> implements JobQueue<S> {
  readonly kind = 'local' as const;
  private timer?: NodeJS.Timeout;
  constructor(private readonly deps: QueueDeps<S>, private readonly opts: LocalQueueOptions = {}) {}

  async submit<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: I): Promise<void> {
    // a rejection means the store could not record the outcome; the job stays processing and the next start fails it
    void runInProcess(this.deps, runner, jobId, input).catch(() => undefined);
  }

  runHere<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: I): Promise<{ thrown?: unknown }> {
    return runInProcess(this.deps, runner, jobId, input);
  }

  async recover(): Promise<number> {
    return await this.deps.jobs.recoverInterrupted();
  }

  /** Jobs processing, unchanged for staleMs and not running in this process: their outcome could not be recorded. */
  async reconcile(): Promise<Reconciled> {
    const { jobs } = this.deps;
    let failed = 0;
    for (const id of await jobs.processingIds(this.opts.staleMs ?? 10 * 60_000)) {
      const act = reconcileAction({ stale: true, runningHere: jobs.isRunning(id), maxRequeues: 0 });
      if (act.do === 'fail' && (await jobs.failIfProcessing(id, 'INTERNAL_ERROR', act.message))) failed++;
    }
    if (failed) this.opts.log?.warn({ msg: 'jobs left processing without a recorded outcome were marked failed', count: failed });
    return { requeued: 0, failed };
  }

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.reconcile().catch((e) => this.opts.log?.warn({ msg: 'job reconciler failed', err: (e as Error).message })), this.opts.reconcileEveryMs ?? 5 * 60_000);
    this.timer.unref();
  }

  /** The engine's drain waits for the running jobs (start.ts calls it after the queue). */
  async close(): Promise<void> {
    clearInterval(this.timer);
  }
}
