// Issue 12: after an idle period the pool has each worker release and re-create the OCR sessions that ran, so that
// onnxruntime's memory arenas grown by a large page go back (bench/ort-arena.mjs: 486 → 106 MB for the detector).
import t from 'tap';
import { WorkerPool } from '../../src/pool/pool.js';

const nextTrim = async (pool: WorkerPool, before: unknown): Promise<Array<{ threadId: number; recycled: string[]; scratchBytesFreed: number }>> => {
  for (let i = 0; i < 600 && (pool.lastTrim === undefined || pool.lastTrim === before); i++) await new Promise((r) => setTimeout(r, 50));
  return pool.lastTrim!;
};

t.test('idle trim recycles the OCR detector after it ran, nothing after other work, and OCR goes on', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 4, trimIdleMs: 300 });
  t.teardown(() => pool.close());

  const ran = await pool.run('pool-selftest', { mode: 'onnx', runs: 1, side: 320 });
  t.equal(ran.runs, 1);
  const first = await nextTrim(pool, undefined);
  t.same(first, [{ threadId: ran.threadId, recycled: ['ocrDet'], scratchBytesFreed: 0 }], 'the detector session that ran was recycled (no image arrays were kept)');

  const echo = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(2) });
  t.equal(echo.size, 2);
  const second = await nextTrim(pool, first);
  t.same(second, [{ threadId: ran.threadId, recycled: [], scratchBytesFreed: 0 }], 'no OCR since the last trim: nothing recycled');

  const again = await pool.run('pool-selftest', { mode: 'onnx', runs: 2, side: 320 });
  t.same([again.runs, again.size, again.threadId], [2, 320, ran.threadId], 'the re-created session runs');
});

t.test('trimIdleMs 0: no trim', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 4, trimIdleMs: 0 });
  t.teardown(() => pool.close());
  await pool.run('pool-selftest', { mode: 'onnx', runs: 1, side: 320 });
  await new Promise((r) => setTimeout(r, 500));
  t.equal(pool.lastTrim, undefined);
});
