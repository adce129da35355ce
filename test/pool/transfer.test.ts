import t from 'tap';
import sharp from 'sharp';
import { collectBuffers, releaseInput } from '../../src/pool/transfer.js';
import { WorkerPool } from '../../src/pool/pool.js';

const filled = (n: number, seed: number): Uint8Array => {
  const a = new Uint8Array(n);
  for (let i = 0; i < n; i++) a[i] = (i * 31 + seed) & 255;
  return a;
};

t.test('releaseInput frees the input buffers the output does not use, and only those', async (t) => {
  const image = filled(1 << 20, 1);
  const kept = filled(1 << 20, 2);
  const part = filled(1 << 20, 3);
  const small = filled(1000, 4);
  const outBytes = filled(300_000, 5);
  const input = { image, nested: [{ kept }, { part }], small };
  const output = { png: outBytes, same: kept, slice: part.subarray(10, 20) };
  releaseInput(input, output);
  t.equal(image.byteLength, 0, 'the input image is detached (its memory freed)');
  t.equal(image.buffer.byteLength, 0);
  t.equal(kept.byteLength, 1 << 20, 'a buffer the output returns whole is kept');
  t.equal(kept[12345], (12345 * 31 + 2) & 255, 'with its bytes');
  t.equal(part.byteLength, 1 << 20, 'a buffer the output holds a view into is kept');
  t.same([...output.slice], [...filled(1 << 20, 3).subarray(10, 20)], 'the view reads the same bytes');
  t.equal(small.byteLength, 1000, 'buffers under 64 KB are left to the GC');
  t.equal(outBytes.byteLength, 300_000, 'the output is untouched');
});

t.test('releaseInput leaves views into a larger buffer and native (sharp) buffers alone', async (t) => {
  const slab = new ArrayBuffer(1 << 20);
  const view = new Uint8Array(slab, 4096, 200_000);
  const raw = await sharp({ create: { width: 256, height: 256, channels: 4, background: '#208040' } }).raw().toBuffer();
  t.equal(collectBuffers({ raw }).size, 1, 'sharp output counts as a whole buffer');
  releaseInput({ view, raw }, undefined);
  t.equal(view.byteLength, 200_000, 'a partial view: the rest of its buffer may belong to someone else');
  t.equal(raw.byteLength, 256 * 256 * 4, 'native memory cannot be detached: left to the GC, no error');
  t.equal(raw[3], 255);
});

t.test('through the pool: a task\'s answer is intact after its input was released in the worker', async (t) => {
  const pool = new WorkerPool({ workers: 1, queueSize: 4 });
  t.teardown(() => pool.close());
  for (let k = 0; k < 3; k++) {
    const data = filled(2 << 20, k);
    const sum = (() => {
      let s = 0;
      for (let i = 0; i < data.length; i += 4096) s += data[i]!;
      return s;
    })();
    const r = await pool.run('pool-selftest', { mode: 'echo', data });
    t.equal(r.size, 2 << 20);
    t.equal(r.sum, sum, `round ${k}: the worker read the whole input`);
    t.same(r.data!.subarray(0, 64), filled(2 << 20, k).subarray(0, 64), `round ${k}: the answer's bytes`);
    t.equal(r.data![(2 << 20) - 1], ((2 << 20) - 1) * 31 + k & 255);
  }
});
