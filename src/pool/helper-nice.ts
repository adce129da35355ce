// libvips runs sharp's pixel work (decode, resize, encode) on its own threads ("libvips worker"), created on demand
// by libuv's threadpool threads, which the main thread created: Linux threads inherit the niceness of the thread
// that creates them, so these run at the event loop's priority (0) while the pool's workers run at
// SEJONG_WORKER_NICE, and a saturated pool's decode/encode competes with the event loop on equal terms (issue 19).
// A pool worker calls reniceLibvips() after its tasks: it gives every libvips thread not yet at the worker's own
// niceness that niceness (raising niceness needs no privilege; a thread's niceness is per thread on Linux, set with
// setpriority(PRIO_PROCESS, tid)). Cheap: one readdir of /proc/self/task, and a read of comm only for new threads.
import fs from 'node:fs';
import os from 'node:os';

const seen = new Set<number>();
let last = 0;

/** Give libvips's threads this thread's niceness; at most once per minGapMs; returns how many it changed. */
export function reniceLibvips(minGapMs = 1000): number {
  if (process.platform !== 'linux') return 0;
  const now = performance.now();
  if (now - last < minGapMs) return 0;
  last = now;
  let target: number;
  let tids: string[];
  try {
    target = os.getPriority(); // the calling thread's niceness
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let changed = 0;
  for (const t of tids) {
    const tid = Number(t);
    if (seen.has(tid)) continue;
    try {
      const comm = fs.readFileSync(`/proc/self/task/${t}/comm`, 'latin1');
      if (!comm.startsWith('libvips')) {
        seen.add(tid);
        continue;
      }
      if (os.getPriority(tid) < target) {
        os.setPriority(tid, target);
        changed++;
      }
      seen.add(tid);
    } catch {
      // the thread ended, or another worker reniced it first
    }
  }
  return changed;
}
