import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import { WorkerPool } from '../../src/pool/pool.js';
import { greenScreen } from '../helpers/images.js';

function threads(): Array<{ tid: number; comm: string; nice: number }> {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      return [{ tid: Number(tid), comm: fs.readFileSync(`/proc/self/task/${tid}/comm`, 'latin1').trim(), nice: os.getPriority(Number(tid)) }];
    } catch {
      return [];
    }
  });
}

t.test('pool threads: the worker is named sejong-pool and runs at +nice; libvips threads get the worker niceness', { skip: process.platform !== 'linux' && 'Linux only (/proc, per-thread niceness)' }, async (t) => {
  const main = os.getPriority();
  const want = Math.min(19, main + 3);
  const pool = new WorkerPool({ workers: 1, queueSize: 4, nice: 3 });
  t.teardown(() => pool.close());
  const g = await greenScreen({ width: 256, height: 256, feather: 1, seed: 1 });
  const r = await pool.run('chroma-key', { image: g.png, color: 'auto', trimTransparent: false });
  t.equal(r.width, 256, 'the task ran');
  const all = threads();
  const workers = all.filter((x) => x.comm === 'sejong-pool');
  t.equal(workers.length, 1, 'one thread named sejong-pool');
  t.equal(workers[0]!.nice, want, `worker at niceness ${want}`);
  const vips = all.filter((x) => x.comm.startsWith('libvips'));
  t.ok(vips.length >= 1, 'libvips threads exist after a sharp task');
  t.same(vips.map((x) => x.nice), vips.map(() => want), 'every libvips thread at the worker niceness');
  t.equal(all.find((x) => x.tid === process.pid)?.nice, main, 'the main thread keeps its niceness');
});
