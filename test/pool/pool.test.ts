import t from 'tap';
import { WorkerPool } from '../../src/pool/pool.js';
import { ApiError } from '../../src/domain/errors.js';

t.test('worker pool: transfer, errors, crash isolation, bounded queue', async (t) => {
  const pool = new WorkerPool({ workers: 2, queueSize: 2 });
  t.teardown(() => pool.close());

  const data = new Uint8Array(1 << 20).fill(7);
  const r = await pool.run('pool-selftest', { mode: 'echo', data });
  t.equal(r.size, 1 << 20, 'worker saw the whole buffer');
  t.equal(r.data?.length, 1 << 20, 'result buffer came back');
  t.equal(r.data?.[12345], 7);
  t.equal(data.byteLength, 0, 'input buffer was transferred (detached), not copied');

  await t.rejects(pool.run('pool-selftest', { mode: 'throw' }), { code: 'INVALID_REQUEST', message: 'selftest asked to fail' }, 'task errors keep their code');

  const crash = pool.run('pool-selftest', { mode: 'crash' });
  const other = pool.run('pool-selftest', { mode: 'sleep', ms: 50 });
  await t.rejects(crash, 'the crashing task fails');
  t.equal((await other).size, 0, 'a task on another worker is unaffected');
  const after = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(10) });
  t.equal(after.size, 10, 'the pool replaced the dead worker');

  // 2 running + 2 queued fill it; the next one is refused with SERVICE_BUSY and Retry-After
  const running = [0, 1, 2, 3].map(() => pool.run('pool-selftest', { mode: 'sleep', ms: 300 }));
  await new Promise((r) => setTimeout(r, 30));
  const busy = (await pool.run('pool-selftest', { mode: 'sleep', ms: 1 }).catch((e: unknown) => e)) as ApiError;
  t.ok(busy instanceof ApiError, 'refused');
  t.equal(busy.code, 'SERVICE_BUSY');
  t.equal(busy.status, 503);
  t.ok(Number(busy.headers?.['Retry-After']) >= 1, 'Retry-After set');
  await Promise.all(running);
});
