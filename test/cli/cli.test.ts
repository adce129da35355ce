import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/sejong.js', import.meta.url));
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

t.test('--help everywhere, unknown command, invalid setting', async (t) => {
  const h = run(['--help']);
  t.equal(h.status, 0);
  t.match(h.stdout, /Commands:[\s\S]*serve[\s\S]*keys[\s\S]*law/);
  t.match(run(['serve', '--help']).stdout, /Usage: sejong serve/);
  t.match(run(['keys', '--help']).stdout, /Usage: sejong keys/);
  const u = run(['frobnicate']);
  t.equal(u.status, 2);
  t.match(u.stderr, /Unknown command "frobnicate"/);
  const bad = run(['serve'], { SEJONG_PORT: 'abc', SEJONG_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cli-')) });
  t.equal(bad.status, 78);
  t.match(bad.stderr, /Invalid setting SEJONG_PORT: expected an integer between 0 and 65535, got "abc"/);
});

t.test('keys create, list, revoke on the data dir', async (t) => {
  const env = { SEJONG_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cli-')) };
  const c = run(['keys', 'create', '--name', 'kiosk', '--per-minute', '7'], env);
  t.equal(c.status, 0, c.stderr);
  const created = JSON.parse(c.stdout);
  t.match(created, { id: /^key_/, key: /^sk_/, name: 'kiosk', rateLimitPerMinute: 7 });
  const l = JSON.parse(run(['keys', 'list'], env).stdout);
  t.equal(l.length, 1);
  t.notOk(JSON.stringify(l).includes(created.key));
  const r = JSON.parse(run(['keys', 'revoke', created.id], env).stdout);
  t.ok(r.revokedAt);
  const bad = run(['keys', 'create', '--name', 'x', '--per-minute=0'], env);
  t.equal(bad.status, 1);
  t.match(bad.stderr, /--per-minute expects a positive integer/);
});

t.test('serve: first start prints the admin key once, logs the port, stops on SIGTERM', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-cli-'));
  const start = () => {
    const p = spawn(process.execPath, [bin, 'serve'], { env: { ...process.env, SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_WORKERS: '1', SEJONG_ADMIN_KEY: '' } });
    let out = '';
    const ready = new Promise<{ port: number; out: () => string }>((resolve, reject) => {
      p.stdout.on('data', (d) => {
        out += d;
        const m = /\{"msg":"listening","port":(\d+)\}/.exec(out);
        if (m) resolve({ port: Number(m[1]), out: () => out });
      });
      p.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    return { p, ready, exit: new Promise<number | null>((r) => p.on('exit', (c) => r(c))) };
  };
  const a = start();
  const { port, out } = await a.ready;
  const adminKey = /"adminKey":"(sk_[^"]+)"/.exec(out())?.[1];
  t.ok(adminKey, 'admin key printed on first start');
  const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json();
  t.same(health, { status: 'ok' });
  const keys = await fetch(`http://127.0.0.1:${port}/api/v1/admin/keys`, { headers: { 'x-api-key': adminKey! } });
  t.equal(keys.status, 200, 'the printed key is the admin key');
  a.p.kill('SIGTERM');
  t.equal(await a.exit, 0, 'clean exit on SIGTERM');

  const b = start();
  const second = await b.ready;
  t.notMatch(second.out(), /adminKey/, 'not printed again on the next start');
  b.p.kill('SIGINT');
  t.equal(await b.exit, 0);
});
