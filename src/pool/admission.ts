// Admission for the worker pool: at most `workers` tasks run; the rest wait in a FIFO here (so a task's time
// budget starts when it really starts). New synchronous work is refused by EXPECTED WAITING TIME (a moving
// average of each task's duration), not only by queue length; waiting work (async jobs) is never refused.

/** Prior for a task never seen before (ms). */
const PRIOR_MS = 250;

interface Slot {
  expected: number;
  /** performance.now() when it started running; undefined while waiting or reserved */
  started?: number;
}

export class Admission {
  private readonly avg = new Map<string, number>();
  private readonly running = new Set<Slot>();
  private readonly waiting: { slot: Slot; go: () => void }[] = [];
  /** admitted (ticket) but not yet submitted */
  private readonly reserved = new Set<Slot>();

  constructor(private readonly workers: number) {}

  expectedMs(task: string): number {
    return this.avg.get(task) ?? PRIOR_MS;
  }

  private readonly seen = new Set<string>();

  /** Record a finished task's duration (exponential moving average, weight 0.2). The first run of a task (it
   * loads the task's module and models: a one-off) is not counted unless it hit the time budget. The duration is
   * WALL time (model-load pauses left out), not the task's own time of its budget (src/pool/budget-clock.ts): the
   * estimate answers how long a new client waits, and on a loaded machine the tasks ahead of it take longer in wall
   * time although their own time is the same; observing own time would admit work that then waits past the budget. */
  observe(task: string, ms: number, timedOut = false): void {
    if (!this.seen.has(task)) {
      this.seen.add(task);
      if (!timedOut) return;
    }
    const old = this.avg.get(task);
    this.avg.set(task, old === undefined ? ms : old * 0.8 + ms * 0.2);
  }

  get queued(): number {
    return this.waiting.length + this.reserved.size;
  }

  /** Estimated wait (ms) of a task admitted now: remaining work of the running tasks plus all waiting work, over the workers. */
  estimateWaitMs(): number {
    if (this.running.size + this.waiting.length + this.reserved.size < this.workers) return 0;
    const now = performance.now();
    let work = 0;
    for (const s of this.running) work += Math.max(s.expected * 0.1, s.expected - (now - (s.started ?? now)));
    for (const w of this.waiting) work += w.slot.expected;
    for (const s of this.reserved) work += s.expected;
    return work / this.workers;
  }

  reserve(task: string): Slot {
    const slot: Slot = { expected: this.expectedMs(task) };
    this.reserved.add(slot);
    return slot;
  }

  unreserve(slot: Slot): void {
    this.reserved.delete(slot);
  }

  /** Wait for a free worker (FIFO). Rejects with signal.reason if aborted while waiting. */
  acquire(slot: Slot, signal?: AbortSignal): Promise<void> {
    this.reserved.delete(slot);
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running.size < this.workers && this.waiting.length === 0) {
      slot.started = performance.now();
      this.running.add(slot);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        slot,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          slot.started = performance.now();
          this.running.add(slot);
          resolve();
        },
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(entry);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  release(slot: Slot): void {
    if (!this.running.delete(slot)) return;
    const next = this.waiting.shift();
    if (next) next.go();
  }
}
export type { Slot };
