// The embedded request log (usage/request-log.ts): batches packed as msgpack bytes with their record shape inline,
// batches stored as plain arrays by earlier versions still read, newest first with a working cursor across both.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Store } from '../../src/store/env.js';
import { RequestLog, type RequestLogEntry } from '../../src/usage/request-log.js';

const entry = (time: number, status = 200): RequestLogEntry => ({ time, method: 'GET', path: `/p/${time}`, status, ms: 1.5, requestId: `r${time}` });

t.test('old array batches and new packed batches list together, newest first, pages by cursor', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-reqlog-'));
  const store = new Store(dir);
  t.teardown(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // a batch as the earlier version wrote it: the entries array itself, encoded by LMDB
  const raw = store.db<RequestLogEntry[], [string, number, number]>('request-log-batches');
  await raw.put(['k1', 1002, 0], [entry(1001), entry(1002, 404)]);
  const log = new RequestLog(store, 86_400_000);
  log.add('k1', entry(2001));
  log.add('k1', { ...entry(2002, 500), code: 'INTERNAL_ERROR' });
  log.add('k2', entry(2003));
  await log.flush();
  const stored = [...raw.getRange({ start: ['k1', 2000, 0] } as never)].map((x) => x.value as unknown);
  t.ok(stored[0] instanceof Uint8Array, 'the new batch is stored as packed bytes');

  const all = await log.list('k1', 10);
  t.same(all.entries.map((e) => [e.time, e.status, e.code]), [[2002, 500, 'INTERNAL_ERROR'], [2001, 200, undefined], [1002, 404, undefined], [1001, 200, undefined]]);
  t.same(all.entries[0], { ...entry(2002, 500), code: 'INTERNAL_ERROR' }, 'every field back as written');
  const p1 = await log.list('k1', 3);
  t.same(p1.entries.map((e) => e.time), [2002, 2001, 1002]);
  t.type(p1.next, 'string');
  const p2 = await log.list('k1', 3, p1.next);
  t.same(p2.entries.map((e) => e.time), [1001], 'the cursor crosses from a packed batch into an array batch');
  t.equal(p2.next, undefined);
  t.same((await log.list('k2', 10)).entries.map((e) => e.time), [2003], 'per key');
  t.same((await log.list('k1', 10, undefined, 2001)).entries.map((e) => e.time), [2002, 2001], 'since');
});
