// V8 heap figures of every thread of a running node process, without code in it: the process is started with
// `--report-on-signal --report-directory=DIR --report-compact` (NODE_OPTIONS); SIGUSR2 makes it write a diagnostic
// report, which holds the main isolate's javascriptHeap and, under `workers`, one report per worker thread.
import fs from 'node:fs';
import path from 'node:path';

export const reportOptions = (dir: string) => `--report-on-signal --report-directory=${dir} --report-compact`;

export interface IsolateHeap {
  /** 0 = the main thread, else the worker's threadId (in order of creation) */
  threadId: number;
  /** MB: V8 heap committed, used, the young generation committed, external (array buffers …) */
  committed: number;
  used: number;
  young: number;
  external: number;
}

interface Heap { totalCommittedMemory: number; usedMemory: number; externalMemory: number; heapSpaces: Record<string, { committedMemory: number }> }
interface Report { header: { threadId: number | null }; javascriptHeap: Heap; workers?: Report[] }

const mb = (b: number) => Math.round(b / 1048576 * 10) / 10;

function heapOf(r: Report): IsolateHeap {
  const h = r.javascriptHeap;
  return { threadId: r.header.threadId ?? 0, committed: mb(h.totalCommittedMemory), used: mb(h.usedMemory), young: mb(h.heapSpaces.new_space?.committedMemory ?? 0), external: mb(h.externalMemory) };
}

/** signal pid for a report into dir, wait for it (≤ timeoutMs) and answer each isolate's heap */
export async function isolateHeaps(pid: number, dir: string, timeoutMs = 60_000): Promise<IsolateHeap[]> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    await new Promise((r) => setTimeout(r, 200));
    const f = fs.readdirSync(dir).find((n) => n.endsWith('.json') && !before.has(n));
    if (!f) continue;
    let r: Report;
    try { r = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Report; } catch { continue; } // still being written
    fs.rmSync(path.join(dir, f));
    return [heapOf(r), ...(r.workers ?? []).map(heapOf)].sort((a, b) => a.threadId - b.threadId);
  }
  throw new Error(`no report from ${pid} in ${timeoutMs} ms`);
}
