// The process's exit while a pool worker is inside onnxruntime (issue 19, abort21): process.exit and an uncaught
// exception on the main thread end with their own exit code, never with a native abort. Each trial is a child
// process; the delays move the exit from the session's creation into the detector runs.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./exit-in-native.child.ts', import.meta.url));
const trial = (how: string, extraMs: number) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', child, how, String(extraMs)], { encoding: 'utf8', timeout: 300_000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  return { status: r.status, signal: r.signal, out: line.startsWith('{') ? JSON.parse(line) : {}, stderr: r.stderr };
};

for (const extraMs of [0, 300, 1200]) {
  t.test(`process.exit(7) ${extraMs} ms into a model call: exit code 7, no abort`, async (t) => {
    const r = trial('exit', extraMs);
    t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
    t.equal(r.status, 7);
    t.notMatch(r.stderr, /terminate called/);
    t.same(r.out, { how: 'exit', echoSum: 1, echoSize: 3, inNative: r.out.inNative });
    t.ok(r.out.inNative >= 1, 'the exit was asked while a native call was in flight');
  });
}

t.test('an uncaught exception on the main thread during a model call: status 1 and the error, no abort', async (t) => {
  const r = trial('throw', 300);
  t.equal(r.signal, null, `no signal (stderr: ${r.stderr.slice(-300)})`);
  t.equal(r.status, 1);
  t.match(r.stderr, /main thread fails while a worker runs the detector/);
  t.notMatch(r.stderr, /terminate called/);
  t.ok(r.out.inNative >= 1);
});
