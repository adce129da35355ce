import t from 'tap';
import { WorkerPool } from '../../src/pool/pool.js';
import { inJobScope } from '../../src/pool/scope.js';
import { ApiError } from '../../src/domain/errors.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

t.test('saturated pool refuses sync work by expected wait; waiting work completes', async (t) => {
  // a queue long enough that only the wait estimate can refuse
  const pool = new WorkerPool({ workers: 1, queueSize: 1000, waitBudgetMs: 1000 });
  t.teardown(() => pool.close());
  // teach the moving average that this task takes ~400 ms
  await pool.run('pool-selftest', { mode: 'sleep', ms: 400 }); // the first run (module load) is not counted
  await pool.run('pool-selftest', { mode: 'sleep', ms: 400 });
  t.equal(pool.estimateWaitMs(), 0, 'idle pool: no wait');
  const running = [0, 1, 2, 3].map(() => pool.run('pool-selftest', { mode: 'sleep', ms: 400 }, { wait: true }));
  t.ok(pool.estimateWaitMs() > 1000, 'four queued 400 ms tasks on one worker exceed the 1 s budget');
  const busy = (await pool.run('pool-selftest', { mode: 'sleep', ms: 1 }).catch((e: unknown) => e)) as ApiError;
  t.ok(busy instanceof ApiError, 'refused');
  t.equal(busy.code, 'SERVICE_BUSY');
  t.equal(busy.status, 503);
  t.equal(busy.headers?.['Retry-After'], String(Math.ceil(pool.estimateWaitMs() / 1000)), 'Retry-After is the estimate in seconds');
  t.match(busy.message, /expected wait is \d+ ms, over the 1000 ms budget/);
  t.throws(() => pool.admit('pool-selftest'), { code: 'SERVICE_BUSY' }, 'admit refuses too');

  // the same task inside an accepted async job waits and completes
  const waited = await inJobScope(() => pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(3) }));
  t.equal(waited.size, 3, 'job work waited for a worker and completed');
  const explicit = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(5) }, { wait: true });
  t.equal(explicit.size, 5, '{ wait: true } waits too');
  await Promise.all(running);
  t.equal(pool.queued, 0, 'nothing left waiting');
});

t.test('queue length still bounds sync work; a ticket secures a place', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 2, waitBudgetMs: 600_000 });
  t.teardown(() => pool.close());
  const ticket = pool.admit('pool-selftest');
  t.equal(pool.queued, 1, 'a ticket counts as waiting work');
  const running = [0, 1].map(() => pool.run('pool-selftest', { mode: 'sleep', ms: 200 }).catch((e: unknown) => e));
  await sleep(20);
  await t.rejects(pool.run('pool-selftest', { mode: 'sleep', ms: 1 }), { code: 'SERVICE_BUSY' }, 'queue full');
  const r = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(7) }, { ticket });
  t.equal(r.size, 7, 'the ticketed task ran although the queue was full');
  await t.rejects(pool.run('pool-selftest', { mode: 'echo' }, { ticket }), /already used/, 'a ticket runs one task');
  const results = await Promise.all(running);
  t.equal(results.filter((x) => x instanceof Error).length, 0, 'both sleepers (one running, one waiting beside the ticket) were admitted');
  const t2 = pool.admit('pool-selftest');
  t2.release();
  t.equal(pool.queued, 0, 'a released ticket frees its place');
});

t.test('a task over its time budget is stopped and the pool recovers', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 10, taskTimeoutMs: 300 });
  t.teardown(() => pool.close());
  const err = (await pool.run('pool-selftest', { mode: 'spin', ms: 60_000 }).catch((e: unknown) => e)) as ApiError;
  t.ok(err instanceof ApiError);
  t.equal(err.code, 'SERVICE_BUSY');
  t.match(err.message, /pool-selftest task exceeded its time budget of 300 ms/);
  const ok = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(4) });
  t.equal(ok.size, 4, 'the worker was replaced');
  const own = await pool.run('pool-selftest', { mode: 'sleep', ms: 400 }, { timeoutMs: 5000 }).catch((e: unknown) => e);
  t.equal((own as { size: number }).size, 0, 'a per-task override lengthens the budget');
});

t.test('a one-off load inside a task (a model session) does not count against its time budget', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 10, taskTimeoutMs: 300 });
  t.teardown(() => pool.close());
  // 700 ms of loading and 150 ms of work: the work alone is within 300 ms
  const ok = (await pool.run('pool-selftest', { mode: 'load', loadMs: 700, ms: 150 }).catch((e: unknown) => e)) as { size?: number };
  t.equal(ok.size, 0, 'the task ran to its end');
  // the work after the load still has only what was left of the budget
  const err = (await pool.run('pool-selftest', { mode: 'load', loadMs: 50, ms: 60_000 }).catch((e: unknown) => e)) as ApiError;
  t.ok(err instanceof ApiError);
  t.equal(err.code, 'SERVICE_BUSY');
  t.match(err.message, /exceeded its time budget of 300 ms/);
  // the pool's expected duration of the task leaves the load out (admission learns ≈ 150 ms, not 850)
  const after = await pool.run('pool-selftest', { mode: 'echo', data: new Uint8Array(2) });
  t.equal(after.size, 2, 'the pool goes on');
});
