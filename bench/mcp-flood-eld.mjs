// Preloaded into the mcp-flood server child (`--import`): the server's own event-loop delay (perf_hooks
// monitorEventLoopDelay, 1 ms resolution). Each SIGUSR2 appends {p50, p99, max, mean} (ms) of the histogram since the
// previous one to the file named by SEJONG_BENCH_ELD_FILE, and starts a new one. Code-independent, so it measures a
// server of another tree (`--base`) the same way. Plain JavaScript: worker threads inherit the --import and load it
// before any TypeScript loader; there it does nothing (the event loop measured is the main thread's).
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SEJONG_BENCH_ELD_FILE;
if (file && isMainThread) {
  let h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    fs.appendFileSync(file, JSON.stringify({ p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean) }) + '\n');
    h.disable();
    h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
  });
}
