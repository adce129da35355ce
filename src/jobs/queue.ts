// The work queue of async jobs: a handler creates the job record, then submits the job's work as a named runner
// and its serialisable input (src/jobs/runners.ts). Which queue runs it is chosen once at start-up
// (src/server/start.ts, by engines.mode):
// - embedded (queue-local.ts): at once in this process, as before;
// - shared (queue-bullmq.ts): a BullMQ queue in Redis, a worker on every node, the input sealed in PostgreSQL until
//   the job ends; a node dying mid-job leaves the job to another node (stalled-job recovery), a bounded number of
//   attempts, then failed with a reason.
import type { JobEngine } from './engine.js';
import type { JobInput, Runner, RunnerCtx } from './runners.js';
import type { Reconciled } from './reconcile.js';

export interface JobQueue<S = unknown> {
  readonly kind: 'local' | 'bullmq';
  /**
   * Hand the work of a created (processing) job to the queue. The input's type is the runner's (checked by the
   * compiler: the input does not take part in inferring it). Resolves once the job is accepted for running.
   */
  submit<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: NoInfer<I>): Promise<void>;
  /**
   * Run the work here, now, in this process (a synchronous request waiting for its own job's outcome). Resolves when
   * the job has ended; `thrown` is what the runner threw, if it did.
   */
  runHere<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: NoInfer<I>): Promise<{ thrown?: unknown }>;
  /** On start-up, before serving: settle jobs a previous stop interrupted. Returns how many were settled. */
  recover(): Promise<number>;
  /**
   * Settle jobs left processing with nothing behind them (./reconcile.ts): queued again, or failed with a reason.
   * start() runs it periodically; a pass while an engine is unreachable fails and the next one settles them.
   */
  reconcile(): Promise<Reconciled>;
  /** Start taking work (shared mode: this node's worker) and the periodic reconciler. */
  start(): Promise<void>;
  /**
   * Stop taking work. drain (default): wait for this node's running jobs; drain false: drop them as a dying node
   * would (shared mode: their locks lapse and another node takes them again).
   */
  close(opts?: { drain?: boolean }): Promise<void>;
}

export interface QueueDeps<S> {
  jobs: JobEngine;
  services: S;
}

/**
 * Run a runner in this process inside the engine (job scope for pool tasks, tracked for graceful drain): its
 * completion completes the job, a throw fails it with the error's code. The engine completes only a processing job,
 * so a second run of the same job (taken again after a stall) changes nothing.
 */
export async function runInProcess<I extends JobInput, S>(
  deps: QueueDeps<S>,
  runner: Runner<I, S>,
  jobId: string,
  input: I,
  attempt = 1,
): Promise<{ thrown?: unknown }> {
  const { jobs } = deps;
  const ctx: RunnerCtx<S> = {
    services: deps.services,
    jobId,
    attempt,
    progress: (p, meta) => jobs.progress(jobId, p, meta),
  };
  let thrown: unknown;
  await jobs.run(jobId, async () => {
    try {
      return await runner.run(input, ctx);
    } catch (e) {
      thrown = e;
      throw e;
    }
  });
  return thrown === undefined ? {} : { thrown };
}
