// The embedded queue: a submitted job runs at once in this process (in job scope, tracked by the engine for the
// graceful drain). A crash leaves the job processing; the next start fails it with a reason (recoverInterrupted).
import type { JobInput, Runner } from './runners.js';
import { runInProcess, type JobQueue, type QueueDeps } from './queue.js';

export class LocalJobQueue<S = unknown> implements JobQueue<S> {
  readonly kind = 'local' as const;
  constructor(private readonly deps: QueueDeps<S>) {}

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

  async start(): Promise<void> {}

  /** The engine's drain waits for the running jobs (start.ts calls it after the queue). */
  async close(): Promise<void> {}
}
