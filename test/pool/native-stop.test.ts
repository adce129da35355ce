// Issue 12: a worker stopped inside onnxruntime (time budget, caller abort, pool shutdown) must not take the process
// down. Each case runs in a child process (a native abort kills the process that holds the pool).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./stop-in-native.child.ts', import.meta.url));
const run = (scenario: string): { status: number | null; signal: string | null; out: Record<string, any>; stderr: string } => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', child, scenario], { encoding: 'utf8', timeout: 300_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { status: r.status, signal: r.signal, out: line.startsWith('{') ? JSON.parse(line) : {}, stderr: r.stderr };
};

t.test('time budget ends inside a detector run: the task fails with 503, the process lives, the pool goes on', async (t) => {
  const r = run('budget');
  t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
  t.equal(r.status, 0);
  t.equal(r.out.task.ok, false);
  t.equal(r.out.task.code, 'SERVICE_BUSY');
  t.equal(r.out.task.status, 503);
  t.match(r.out.task.message, /exceeded its time budget of 250 ms/);
  t.same(r.out.after, { ok: true, value: { threadId: r.out.after.value.threadId, size: 3, data: r.out.after.value.data, sum: 0 } });
});

t.test('the caller aborts inside a detector run: AbortError, the process lives, the pool goes on', async (t) => {
  const r = run('signal');
  t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
  t.equal(r.status, 0);
  t.equal(r.out.task.ok, false);
  t.equal(r.out.task.name, 'AbortError');
  t.equal(r.out.after.ok, true);
  t.equal(r.out.after.value.size, 3);
});

t.test('pool closed with a detector task in flight: the task ends with its answer, then the pool closes', async (t) => {
  const r = run('close');
  t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
  t.equal(r.status, 0);
  t.equal(r.out.closed, true);
  t.equal(r.out.task.ok, true);
  t.equal(r.out.task.value.runs, 2);
  t.equal(r.out.task.value.size, 640);
});

t.test('another worker dies while one runs the detector: the dead one is replaced, the detector answers, no abort', async (t) => {
  const r = run('crash-beside');
  t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
  t.equal(r.status, 0);
  t.equal(r.out.crash.ok, false);
  t.match(r.out.crash.message, /exited with code: 3/);
  t.equal(r.out.task.ok, true);
  t.equal(r.out.task.value.runs, 3);
  t.equal(r.out.task.value.size, 640);
  t.equal(r.out.after.ok, true);
  t.equal(r.out.after.value.size, 3);
});
