// The bounded worker pool: long-lived threads running src/tasks/*, buffers transferred. Admission by expected
// waiting time (src/pool/admission.ts): synchronous work beyond the wait budget or the queue length → 503
// SERVICE_BUSY with Retry-After = the estimate; work of accepted async jobs waits (never refused). Every task
// has a time budget: past it the task is aborted (its worker is terminated and replaced) and fails with 503. A worker
// is terminated only outside native onnxruntime calls (src/pool/native-gate.ts): inside one it would abort the process;
// the process's exit waits (bounded) for the running tasks' native calls too (src/pool/exit-guard.ts).
import { Piscina } from 'piscina';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import sharp from 'sharp';
import { ApiError, ERROR_CODES, type ErrorCode } from '../domain/errors.js';
import { collectBuffers, TASK_ERROR_MARK } from './transfer.js';
import type { TaskRequest } from './worker.js';
import { Admission, type Slot } from './admission.js';
import { inJob } from './scope.js';
import { closeGate, newGate } from './native-gate.js';
import { guardAtExit } from './exit-guard.js';
import { BudgetClock, WALL_CAP_FACTOR, type ClockMessage } from './budget-clock.js';
import type { TaskInput, TaskName, TaskOutput } from '../tasks/table.js';

export interface PoolOptions {
  workers: number;
  /** synchronous tasks that may wait for a worker; beyond it 503 */
  queueSize: number;
  /** refuse synchronous tasks whose estimated wait exceeds this (ms); default 10000 (SEJONG_QUEUE_WAIT_MS) */
  waitBudgetMs?: number;
  /** default time budget of one task once running (ms): its own time, not the time its thread waited for a CPU
   *  (src/pool/budget-clock.ts); default 30000 (SEJONG_TASK_TIMEOUT_MS) */
  taskTimeoutMs?: number;
  /** a task is stopped once its running wall time reaches this many times its budget, whatever it waited for a CPU;
   *  default 4 (WALL_CAP_FACTOR); 1 = the budget is wall time (the benches' before) */
  wallCapFactor?: number;
  /** V8 old-generation limit per worker (MB); pixel caps bound the (external) image memory; default 1024 */
  heapMb?: number;
  /** niceness added to the worker threads (the event loop keeps priority over pixel work); default 0 */
  nice?: number;
  /** after this long with no task running or waiting, every worker recycles its OCR sessions (models-trim); 0 = never */
  trimIdleMs?: number;
  /** extra worker data (e.g. limits) */
  workerData?: Record<string, unknown>;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** transfer the input's ArrayBuffers to the worker (the caller must not use them afterwards); default true */
  transfer?: boolean;
  /** wait for a worker however long the queue (never SERVICE_BUSY for load); default true inside an async job */
  wait?: boolean;
  /** time budget of this task once running (ms); default the pool's taskTimeoutMs */
  timeoutMs?: number;
  /** a slot secured earlier with pool.admit(task): runs without a second admission check */
  ticket?: Ticket;
}

/** A secured place in the pool (see WorkerPool.admit); pass it to run() or release() it. */
export interface Ticket {
  readonly task: string;
  release(): void;
}

class TicketImpl implements Ticket {
  used = false;
  constructor(readonly task: string, readonly slot: Slot, private readonly admission: Admission) {}
  release(): void {
    if (!this.used) this.admission.unreserve(this.slot);
    this.used = true;
  }
}

/** longest the process's exit waits for a running task's native call (its budget if shorter) */
const EXIT_WAIT_MS = 30_000;

const busy = (message: string, waitMs: number): ApiError =>
  new ApiError('SERVICE_BUSY', message, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) } });

const stoppedMessage = (task: string, budget: number, wallCap?: number): string =>
  wallCap === undefined
    ? `The ${task} task exceeded its time budget of ${budget} ms (SEJONG_TASK_TIMEOUT_MS) and was stopped; try a smaller image`
    : `The ${task} task exceeded its time budget of ${budget} ms (SEJONG_TASK_TIMEOUT_MS): it ran ${wallCap} ms of wall time on a machine too busy to give it a CPU, and was stopped; retry later`;

