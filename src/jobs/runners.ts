// Job work as named, serialisable runners: the work of an async job is a runner name plus an input (JSON and named
// byte buffers), so any node of a fleet can run it (src/jobs/queue.ts). Each api area defines its runner once at
// module level with defineRunner; a submit takes the runner's handle, so the compiler checks the input's type.
// jobs/ sits below services.ts, so the services a runner gets are a type parameter (api modules use Services).
import type { Completion } from './engine.js';

/** A JSON value (what survives JSON.stringify unchanged; undefined members are dropped). */
export type Json = string | number | boolean | null | Json[] | { [k: string]: Json | undefined };

/** The input of a job: JSON plus named byte buffers (images), stored sealed while the job is queued. */
export interface JobInput<J extends Json = Json, B extends string = string> {
  json: J;
  bytes: { [K in B]: Buffer };
}

/** What a runner may use besides its input. */
export interface RunnerCtx<S = unknown> {
  /** the services of the node running the job */
  services: S;
  jobId: string;
  /** 1 on the first run; more when a node died mid-job and another took it again */
  attempt: number;
  /** report progress (0..1) and family meta, as jobs.progress */
  progress(p: number, meta?: Record<string, unknown>): Promise<void>;
}

export type RunnerFn<I extends JobInput, S = unknown> = (input: I, ctx: RunnerCtx<S>) => Promise<Completion>;

/**
 * What a runner mostly waits on: `cpu` (the worker pool: image work) or `io` (an outside provider: AI jobs). The shared
 * queue runs the two in separate lanes with their own concurrency, so jobs waiting 200 ms on a provider do not take
 * the slots of image work, nor image work cap the provider calls a node keeps in flight.
 */
export type RunnerLane = 'cpu' | 'io';

/** The handle a submit names: the runner's name, carrying its input type. */
export interface Runner<I extends JobInput = JobInput, S = unknown> {
  readonly name: string;
  readonly lane: RunnerLane;
  readonly run: RunnerFn<I, S>;
}

const RUNNERS = new Map<string, Runner<any, any>>();

/**
 * Define (and register) a named runner. Runs once per process at module load; runners are plain functions of their
 * input and the node's services, so every server in the process shares the table. Names are unique per area
 * (a module loaded twice under two URLs redefines its own runner: the later one wins).
 */
export function defineRunner<I extends JobInput, S = unknown>(name: string, run: RunnerFn<I, S>, opts: { lane?: RunnerLane } = {}): Runner<I, S> {
  const r: Runner<I, S> = { name, lane: opts.lane ?? 'cpu', run };
  RUNNERS.set(name, r);
  return r;
}

/** The runner of a name (a queued job names its runner), or undefined when no module defined it. */
export function runnerNamed(name: string): Runner<JobInput, unknown> | undefined {
  return RUNNERS.get(name);
}

/** Names of the defined runners (sorted). */
export function runnerNames(): string[] {
  return [...RUNNERS.keys()].sort();
}
