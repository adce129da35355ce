// The embedded request log (usage/request-log.ts): batches stored as the byte slabs their entries were written into
// (usage/entry-slab.ts); batches stored by earlier versions (plain arrays, then msgpack bytes with record shapes
// inline) still read; newest first with a working cursor across all three.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Packr } from 'msgpackr';
import { Store } from '../../src/store/env.js';
import { RequestLog, type RequestLogEntry } from '../../src/usage/request-log.js';
import { EntrySlab } from '../../src/usage/entry-slab.js';

/** a Store in a fresh temporary directory, closed and removed after the test */
function tempStore(t: { teardown(fn: () => Promise<void>): void }): Store {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-reqlog-'));
  const store = new Store(dir);
  t.teardown(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

const entry = (time: number, status = 200): RequestLogEntry => ({ time, method: 'GET', path: `/p/${time}`, status, ms: 1.5, requestId: `r${time}` });

t.test('array, packed and slab batches list together, newest first, pages by cursor', async (t) => {
  const store = tempStore(t);
  // batches as earlier versions wrote them: the entries array itself, encoded by LMDB; then msgpackr bytes
  const raw = store.db<RequestLogEntry[] | Uint8Array, [string, number, number]>('request-log-batches');
  await raw.put(['k1', 1002, 0], [entry(1001), entry(1002, 404)]);
  await raw.put(['k1', 1502, 0], new Packr({ useRecords: true }).pack([entry(1501), { ...entry(1502, 429), code: 'RATE_LIMITED' }]));
  const log = new RequestLog(store, 86_400_000);
  log.add('k1', entry(2001));
  log.add('k1', { ...entry(2002, 500), code: 'INTERNAL_ERROR' });
  log.add('k2', entry(2003));
  await log.flush();
  const stored = [...raw.getRange({ start: ['k1', 2000, 0] } as never)].map((x) => x.value as Uint8Array);
  t.ok(stored[0] instanceof Uint8Array && EntrySlab.isSlab(stored[0]), 'the new batch is stored as a slab');

  const all = await log.list('k1', 10);
  t.same(all.entries.map((e) => [e.time, e.status, e.code]), [[2002, 500, 'INTERNAL_ERROR'], [2001, 200, undefined], [1502, 429, 'RATE_LIMITED'], [1501, 200, undefined], [1002, 404, undefined], [1001, 200, undefined]]);
  t.strictSame(all.entries[0], { ...entry(2002, 500), code: 'INTERNAL_ERROR' }, 'every field back as written');
  t.strictSame(all.entries[1], entry(2001), 'no code key when there was none');
  const p1 = await log.list('k1', 3);
  t.same(p1.entries.map((e) => e.time), [2002, 2001, 1502]);
  t.type(p1.next, 'string');
  const p2 = await log.list('k1', 3, p1.next);
  t.same(p2.entries.map((e) => e.time), [1501, 1002, 1001], 'the cursor crosses from a slab into a packed batch and an array batch');
  t.equal(p2.next, undefined);
  t.same((await log.list('k2', 10)).entries.map((e) => e.time), [2003], 'per key');
  t.same((await log.list('k1', 10, undefined, 2001)).entries.map((e) => e.time), [2002, 2001], 'since');
});

t.test('a slab keeps every value: non-ASCII paths, fractional ms, large times, growth past its first buffer', async (t) => {
  const slab = new EntrySlab(64);
  const many: RequestLogEntry[] = [];
  for (let i = 0; i < 500; i++) {
    many.push({ time: 1_790_000_000_000 + i, method: i % 2 ? 'POST' : 'GET', path: `/api/v1/law/법령/${i}?q=근로기준법`, status: 200 + (i % 300), ms: i / 100, requestId: `req-${i}`, ...(i % 7 === 0 ? { code: 'INVALID_REQUEST' } : {}) });
  }
  for (const e of many) slab.push(e);
  t.equal(slab.count, 500);
  t.equal(slab.lastTime, 1_790_000_000_499);
  const back = EntrySlab.decode(Uint8Array.from(slab.bytes()));
  t.strictSame(back, many, 'decoded entries equal the written ones, key for key');
  const long = new EntrySlab();
  long.push({ ...entry(1), path: '/x'.repeat(5000) });
  t.equal(EntrySlab.decode(long.bytes())[0]!.path.length, 4096, 'a path over 4,096 bytes is cut there');
  t.notOk(EntrySlab.isSlab(new Packr({ useRecords: true }).pack([entry(1)])), 'msgpack bytes are not taken for a slab');
});

t.test('a list right after a flush it did not start (the timer\'s) still sees that flush\'s entries', async (t) => {
  const store = tempStore(t);
  const log = new RequestLog(store, 86_400_000);
  log.add('k', entry(1));
  log.add('k', entry(2));
  const timerFlush = log.flush(); // as the 250 ms timer does: not awaited by the reader
  t.same((await log.list('k', 10)).entries.map((e) => e.time), [2, 1]);
  await timerFlush;
});

t.test('a slab writes a repeated method, path and code once and reads every entry back whole', async (t) => {
  const slab = new EntrySlab(64);
  const path = '/api/v1/text-to-image/status/txt2img_20261124_aaaaaaaaaaaa';
  const es = [
    { time: 1, method: 'GET', path, status: 200, ms: 0.5, requestId: 'r1' },
    { time: 2, method: 'GET', path, status: 429, ms: 0.25, requestId: 'r2', code: 'RATE_LIMITED' },
    { time: 3, method: 'GET', path, status: 429, ms: 0.25, requestId: 'r3', code: 'RATE_LIMITED' },
    { time: 4, method: 'POST', path: '/경로', status: 200, ms: 1, requestId: 'r4' },
    { time: 5, method: 'POST', path: '/경로', status: 400, ms: 1, requestId: 'r5', code: '' },
    { time: 6, method: 'GET', path, status: 200, ms: 2, requestId: 'r6' },
  ];
  const once = new EntrySlab(64);
  once.push(es[0]!);
  for (const e of es) slab.push(e);
  t.same(EntrySlab.decode(slab.bytes()), es, 'every field back, repeats included (an empty code stays empty)');
  const repeatBytes = slab.bytes().length;
  const single = once.bytes().length - 2;
  t.ok(repeatBytes < 2 + 6 * single, `repeats are shorter than six whole entries (${repeatBytes} bytes)`);
  t.equal(slab.bytes()[1], 2, 'written as version 2');
});

t.test('a version 1 slab (no repeat marks) is still read', async (t) => {
  const es = [
    { time: 1, method: 'GET', path: '/a', status: 200, ms: 0.5, requestId: 'r1' },
    { time: 2, method: 'POST', path: '/b', status: 429, ms: 0.25, requestId: 'r2', code: 'RATE_LIMITED' },
  ];
  const slab = new EntrySlab(64);
  for (const e of es) slab.push(e); // nothing repeats: the bytes are those version 1 wrote
  const v1 = Buffer.from(slab.bytes());
  v1[1] = 1;
  t.ok(EntrySlab.isSlab(v1));
  t.same(EntrySlab.decode(v1), es);
});
