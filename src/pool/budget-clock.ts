// A task's time budget counts its own work, not one-off loading it happens to trigger (an ONNX model's session
// created on first use or after a recycle: 1–3 s of CPU for the OCR models, tens of seconds of wall time on a loaded
// machine, which made the first OCR request after a start answer 503 SERVICE_BUSY).
//
// Two halves over the task's `started` MessagePort:
//  - in the worker, outsideBudget(fn) tells the pool 'pause' before fn and 'resume' after (nested calls count once);
//  - on the main thread, BudgetClock arms the budget's timer at 'start', stops it at 'pause' (keeping what is left;
//    a pause is itself bounded by PAUSE_MAX_MS so a hung load still ends) and re-arms the rest at 'resume'.
//
// Nor does it count the time the task's thread waited for a CPU (issue 19): on a 2-core machine at load 20, OCR and
// enhance tasks needing 2–4 s of CPU ran past 30 s of wall time waiting for a core and were stopped (503, failed
// jobs). The task's own time is its running wall time minus its worker thread's run-queue wait (src/pool/thread-wait.ts;
// the worker sends its tid as the start message). When the timer fires the clock subtracts the wait so far and
// re-arms for what is left; the task is stopped once its own time reaches the budget. What is counted: the worker
// thread, where the task's JS and onnxruntime run (sessions are created with intraOpNumThreads 1 and run on the
// calling thread: src/vision/models.ts). Not subtracted: the waits of sharp's helper threads (libuv threadpool,
// libvips workers, shared by every worker of the process, so not attributable to one task; ≈ 0.05 s CPU of a
// 0.3 s task, bench/RESULTS.md) — the worker sleeps meanwhile, and that sleep counts as the task's time, as does
// sleeping on a timer, I/O or a lock: a hung task is still stopped at its budget. A hard cap bounds the running wall
// time at WALL_CAP_FACTOR × the budget whatever the accounting says. Without /proc (not Linux) the wait reads as
// nothing: the budget is wall time, as before.
import type { MessagePort } from 'node:worker_threads';
import { ThreadWait } from './thread-wait.js';

/** 'start' (tid unknown), a number (start, from the worker thread with this Linux tid), 'pause', 'resume' */
export type ClockMessage = 'start' | 'pause' | 'resume' | number;
/** longest one pause (a model load) may last before the task is stopped anyway */
export const PAUSE_MAX_MS = 120_000;
/** a task is stopped once its running wall time (pauses excluded) reaches this many times its budget */
export const WALL_CAP_FACTOR = 4;
/** the clock re-checks no sooner than this after a check that found time left (bounds the timer's churn) */
const MIN_RECHECK_MS = 5;

let port: MessagePort | undefined;
let depth = 0;

/** worker side: the port of the task this thread runs now (undefined between tasks and outside a pool) */
export function bindBudgetPort(p: MessagePort | undefined): void {
  port = p;
  depth = 0;
}

/** worker side: run fn with the task's budget clock stopped (outside a pool task: just run it) */
export async function outsideBudget<T>(fn: () => Promise<T>): Promise<T> {
  const p = port;
  if (!p) return fn();
  if (depth++ === 0) p.postMessage('pause' satisfies ClockMessage);
  try {
    return await fn();
  } finally {
    if (--depth === 0 && port === p) p.postMessage('resume' satisfies ClockMessage);
  }
}

/** main-thread side: the budget of one task, started, paused and resumed by the worker's messages */
export class BudgetClock {
  private timer: NodeJS.Timeout | undefined;
  startedAt = performance.now();
  /** ms the clock stood still (subtracted from the task's observed duration) */
  paused = 0;
  /** set while paused: when the pause began */
  private pausedAt: number | undefined;
  /** ms the worker thread waited on a run queue while the clock ran */
  waited = 0;
  private thread: ThreadWait | undefined;
  /** the thread's run-queue wait total at the last reading */
  private mark = 0;
  /** why the clock expired: the task's own time reached the budget, or its running wall time the cap */
  reason: 'budget' | 'wall' | undefined;

  constructor(
    private readonly budget: number,
    private readonly expire: () => void,
    private readonly wallCap = budget * WALL_CAP_FACTOR,
  ) {}

  on(m: ClockMessage): void {
    const now = performance.now();
    if (m === 'pause') {
      this.readWait();
      this.pausedAt = now;
      this.arm(this.budget - this.own() + PAUSE_MAX_MS);
    } else if (m === 'resume') {
      if (this.pausedAt === undefined) return;
      this.paused += now - this.pausedAt;
      this.pausedAt = undefined;
      this.mark = this.thread?.ms() ?? 0; // a wait during the pause is not subtracted twice
      this.check();
    } else {
      this.startedAt = now;
      if (typeof m === 'number') {
        this.thread = new ThreadWait(m);
        this.mark = this.thread.ms() ?? 0;
      }
      this.arm(this.budget);
    }
  }

  /** ms the task ran with the clock running (wall time: what a queue behind it waits) */
  ran(): number {
    return (this.pausedAt ?? performance.now()) - this.startedAt - this.paused;
  }

  /** ms of the task's own time: running wall time minus its thread's run-queue wait */
  own(): number {
    return this.ran() - this.waited;
  }

  /** the task ended: the last reading of its thread's wait, then no more timer */
  stop(): void {
    clearTimeout(this.timer);
    if (this.pausedAt === undefined) this.readWait();
    this.thread?.close();
    this.thread = undefined;
  }

  private readWait(): void {
    const w = this.thread?.ms();
    if (w === undefined) return;
    this.waited += w - this.mark;
    this.mark = w;
  }

  /** the timer fired (or a pause ended): stop the task, or re-arm for what is left of its budget and of the cap */
  private check(): void {
    if (this.pausedAt !== undefined) return this.end('budget'); // a pause past PAUSE_MAX_MS
    this.readWait();
    const ran = this.ran(), own = ran - this.waited;
    if (own >= this.budget) return this.end('budget');
    if (ran >= this.wallCap) return this.end('wall');
    this.arm(Math.max(MIN_RECHECK_MS, Math.min(this.budget - own, this.wallCap - ran)));
  }

  private end(reason: 'budget' | 'wall'): void {
    this.reason = reason;
    this.expire();
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), Math.max(0, ms));
  }
}
