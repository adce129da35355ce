// The shared queue: BullMQ queues in Redis (one per runner lane: cpu, io), workers on every node. A submit seals the job's input into PostgreSQL
// (job_inputs, migration 0020) and adds a BullMQ job named after the runner, with our job id as its id; any node's
// worker takes it, unseals the input and runs the runner in-process (engine.run: job scope, drain tracking).
// A node dying mid-job stops renewing its lock: another node's stalled check hands the job out again, and a run
// that starts past the attempt limit fails the job with a reason. Runners are safe to run twice: the engine
// completes only a processing job. The input row is deleted when the job ends. What no node could settle (the engine
// was away when the last attempt gave up; Redis lost the job) the periodic reconciler settles (./reconcile.ts).
import { Queue, Worker, type Job } from 'bullmq';
import type { Pg } from '../shared/pg.js';
import { withTimeout } from '../shared/pg.js';
import type { Redis } from '../shared/redis.js';
import { engineBusy, isEngineBusy } from '../shared/errors.js';
import { runnerNamed, type Json, type JobInput, type Runner, type RunnerLane } from './runners.js';
import { runInProcess, type JobQueue, type QueueDeps } from './queue.js';
import { reconcileAction, type Reconciled } from './reconcile.js';
import { closeQueue, closeWorker, keepDuplicates } from './bullmq-close.js';

/** how long one worker's or queue's close may take once this node's own runs are over (then it is ended by force) */
const CLOSE_MS = 5000;

export const QUEUE_NAME = 'jobs';
/** One BullMQ queue per lane (runners.ts RunnerLane): image work, and jobs that mostly wait on a provider. */
const LANES: Record<RunnerLane, string> = { cpu: QUEUE_NAME, io: `${QUEUE_NAME}-io` };
const LANE_LIST = Object.keys(LANES) as RunnerLane[];
const PREFIX = 'sejong';
/** how long a run waits, in place, for an unreachable engine before its attempt counts as failed */
const ENGINE_WAIT_MS = 5 * 60_000;
const LOCK_LOST = /Missing lock for job|could not renew lock for job/;
/** pg_try_advisory_xact_lock key of the reconciler: one node's pass at a time */
const RECONCILE_LOCK = 0x5e_10_98; // (0x5e1096 migrations, 0x5e1097 the admin bootstrap)

export interface BullQueueOptions {
  pg: Pg;
  /** a new BullMQ connection (engines.queueRedis) */
  connect(): Promise<Redis>;
  node: string;
  /** jobs this node runs at once (cpu lane) */
  concurrency: number;
  /** jobs this node runs at once in the io lane (default 32) */
  ioConcurrency?: number;
  /** runs a job may start before it is failed */
  attempts: number;
  lockMs: number;
  stalledMs: number;
  /** how long a submit waits for Redis before answering 503 */
  timeoutMs: number;
  /** the clock of engine waits and of the reconciler's grace (services.clock; default the system clock) */
  clock?: { now(): number };
  /** how long a run waits, in place, for an unreachable engine before its attempt counts as failed (default 5 min) */
  engineWaitMs?: number;
  /** how often this node runs the reconciler (./reconcile.ts; default max(stalledMs, 5 s)) */
  reconcileEveryMs?: number;
  /** a job unchanged this long with nothing behind it is settled by the reconciler (default 60 s + timeoutMs + lockMs) */
  staleMs?: number;
  log?: { warn(o: object): void; error(o: object): void };
}

interface Data {
  runner: string;
}

interface Stored {
  json: Json;
  bytes: Record<string, Uint8Array>;
}

export class BullJobQueue<S = unknown> implements JobQueue<S> {
  readonly kind = 'bullmq' as const;
  private workers: Worker<Data>[] = [];
  private readonly conns: Redis[] = [];
  /** set by close(): a run stranded by a close without drain ends quietly (its job is another node's now) */
  private closed = false;
  /** the runs of BullMQ jobs going on in this node now (a draining stop waits for them) */
  private readonly runs = new Set<Promise<unknown>>();
  /** each worker's connections made by BullMQ (its blocking one), ended by force when its close is stuck */
  private readonly duplicates = new Map<Worker<Data>, Redis[]>();
  private reconcileTimer?: NodeJS.Timeout;
  private readonly clock: { now(): number };

