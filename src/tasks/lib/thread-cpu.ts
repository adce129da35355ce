// A thread's scheduler statistics (Linux /proc/…/schedstat: ns on a CPU, ns waiting on a run queue, timeslices),
// read through a descriptor opened once (≈ 17 µs a positioned read), for budgets that must not depend on the
// machine's load: wall time stretches when other processes share the cores.
//  - threadCpuMs(): the calling thread's CPU time (the QR grid reader's budget, session 15). Node 20 has no
//    per-thread CPU clock (process.threadCpuUsage is Node 23.9+) and process.cpuUsage sums every thread of the
//    process (the other pool workers too); without /proc, process.cpuUsage stands in.
//  - Schedstat: any thread's file, e.g. a pool worker's run-queue wait read by the main thread (pool/thread-wait.ts).
import { closeSync, openSync, readSync } from 'node:fs';

const buf = Buffer.alloc(96);

/** One thread's schedstat file, opened once (null fd: no /proc, or the thread has ended). */
export class Schedstat {
  private fd: number | null;

  constructor(path: string) {
    try {
      this.fd = openSync(path, 'r');
    } catch {
      this.fd = null;
    }
  }

  /** ms on a CPU and ms waiting on a run queue since the thread started (clocks for differences), or undefined */
  read(): { cpuMs: number; waitMs: number } | undefined {
    if (this.fd === null) return undefined;
    try {
      const [cpu, wait] = buf.toString('latin1', 0, readSync(this.fd, buf, 0, buf.length, 0)).split(' ').map(Number);
      return Number.isFinite(cpu) && Number.isFinite(wait) ? { cpuMs: cpu! / 1e6, waitMs: wait! / 1e6 } : undefined;
    } catch {
      return undefined; // the thread ended (its worker was terminated)
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

let own: Schedstat | undefined;

/** Milliseconds of CPU this thread has used (a clock for differences only). */
export function threadCpuMs(): number {
  if (own === undefined) {
    const s = (own = new Schedstat('/proc/thread-self/schedstat'));
    // fds belong to the process: a pool worker that ends closes its own
    process.once('exit', () => { try { s.close(); } catch { /* already closed */ } });
  }
  const r = own.read();
  if (r) return r.cpuMs;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