export class WorkerPool {
  private readonly piscina: Piscina;
  private readonly admission: Admission;
  private closed = false;
  /** every run() not yet settled: close() waits for them before it ends the workers */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** tasks handed to a worker and not yet settled (admission lets at most `workers` run) */
  running = 0;
  /** synchronous tasks refused (SERVICE_BUSY), by reason, and tasks stopped at their time budget (for /metrics) */
  readonly refused = { queue_full: 0, wait_budget: 0, shutting_down: 0 };
  timedOut = 0;
  /** the clock of the last task that ended (diagnostics, tests, bench/pool-budget-load.ts): ms of running wall time,
   *  of own time (the budget's measure) and of its thread's run-queue wait */
  lastClock?: { wallMs: number; ownMs: number; runQueueWaitMs: number };
  /** what the last idle trim did on each worker (diagnostics, tests) */
  lastTrim?: Array<{ threadId: number; recycled: string[]; scratchBytesFreed: number }>;
  private trimTimer?: NodeJS.Timeout;
  /** a task other than a trim ran since the last trim */
  private dirty = false;
  constructor(readonly opts: PoolOptions) {
    // sharp must be loaded on the main thread before workers use it (libvips is process-global).
    sharp.concurrency(1);
    // built code (dist/, `npm run build`) runs worker.js directly; from the sources, boot.mjs registers tsx first
    const compiled = import.meta.url.endsWith('.js');
    const filename = fileURLToPath(new URL(compiled ? './worker.js' : './boot.mjs', import.meta.url));
    this.admission = new Admission(opts.workers);
    this.piscina = new Piscina({
      filename,
      minThreads: opts.workers,
      maxThreads: opts.workers,
      idleTimeout: 2 ** 31 - 1,
      workerData: opts.workerData ?? {},
      resourceLimits: { maxOldGenerationSizeMb: opts.heapMb ?? 1024 },
      // per-thread nice (piscina calls @napi-rs/nice inside each worker; Linux niceness is per thread)
      niceIncrement: opts.nice ?? 0,
    });
  }

  get size(): number {
    return this.opts.workers;
  }

  /** tasks waiting for a worker (including secured tickets) */
  get queued(): number {
    return this.admission.queued;
  }

  /** Estimated wait (ms) before a task admitted now would start. */
  estimateWaitMs(): number {
    return this.admission.estimateWaitMs();
  }

  /** Refuse (503 SERVICE_BUSY + Retry-After) when a synchronous task could not start within the budget. */
  check(): void {
    if (this.closed) {
      this.refused.shutting_down++;
      throw new ApiError('SERVICE_BUSY', 'The server is shutting down', { headers: { 'Retry-After': '5' } });
    }
    const wait = this.admission.estimateWaitMs();
    const budget = this.opts.waitBudgetMs ?? 10_000;
    if (this.admission.queued >= this.opts.queueSize) {
      this.refused.queue_full++;
      throw busy(`All ${this.opts.workers} workers are busy and ${this.admission.queued} tasks are waiting; retry in about ${Math.ceil(wait / 1000)} s`, wait);
    }
    if (wait > budget) {
      this.refused.wait_budget++;
      throw busy(`All ${this.opts.workers} workers are busy: the expected wait is ${Math.ceil(wait)} ms, over the ${budget} ms budget; retry later`, wait);
    }
  }

  /** Secure a place for one task now (or throw SERVICE_BUSY): for work that must not be refused later (e.g. after charging). */
  admit(task: TaskName): Ticket {
    this.check();
    return new TicketImpl(task, this.admission.reserve(task), this.admission);
  }

  /** Run one task of the task table (src/tasks/table.ts): its module's default export, called with input. */
  run<N extends TaskName>(task: N, input: TaskInput<N>, opts: RunOptions = {}): Promise<TaskOutput<N>> {
    clearTimeout(this.trimTimer);
    const p = this.runOnce(task, input, opts);
    this.inFlight.add(p);
    const done = (): void => {
      this.inFlight.delete(p);
      if (task === 'models-trim') return;
      this.dirty = true;
      this.armTrim();
    };
    p.then(done, done);
    return p;
  }

