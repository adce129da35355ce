// CPU time of the calling thread, for budgets that must not depend on the machine's load (session 15): wall time
// stretches when other processes share the cores, so a wall budget reads fewer candidates on a busy machine and
// the answer for the same image changes. Node 20 has no per-thread CPU clock (process.threadCpuUsage is Node
// 23.9+) and process.cpuUsage sums every thread of the process (the other pool workers too), so on Linux the
// thread's own /proc/thread-self/schedstat (first field: ns on a CPU) is read through a descriptor opened once per
// thread (≈ 17 µs a read); elsewhere process.cpuUsage stands in.
import { closeSync, openSync, readSync } from 'node:fs';

let fd: number | null | undefined;
const buf = Buffer.alloc(64);

function open(): number | null {
  try {
    const d = openSync('/proc/thread-self/schedstat', 'r');
    // fds belong to the process: a pool worker that ends closes its own
    process.once('exit', () => { try { closeSync(d); } catch { /* already closed */ } });
    return d;
  } catch {
    return null;
  }
}

/** Milliseconds of CPU this thread has used (a clock for differences only). */
export function threadCpuMs(): number {
  if (fd === undefined) fd = open();
  if (fd !== null) {
    const n = readSync(fd, buf, 0, buf.length, 0);
    return Number.parseInt(buf.toString('latin1', 0, n), 10) / 1e6;
  }
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
