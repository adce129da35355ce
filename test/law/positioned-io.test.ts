// readFully / writeFully (law/positioned-io.ts): the side files' positioned reads and writes loop until the whole
// buffer is moved. Short reads and writes are made by handing in fs.readSync / fs.writeSync capped at a few bytes a
// call (a regular file rarely answers short on its own); a file cut short is a real one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { readFully, writeFully } from '../../src/law/positioned-io.js';

function tmpFile(t: { teardown(fn: () => void): void }, bytes: Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-pio-'));
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));
  const f = path.join(dir, 'x.long');
  fs.writeFileSync(f, bytes);
  return f;
}

const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 255);

t.test('a read answered 3 bytes at a time still fills the buffer from its position', async (t) => {
  const fd = fs.openSync(tmpFile(t, bytes), 'r');
  t.teardown(() => fs.closeSync(fd));
  let calls = 0;
  const short = (f: number, b: Uint8Array, off: number, len: number, pos: number) => { calls++; return fs.readSync(f, b, off, Math.min(3, len), pos); };
  const out = new Uint8Array(100);
  t.equal(readFully(fd, out, 450, short), 100);
  t.same([...out], [...bytes.subarray(450, 550)]);
  t.equal(calls, 34, 'ceil(100 / 3) reads');
});

t.test('a file shorter than asked: the bytes that are there, counted', async (t) => {
  const fd = fs.openSync(tmpFile(t, bytes.subarray(0, 120)), 'r');
  t.teardown(() => fs.closeSync(fd));
  const out = new Uint8Array(50);
  t.equal(readFully(fd, out, 100), 20);
  t.same([...out.subarray(0, 20)], [...bytes.subarray(100, 120)]);
  t.equal(readFully(fd, out, 500), 0, 'past the end');
});

t.test('a write taken 5 bytes at a time lands whole at its position', async (t) => {
  const f = tmpFile(t, new Uint8Array(0));
  const fd = fs.openSync(f, 'r+');
  let calls = 0;
  const short = (d: number, b: Uint8Array, off: number, len: number, pos: number) => { calls++; return fs.writeSync(d, b, off, Math.min(5, len), pos); };
  writeFully(fd, bytes.subarray(0, 64), 0, short);
  writeFully(fd, bytes.subarray(500, 540), 64, short);
  fs.closeSync(fd);
  const back = fs.readFileSync(f);
  t.equal(back.length, 104);
  t.same([...back.subarray(0, 64)], [...bytes.subarray(0, 64)]);
  t.same([...back.subarray(64)], [...bytes.subarray(500, 540)]);
  t.equal(calls, 13 + 8);
});
