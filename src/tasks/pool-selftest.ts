// Pool diagnostics task: echoes buffers back (transfer check), sleeps, throws, or kills its worker.
// Used by the pool's tests and by `bench/` to measure dispatch overhead; harmless in production.
import { threadId } from 'node:worker_threads';

export interface SelftestInput {
  mode: 'echo' | 'sleep' | 'throw' | 'crash' | 'spin';
  ms?: number;
  data?: Uint8Array;
}

export default async function selftest(input: SelftestInput): Promise<{ threadId: number; size: number; data?: Uint8Array; sum?: number }> {
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
    case 'spin': {
      const end = performance.now() + (input.ms ?? 10);
      while (performance.now() < end);
      return { threadId, size: 0 };
    }
    case 'throw':
      throw Object.assign(new Error('selftest asked to fail'), { code: 'INVALID_REQUEST', field: 'mode' });
    case 'crash':
      process.exit(3);
  }
}
