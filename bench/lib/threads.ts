// Per-thread CPU of a process from /proc/PID/task/*/stat (Linux): load-insensitive figures for the benches. A
// snapshot holds each thread's name (comm), niceness and CPU time (utime + stime); diff() of two snapshots gives
// CPU-seconds per thread over the interval, and group() sums them by role (main thread, pool workers, libuv
// threadpool, libvips, V8 helpers) with the niceness each group ran at.
import fs from 'node:fs';

export interface ThreadStat {
  tid: number;
  comm: string;
  nice: number;
  /** CPU seconds (user + system) since the thread started */
  cpu: number;
}

/** clock ticks per second of /proc times (USER_HZ: 100 on every Linux build in use) */
const HZ = 100;

export function snapshot(pid: number): Map<number, ThreadStat> {
  const out = new Map<number, ThreadStat>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    try {
      const s = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'latin1');
      const open = s.indexOf('('), close = s.lastIndexOf(')');
      const f = s.slice(close + 2).split(' '); // f[0] = field 3 (state)
      out.set(Number(t), { tid: Number(t), comm: s.slice(open + 1, close), nice: Number(f[16]), cpu: (Number(f[11]) + Number(f[12])) / HZ });
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

/** CPU seconds each thread used between two snapshots (threads born in between count from 0) */
export function diff(a: Map<number, ThreadStat>, b: Map<number, ThreadStat>): ThreadStat[] {
  return [...b.values()].map((t) => ({ ...t, cpu: t.cpu - (a.get(t.tid)?.cpu ?? 0) }));
}

/** the role of a thread: the main thread, the pool's workers (named by src/pool/worker.ts), libvips, or the rest
 * (V8's platform threads — concurrent GC and compilation for every isolate — and libuv's threadpool) */
export function role(t: ThreadStat, pid: number): string {
  if (t.tid === pid) return 'main';
  if (t.comm.startsWith('sejong-pool')) return 'pool';
  if (t.comm.startsWith('libvips')) return 'libvips';
  return 'v8+uv';
}

export interface Group {
  role: string;
  threads: number;
  /** niceness values seen in the group */
  nice: string;
  cpu: number;
}

export function group(threads: ThreadStat[], pid: number): Group[] {
  const m = new Map<string, { threads: number; nice: Set<number>; cpu: number }>();
  for (const t of threads) {
    const r = role(t, pid);
    const g = m.get(r) ?? { threads: 0, nice: new Set<number>(), cpu: 0 };
    g.threads++;
    g.nice.add(t.nice);
    g.cpu += t.cpu;
    m.set(r, g);
  }
  return [...m].map(([r, g]) => ({ role: r, threads: g.threads, nice: [...g.nice].sort((x, y) => x - y).join('/'), cpu: g.cpu })).sort((x, y) => y.cpu - x.cpu);
}

/** "pool 1.62@19 libvips 0.30@19 v8+uv 0.9@0 main 0.2@0": CPU seconds per image of each role, at its niceness */
export function perImage(groups: Group[], images: number): string {
  return groups.filter((g) => g.cpu > 0.005).map((g) => `${g.role} ${(g.cpu / images).toFixed(3)}@${g.nice}`).join(' ');
}

/**
 * Wait until the process is quiet: less than `maxCores` cores used over `windowMs` (or `timeoutMs` passed). A fresh
 * server still loads modules after it listens (the law search workers, tsx's loader threads); a cell measured in
 * that time counts their start-up as per-image CPU and competes with it for the cores.
 */
export async function settle(pid: number, opts: { maxCores?: number; windowMs?: number; timeoutMs?: number } = {}): Promise<number> {
  const { maxCores = 0.05, windowMs = 500, timeoutMs = 30_000 } = opts;
  const until = performance.now() + timeoutMs;
  const total = (m: Map<number, ThreadStat>): number => [...m.values()].reduce((a, t) => a + t.cpu, 0);
  for (;;) {
    const a = total(snapshot(pid));
    await new Promise((r) => setTimeout(r, windowMs));
    const used = (total(snapshot(pid)) - a) / (windowMs / 1000);
    if (used < maxCores || performance.now() > until) return used;
  }
}
