// The law threads' CPUs (issue 19: /health under an MCP flood; SEJONG_LAW_CPUS, opt-in). The kernel schedules a
// process's threads as one group per CPU against the machine's other processes (autogroup, cgroups): while a law
// thread keeps a CPU busy, the event loop woken on that same CPU waits behind the other processes' turns as well as
// the law thread's, whatever the law thread's niceness or policy (SCHED_IDLE and SCHED_BATCH were measured: no
// better than niceness; bench/RESULTS.md, front23). Kept off one CPU, the law threads leave the event loop a CPU
// where its group has been idle — when the event loop wakes there: it is not pinned itself (threads inherit their
// creator's CPUs: the image pool's and libuv's would follow), and on a loaded machine it was seen staying on the law
// thread's CPU, so this is not the default. Node cannot set a thread's affinity, so the thread asks util-linux's
// taskset to set its own by tid (a thread may always narrow its own CPUs; no privilege). Where taskset is missing or
// refused, the thread keeps every CPU and the caller logs why.
import { execFile } from 'node:child_process';
import fs from 'node:fs';

export type LawCpus = 'spare-one' | 'any';

/** CPU numbers of a kernel cpu list ("0-3,8,10-11") */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.trim().split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a)) continue;
    for (let c = a!; c <= (Number.isInteger(b) ? b! : a!); c++) out.push(c);
  }
  return out;
}

/** The CPUs a law thread keeps out of `allowed` (the process's): all but the first, or null (leave them all). */
export function lawCpusOf(allowed: number[], mode: LawCpus): number[] | null {
  if (mode === 'any' || allowed.length < 2) return null;
  return allowed.slice(1);
}

/** this thread's kernel id and allowed CPUs (Linux), or null */
function ownThread(): { tid: number; allowed: number[] } | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    const m = /^Cpus_allowed_list:\s*(.+)$/m.exec(fs.readFileSync('/proc/thread-self/status', 'latin1'));
    return m ? { tid, allowed: parseCpuList(m[1]!) } : null;
  } catch {
    return null;
  }
}

/** Narrow the calling thread's CPUs by `mode`; resolves the CPUs it keeps (null: all), or an Error saying why not. */
export function pinOwnThread(mode: LawCpus): Promise<number[] | null | Error> {
  if (mode === 'any') return Promise.resolve(null);
  const me = ownThread();
  if (!me) return Promise.resolve(new Error('no /proc/thread-self (not Linux)'));
  const cpus = lawCpusOf(me.allowed, mode);
  if (!cpus) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile('taskset', ['--pid', '--cpu-list', cpus.join(','), String(me.tid)], { timeout: 5000 }, (err, _out, stderr) => {
      resolve(err ? new Error(`taskset failed: ${(stderr || err.message).trim()}`) : cpus);
    });
  });
}