  private constructor(private readonly deps: QueueDeps<S>, private readonly opts: BullQueueOptions, private readonly queues: Record<RunnerLane, Queue<Data>>) {
    this.clock = opts.clock ?? Date;
  }

  static async open<S>(deps: QueueDeps<S>, opts: BullQueueOptions): Promise<BullJobQueue<S>> {
    const conn = await opts.connect();
    const lane = (l: RunnerLane) => new Queue<Data>(LANES[l], { connection: conn, prefix: PREFIX });
    const q = new BullJobQueue<S>(deps, opts, { cpu: lane('cpu'), io: lane('io') });
    q.conns.push(conn);
    for (const queue of Object.values(q.queues)) queue.on('error', (e) => opts.log?.warn({ msg: 'job queue error', err: e.message }));
    return q;
  }

  /** The BullMQ job of an id, in whichever lane holds it. */
  private async findJob(id: string): Promise<Job<Data> | undefined> {
    for (const l of LANE_LIST) {
      const j = await this.queues[l].getJob(id);
      if (j) return j;
    }
    return undefined;
  }

  async submit<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: I): Promise<void> {
    const { jobs } = this.deps;
    const sealed = jobs.sealer.sealValue({ json: input.json, bytes: input.bytes } satisfies Stored);
    await this.opts.pg.query('insert into job_inputs (job_id, runner, sealed) values ($1, $2, $3) on conflict (job_id) do nothing', [jobId, runner.name, sealed]);
    try {
      await this.enqueue(runner.name, runner.lane, jobId);
    } catch (e) {
      // never accepted: the job must not stay processing with nobody to run it
      await jobs.fail(jobId, 'SERVICE_BUSY', 'The work queue (Redis) could not be reached when this job was submitted; please submit it again');
      await this.dropInput(jobId).catch(() => undefined);
      this.opts.log?.warn({ msg: 'job not queued', jobId, err: (e as Error).message });
      throw engineBusy('Redis');
    }
  }

  private async enqueue(name: string, lane: RunnerLane, jobId: string): Promise<void> {
    await withTimeout(
      this.queues[lane].add(name, { runner: name }, {
        jobId,
        attempts: this.opts.attempts,
        backoff: { type: 'fixed', delay: 1000 },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 86400, count: 10_000 },
      }),
      this.opts.timeoutMs,
      `Redis did not take the job within ${this.opts.timeoutMs} ms`,
    );
  }

  /**
   * Runs here (a synchronous request waits for it). A marker row `local:<node>` says where the job runs, so that a
   * starting node does not take it for an orphan, and this node failing at restart settles it (its client is gone).
   */
  async runHere<I extends JobInput>(runner: Runner<I, S>, jobId: string, input: I): Promise<{ thrown?: unknown }> {
    await this.opts.pg.query('insert into job_inputs (job_id, runner, sealed) values ($1, $2, $3) on conflict (job_id) do nothing', [jobId, `local:${this.opts.node}`, Buffer.alloc(0)]);
    try {
      return await runInProcess(this.deps, runner, jobId, input);
    } catch (e) {
      if (!isEngineBusy(e)) throw e;
      // the outcome could not be recorded: the client gets the 503; the job is failed if the engine answers now
      await this.deps.jobs.fail(jobId, 'SERVICE_BUSY', 'The storage engine was unreachable while this job finished; please submit it again').catch(() => undefined);
      return { thrown: e };
    } finally {
      await this.dropInput(jobId).catch(() => undefined);
    }
  }

  /**
   * Jobs BullMQ gave up on while no node recorded it (the last node died in its 'failed' handler) are failed in the
   * engine now. Jobs still waiting or running are left to the queue: any node takes them (never failed at start).
   */
  async recover(): Promise<number> {
    void this.failOrphans().catch((e) => this.opts.log?.warn({ msg: 'orphan job check failed', err: (e as Error).message }));
    let n = 0;
    const failed = (await Promise.all(LANE_LIST.map((l) => this.queues[l].getFailed(0, 999)))).flat();
    for (const bj of failed) {
      if (!bj?.id) continue;
      const j = await this.deps.jobs.get(bj.id);
      if (j?.status !== 'processing') continue;
      await this.giveUp(bj.id, bj.failedReason || 'unknown reason', bj.attemptsStarted || bj.attemptsMade);
      n++;
    }
    return n;
  }

  /**
   * Jobs left processing with nothing to run them: no BullMQ job and no input row (a node died between creating the
   * record and queueing it), or run locally by this very node before it restarted (`local:<node>`). Checked twice,
   * `confirmMs` apart, so that a job another node is queueing right now is not taken for one.
   */
  async failOrphans(confirmMs = 2000): Promise<number> {
    const orphans = async (): Promise<Set<string>> => {
      const ids = await this.deps.jobs.repo.processingIds();
      const out = new Set<string>();
      if (!ids.length) return out;
      const rows = await this.opts.pg.query<{ job_id: string; runner: string }>('select job_id, runner from job_inputs where job_id = any($1)', [ids]);
      const held = new Map(rows.rows.map((r) => [r.job_id, r.runner]));
      for (const id of ids) {
        const runner = held.get(id);
        if (runner === `local:${this.opts.node}`) out.add(id);
        else if (runner === undefined && !(await this.findJob(id))) out.add(id);
      }
      return out;
    };
    const first = await orphans();
    if (!first.size) return 0;
    await new Promise((r) => setTimeout(r, confirmMs));
    let n = 0;
    for (const id of await orphans()) {
      if (!first.has(id)) continue;
      await this.deps.jobs.fail(id, 'INTERNAL_ERROR', 'The server stopped while this job was processing; please submit it again');
      await this.dropInput(id);
      n++;
    }
    if (n) this.opts.log?.warn({ msg: 'jobs left processing with nothing to run them were marked failed', count: n });
    return n;
  }

  async start(): Promise<void> {
    for (const l of LANE_LIST) this.workers.push(await this.startLane(l));
    const every = this.opts.reconcileEveryMs ?? Math.max(this.opts.stalledMs, 5000);
    this.reconcileTimer = setInterval(() => void this.reconcile().catch((e) => this.opts.log?.warn({ msg: 'job reconciler failed', err: (e as Error).message })), every);
    this.reconcileTimer.unref();
  }

  /**
   * One reconciler pass (./reconcile.ts) over the jobs processing and unchanged for staleMs, on one node at a time
   * (an advisory lock; a node finding it taken does nothing): BullMQ gave up on it unrecorded → failed with
   * BullMQ's reason; lost from Redis with its input stored → queued again (bounded by attempts); no input and no
   * queued job, or run by a request on a node that is gone → failed with a reason. Queued or running jobs stay.
   */
  async reconcile(): Promise<Reconciled> {
    return this.opts.pg.tx(async (c) => {
      const out: Reconciled = { requeued: 0, failed: 0 };
      if (!(await c.query<{ ok: boolean }>('select pg_try_advisory_xact_lock($1) as ok', [RECONCILE_LOCK])).rows[0]!.ok) return out;
      const { jobs } = this.deps;
      const ids = await jobs.repo.processingIds(this.clock.now() - (this.opts.staleMs ?? (60_000 + this.opts.timeoutMs + this.opts.lockMs)));
      if (!ids.length) return out;
      const rows = await this.opts.pg.query<{ job_id: string; runner: string; requeues: number }>('select job_id, runner, requeues from job_inputs where job_id = any($1)', [ids]);
      const inputs = new Map(rows.rows.map((r) => [r.job_id, { runner: r.runner, requeues: r.requeues }]));
      const liveNodes = await this.liveNodes();
      for (const id of ids) {
        const act = reconcileAction({ stale: true, runningHere: jobs.isRunning(id), queued: await this.queuedState(id), input: inputs.get(id), liveNodes, node: this.opts.node, maxRequeues: this.opts.attempts });
        if (act.do === 'requeue') {
          const runner = inputs.get(id)!.runner;
          // counted first: a job that ended meanwhile has no input row any more and is not queued again
          if (!(await this.opts.pg.query('update job_inputs set requeues = requeues + 1 where job_id = $1', [id])).rowCount) continue;
          await this.enqueue(runner, runnerNamed(runner)?.lane ?? 'cpu', id);
          out.requeued++;
        } else if (act.do === 'fail') {
          if (await jobs.failIfProcessing(id, 'INTERNAL_ERROR', act.message)) out.failed++;
          await this.dropInput(id);
        }
      }
      if (out.requeued || out.failed) this.opts.log?.warn({ msg: 'jobs left processing with nothing behind them were settled', ...out });
      return out;
    });
  }

  private async queuedState(id: string): Promise<{ state: 'failed' | 'pending'; failedReason?: string; attemptsMade?: number } | undefined> {
    const bj = await this.findJob(id);
    const state = bj && (await bj.getState());
    if (!bj || !state || state === 'unknown' || state === 'completed') return undefined;
    return state === 'failed' ? { state, failedReason: bj.failedReason, attemptsMade: bj.attemptsStarted || bj.attemptsMade } : { state: 'pending' };
  }

  /** Names of the nodes whose worker is connected to Redis now (BullMQ names each worker's connection). */
  private async liveNodes(): Promise<Set<string>> {
    const out = new Set<string>();
    for (const l of LANE_LIST) {
      for (const w of await this.queues[l].getWorkers()) {
        const raw = String((w as { rawname?: string }).rawname ?? '');
        const at = raw.indexOf(':w:');
        if (at >= 0) out.add(raw.slice(at + 3));
      }
    }
    return out;
  }

  private async startLane(lane: RunnerLane): Promise<Worker<Data>> {
    const conn = await this.opts.connect();
    this.conns.push(conn);
    const made: Redis[] = [];
    keepDuplicates(conn, made);
    const w = new Worker<Data>(LANES[lane], (bj) => this.tracked(this.process(bj).catch((e) => {
      if (!this.closed) throw e;
      this.opts.log?.warn({ msg: 'job run ended after its node stopped taking work', jobId: bj.id, err: (e as Error).message });
      return 'stranded';
    })), {
      connection: conn,
      prefix: PREFIX,
      name: this.opts.node,
      concurrency: lane === 'io' ? (this.opts.ioConcurrency ?? 32) : this.opts.concurrency,
      lockDuration: this.opts.lockMs,
      stalledInterval: this.opts.stalledMs,
      // the attempt limit is ours (process() checks attemptsStarted): BullMQ must not fail a stalled job first
      maxStalledCount: this.opts.attempts + 1,
      autorun: true,
    });
    this.duplicates.set(w, made);
    // "Missing lock for job … moveToFinished" / "could not renew lock": the job's lock lapsed while Redis was away, so
    // BullMQ may hand the job out again. No wrong outcome: the job's record in PostgreSQL decides (a run finding it
    // ended stops; the engine finishes a job once). The cost: a run still going when the lock lapsed runs twice (an
    // AI job calls its provider twice) and spends one attempt, once per Redis outage longer than the lock.
    w.on('error', (e) => this.opts.log?.warn({ msg: LOCK_LOST.test(e.message) ? 'job lock lost while Redis was away (the job may be taken again; its record decides)' : 'job worker error', err: e.message }));
    // process() threw (the engine or the input store was unreachable): retried with backoff up to attempts
    w.on('failed', (bj, err) => {
      if (!bj?.id || bj.attemptsMade < (bj.opts.attempts ?? 1)) return;
      void this.giveUp(bj.id, err.message, bj.attemptsMade).catch((e) => this.opts.log?.error({ msg: 'could not fail job', jobId: bj.id, err: (e as Error).message }));
    });
    return w;
  }

  private tracked<T>(run: Promise<T>): Promise<T> {
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run)).catch(() => undefined);
    return run;
  }

  /**
   * One run of a job. While PostgreSQL or Redis is unreachable (reading the job or its input, recording the outcome)
   * the run waits and starts over in place, backing off to 5 s, for up to ENGINE_WAIT_MS: an engine restart costs the
   * job no attempt (BullMQ's retries, 1 s apart, would spend them all in a few seconds). Running twice is safe.
   */
  private async process(bj: Job<Data>): Promise<string> {
    const until = this.clock.now() + (this.opts.engineWaitMs ?? ENGINE_WAIT_MS);
    for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
      try {
        return await this.processOnce(bj);
      } catch (e) {
        if (!isEngineBusy(e) || this.closed || this.clock.now() + wait > until) throw e;
        this.opts.log?.warn({ msg: 'job waits for an unreachable engine', jobId: bj.id, err: (e as Error).message, retryInMs: wait });
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async processOnce(bj: Job<Data>): Promise<string> {
    const id = bj.id!;
    const { jobs } = this.deps;
    const attempt = bj.attemptsStarted;
    const job = await jobs.get(id);
    if (!job || job.status !== 'processing') {
      // already ended (a node completed it and died before BullMQ heard), or gone: nothing to run twice
      await this.dropInput(id);
      return 'ended';
    }
    if (attempt > this.opts.attempts) {
      await this.giveUp(id, 'each run stopped with its node (killed or cut off from Redis mid-job)', attempt - 1);
      return 'given up';
    }
    const runner = runnerNamed(bj.data.runner);
    const input = await this.loadInput(id);
    if (!runner || !input) {
      const why = !runner ? `no job runner named ${bj.data.runner} on node ${this.opts.node}` : 'its input is no longer stored (or cannot be unsealed on this node)';
      await jobs.fail(id, 'INTERNAL_ERROR', `The job could not be run: ${why}; please submit it again`);
      await this.dropInput(id);
      return 'failed';
    }
    await runInProcess(this.deps, runner as Runner<JobInput, S>, id, input, attempt);
    await this.dropInput(id);
    return 'done';
  }

  private async giveUp(id: string, reason: string, attempts: number): Promise<void> {
    await this.deps.jobs.fail(id, 'INTERNAL_ERROR', `The job was given up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}; please submit it again`);
    await this.dropInput(id);
  }

  private async loadInput(id: string): Promise<JobInput | undefined> {
    const r = await this.opts.pg.query<{ sealed: Buffer }>('select sealed from job_inputs where job_id = $1', [id]);
    const v = r.rows[0] ? this.deps.jobs.sealer.unsealValue<Stored>(r.rows[0].sealed) : undefined;
    if (!v) return undefined;
    const bytes: Record<string, Buffer> = {};
    for (const [k, b] of Object.entries(v.bytes ?? {})) bytes[k] = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    return { json: v.json, bytes };
  }

  private async dropInput(id: string): Promise<void> {
    await this.opts.pg.query('delete from job_inputs where job_id = $1', [id]);
  }

  /** Jobs waiting, running, failed, as BullMQ counts them (metrics, tests). */
  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const l of LANE_LIST) {
      for (const [k, v] of Object.entries(await this.queues[l].getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'))) out[k] = (out[k] ?? 0) + v;
    }
    return out;
  }

  /** Stop this node's worker only (it still accepts and submits jobs): drain waits for its running jobs. */
  async stopTaking(opts: { drain?: boolean } = {}): Promise<void> {
    const drain = opts.drain ?? true;
    this.closed = true;
    clearInterval(this.reconcileTimer);
    const ws = this.workers.splice(0);
    // drain: wait for this node's running jobs; else drop them as a dying node would (their locks lapse). Asked to
    // close first, so that no worker takes another job while the runs end.
    if (drain) {
      for (const w of ws) void w.close(false).catch(() => undefined);
      await Promise.allSettled([...this.runs]);
    }
    // the runs are over (or dropped): what is left of a close is connections, bounded (bullmq-close.ts says why)
    const clean = await Promise.all(ws.map((w) => closeWorker(w, !drain, CLOSE_MS, this.duplicates.get(w))));
    for (const w of ws) this.duplicates.delete(w);
    if (clean.includes(false)) this.opts.log?.warn({ msg: 'a job worker did not close in time; its connections were dropped' });
  }

  async close(opts: { drain?: boolean } = {}): Promise<void> {
    await this.stopTaking(opts);
    const clean = await Promise.all(Object.values(this.queues).map((q) => closeQueue(q, CLOSE_MS)));
    if (clean.includes(false)) this.opts.log?.warn({ msg: 'a job queue did not close in time; its connection was dropped' });
    for (const c of this.conns.splice(0)) c.disconnect();
  }
}
