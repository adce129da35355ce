// A task's time budget counts its own work, not one-off loading it happens to trigger (an ONNX model's session
// created on first use or after a recycle: 1–3 s of CPU for the OCR models, tens of seconds of wall time on a loaded
// machine, which made the first OCR request after a start answer 503 SERVICE_BUSY).
//
// Two halves over the task's `started` MessagePort:
//  - in the worker, outsideBudget(fn) tells the pool 'pause' before fn and 'resume' after (nested calls count once);
//  - on the main thread, BudgetClock arms the budget's timer at 'start', stops it at 'pause' (keeping what is left;
//    a pause is itself bounded by PAUSE_MAX_MS so a hung load still ends) and re-arms the rest at 'resume'.
import type { MessagePort } from 'node:worker_threads';

export type ClockMessage = 'start' | 'pause' | 'resume';
/** longest one pause (a model load) may last before the task is stopped anyway */
export const PAUSE_MAX_MS = 120_000;

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
  private armedAt = 0;
  private left: number;
  /** ms the clock stood still (subtracted from the task's observed duration) */
  paused = 0;
  private pausedAt = 0;
  startedAt = performance.now();

  constructor(
    budget: number,
    private readonly expire: () => void,
  ) {
    this.left = budget;
  }

  on(m: ClockMessage | number): void {
    const now = performance.now();
    if (m === 'pause') {
      this.left -= now - this.armedAt;
      this.pausedAt = now;
      this.arm(this.left + PAUSE_MAX_MS);
    } else if (m === 'resume') {
      this.paused += now - this.pausedAt;
      this.arm(this.left);
    } else {
      this.startedAt = now;
      this.arm(this.left);
    }
  }

  /** ms the task ran with the clock running */
  ran(): number {
    return performance.now() - this.startedAt - this.paused;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.armedAt = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, ms));
  }
}