  /** Once the pool stays idle for trimIdleMs after work, each worker gives back the memory its OCR sessions grew. */
  private armTrim(): void {
    const idleMs = this.opts.trimIdleMs ?? 0;
    clearTimeout(this.trimTimer);
    if (!idleMs || this.closed || this.inFlight.size > 0) return;
    this.trimTimer = setTimeout(() => {
      if (!this.dirty || this.closed || this.inFlight.size > 0) return;
      this.dirty = false;
      const runs = Array.from({ length: this.opts.workers }, () => this.run('models-trim', { holdMs: 100 }, { wait: true }));
      void Promise.allSettled(runs).then((r) => {
        this.lastTrim = r.flatMap((x) => (x.status === 'fulfilled' ? [x.value] : []));
      });
    }, idleMs);
    this.trimTimer.unref();
  }

  private async runOnce<N extends TaskName>(task: N, input: TaskInput<N>, opts: RunOptions): Promise<TaskOutput<N>> {
    let slot: Slot;
    if (opts.ticket) {
      const t = opts.ticket as TicketImpl;
      if (t.used) throw new Error(`pool ticket for ${t.task} was already used`);
      t.used = true;
      slot = t.slot;
    } else {
      if (this.closed) {
        this.refused.shutting_down++;
        throw new ApiError('SERVICE_BUSY', 'The server is shutting down', { headers: { 'Retry-After': '5' } });
      }
      if (!(opts.wait ?? inJob())) this.check();
      slot = this.admission.reserve(task);
    }
    await this.admission.acquire(slot, opts.signal);
    const budget = opts.timeoutMs ?? this.opts.taskTimeoutMs ?? 30_000;
    const timer = new AbortController();
    // the budget starts when the worker starts the task (not during worker boot or the module's first load), stands
    // still while the task loads a model and leaves out the time its thread waited for a CPU (src/pool/budget-clock.ts)
    const wallCap = budget * (this.opts.wallCapFactor ?? WALL_CAP_FACTOR);
    const clock = new BudgetClock(budget, () => timer.abort(new Error('task time budget exceeded')), wallCap);
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (m: ClockMessage) => clock.on(m));
    // piscina terminates the worker when `kill` aborts: only once the task's gate shows no native call in flight
    const gate = newGate();
    const unguard = guardAtExit(gate, Math.min(budget, EXIT_WAIT_MS));
    const kill = new AbortController();
    const stop = AbortSignal.any(opts.signal ? [opts.signal, timer.signal] : [timer.signal]);
    const onStop = (): void => void closeGate(gate).then(() => kill.abort(stop.reason));
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    const transferList = [...(opts.transfer === false ? [] : collectBuffers(input)), port2] as never;
    this.running++;
    try {
      const out = (await this.piscina.run({ task, input, started: port2, gate } satisfies TaskRequest, { transferList, signal: kill.signal })) as TaskOutput<N>;
      // admission predicts how long a queue waits: wall time (a loaded machine makes it longer), model loads left out
      this.admission.observe(task, clock.ran());
      return out;
    } catch (e) {
      if (timer.signal.aborted) {
        this.timedOut++;
        this.admission.observe(task, clock.ran(), true);
        throw new ApiError('SERVICE_BUSY', stoppedMessage(task, budget, clock.reason === 'wall' ? wallCap : undefined), { headers: { 'Retry-After': '5' } });
      }
      throw this.translate(e);
    } finally {
      stop.removeEventListener('abort', onStop);
      unguard();
      this.running--;
      clock.stop();
      this.lastClock = { wallMs: clock.ran(), ownMs: clock.own(), runQueueWaitMs: clock.waited };
      port1.close();
      this.admission.release(slot);
    }
  }

  private translate(e: unknown): unknown {
    const msg = (e as Error)?.message ?? '';
    const at = msg.indexOf(TASK_ERROR_MARK);
    if (at < 0) return e;
    const info = JSON.parse(msg.slice(at + TASK_ERROR_MARK.length)) as { code: string; message?: string; field?: string; status?: number };
    if (info.code in ERROR_CODES) return new ApiError(info.code as ErrorCode, info.message ?? info.code, { field: info.field, status: info.status });
    return Object.assign(new Error(info.message), { code: info.code, field: info.field });
  }

  /** Refuse new tasks, let the running ones end (each within its time budget), then end the workers. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.trimTimer);
    await Promise.allSettled([...this.inFlight]);
    await this.piscina.close();
  }
}
