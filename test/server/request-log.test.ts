// Every log line of a request carries its id: handlers log through ctx.log (a child logger with reqId), the
// request line and the unhandled-error line carry the same id, and a sane incoming x-request-id is kept.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server/start.js';
import { HttpServer } from '../../src/server/app.js';
import type { RouteDef } from '../../src/server/types.js';

t.test('log lines of a request carry its request id', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({ write(chunk, _enc, cb) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); cb(); } });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-reqlog-'));
  const s = await startServer(loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dir, SEJONG_ADMIN_KEY: 'sk_admin_reqlog_test_000', SEJONG_WORKERS: '1', SEJONG_WARMUP: 'off' }), { log: pino({ level: 'info' }, sink) });
  t.teardown(async () => {
    await s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const routes: RouteDef[] = [
    { method: 'GET', path: '/t/logs', auth: 'none', summary: 'logs', handler: (ctx) => { ctx.log.info({ msg: 'inside the handler' }); return { ok: true }; } },
    { method: 'GET', path: '/t/boom', auth: 'none', summary: 'throws', handler: () => { throw new Error('kaboom'); } },
  ];
  const fe = new HttpServer(s.services, routes);
  const port = await fe.listen('127.0.0.1', 0);
  const r = await fetch(`http://127.0.0.1:${port}/t/logs`, { headers: { 'x-request-id': 'client-id-42' } });
  t.equal(r.headers.get('x-request-id'), 'client-id-42');
  const boom = await fetch(`http://127.0.0.1:${port}/t/boom`, { headers: { 'x-request-id': 'bad id with spaces' } });
  t.equal(boom.status, 500);
  const id = boom.headers.get('x-request-id')!;
  t.not(id, 'bad id with spaces', 'an insane incoming id is replaced');
  await fe.close();
  await new Promise((res) => setImmediate(res));
  const inside = lines.find((l) => l.msg === 'inside the handler');
  t.equal(inside?.reqId, 'client-id-42');
  t.equal(lines.find((l) => l.msg === 'request' && l.route === '/t/logs')?.reqId, 'client-id-42');
  const err = lines.find((l) => l.msg === 'unhandled error');
  t.equal(err?.reqId, id, 'the error line carries the id of the 500 answer');
  t.match((err?.err as { message?: string })?.message, /kaboom/);
});
