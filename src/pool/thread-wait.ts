// How long a thread waited for a CPU (Linux): the second field of /proc/<pid>/task/<tid>/schedstat is the ns the
// thread spent runnable on a run queue but not running (the first is ns on a CPU, the third its timeslices). A
// task's time budget subtracts this wait from its wall time (src/pool/budget-clock.ts): on a loaded machine an
// honest task is runnable but not running, and that is the machine's load, not the task's work. A thread asleep on a
// timer, I/O, a lock or Atomics.wait is not on a run queue: that time stays the task's.
//
// The MAIN thread reads the worker thread's file, by the tid the worker sends when its task starts: a worker spinning
// in JS cannot answer messages (its event loop is blocked), exactly the runaway case the budget exists for, so the
// worker reporting its own wait would fail when it matters. Node 20 has no gettid(); /proc/thread-self links to
// "<pid>/task/<tid>".
import { readlinkSync } from 'node:fs';
import { Schedstat } from '../tasks/lib/thread-cpu.js';

/** worker side: this thread's Linux thread id, or undefined where /proc is missing (not Linux) */
export function ownTid(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** A thread of this process whose run-queue wait can be read (its schedstat opened once). */
export class ThreadWait {
  private readonly stat: Schedstat;

  constructor(tid: number) {
    this.stat = new Schedstat(`/proc/self/task/${tid}/schedstat`);
  }

  /** ms the thread has waited on a run queue since it started (a clock for differences), undefined if unreadable */
  ms(): number | undefined {
    return this.stat.read()?.waitMs;
  }

  close(): void {
    this.stat.close();
  }
}
