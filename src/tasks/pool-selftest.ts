// Pool diagnostics task: echoes buffers back (transfer check), sleeps, throws, kills its worker, runs the OCR text
// detector (`onnx`: native onnxruntime calls, for the pool's stop-in-native tests), or waits as a model load would
// (`load`: outside the time budget), burns `ms` of its thread's CPU time (`burn`: as much wall time as the machine's
// load makes it), or blocks its thread on nothing for `ms` (`hang`: Atomics.wait, asleep, not waiting for a CPU).
// Used by the pool's tests and by `bench/` to measure dispatch overhead; harmless in production.
import { threadId } from 'node:worker_threads';
import { outsideBudget } from '../pool/budget-clock.js';
import { threadCpuMs } from './lib/thread-cpu.js';

export interface SelftestInput {
  mode: 'echo' | 'sleep' | 'throw' | 'crash' | 'spin' | 'burn' | 'hang' | 'onnx' | 'load';
  ms?: number;
  /** load: ms spent as a one-off load outside the time budget (as a model's first session), then `ms` of work */
  loadMs?: number;
  /** onnx: detector runs and the side of the square input (default 1 and 640) */
  runs?: number;
  side?: number;
  data?: Uint8Array;
}

export default async function selftest(input: SelftestInput): Promise<{ threadId: number; size: number; data?: Uint8Array; sum?: number; runs?: number; cpuMs?: number }> {
  switch (input.mode) {
    case 'echo': {
      const d = input.data ?? new Uint8Array(0);
      let sum = 0;
      for (let i = 0; i < d.length; i += 4096) sum += d[i]!;
      const out = new Uint8Array(d.length);
      out.set(d);
      return { threadId, size: d.length, data: out, sum };
    }
    case 'sleep':
      await new Promise((r) => setTimeout(r, input.ms ?? 10));
      return { threadId, size: 0 };
    case 'load': {
      await outsideBudget(() => new Promise((r) => setTimeout(r, input.loadMs ?? 10)));
      await new Promise((r) => setTimeout(r, input.ms ?? 10));
      return { threadId, size: 0 };
    }
    case 'spin': {
      const end = performance.now() + (input.ms ?? 10);
      while (performance.now() < end);
      return { threadId, size: 0 };
    }
    case 'burn': {
      const t0 = threadCpuMs();
      let cpuMs = 0;
      while (cpuMs < (input.ms ?? 10)) cpuMs = threadCpuMs() - t0; // each read is ≈ 17 µs of CPU (a syscall)
      return { threadId, size: 0, cpuMs };
    }
    case 'hang':
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, input.ms ?? 10);
      return { threadId, size: 0 };
    case 'onnx': {
      const { run, tensor } = await import('../vision/models.js');
      const side = input.side ?? 640;
      const x = tensor(new Float32Array(3 * side * side).fill(0.5), [1, 3, side, side]);
      let runs = 0;
      while (runs < (input.runs ?? 1)) {
        await run('ocrDet', { x });
        runs++;
      }
      return { threadId, size: side, runs };
    }
    case 'throw':
      throw Object.assign(new Error('selftest asked to fail'), { code: 'INVALID_REQUEST', field: 'mode' });
    case 'crash':
      process.exit(3);
  }
}
