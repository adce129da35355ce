// `npm run build` emits JavaScript that serves on its own: the built server starts, answers, and its worker
// threads run the built worker.js (a QR code is a pool task), without tsx.
import t from 'tap';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { REPO } from '../helpers/shared.js';

t.test('built code serves, pool tasks included', async (t) => {
  const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  // --noCheck: emit only; CI type-checks the sources once (.ci/run), this test checks what the build emits
  const b = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { cwd: REPO, encoding: 'utf8', timeout: 300_000 });
  t.equal(b.status, 0, b.stdout + b.stderr);
  t.ok(fs.existsSync(path.join(REPO, 'dist', 'pool', 'worker.js')), 'dist/pool/worker.js');
  t.notOk(fs.existsSync(path.join(REPO, 'dist', 'pool', 'boot.mjs')), 'no tsx bootstrap in dist');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-build-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const main = path.join(REPO, 'dist', 'main.js');
  // plain node, no --import tsx: a .ts import anywhere would fail here
  const p = spawn(process.execPath, ['-e', `import(${JSON.stringify(main)}).then((m) => m.main(['serve']))`], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? '', SEJONG_PORT: '0', SEJONG_DATA_DIR: dataDir, SEJONG_WORKERS: '1', SEJONG_ADMIN_KEY: 'sk_build_admin_' + 'x'.repeat(20) },
  });
  t.teardown(() => void p.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = /"msg":"listening","port":(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    p.once('exit', (c) => reject(new Error(`built server exited with ${c}`)));
  });
  // the law tools' worker pool must start from dist/ too (a search runs there)
  const mcp = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) });
  t.equal(mcp.status, 200);
  const sid = mcp.headers.get('mcp-session-id')!;
  const call = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_laws', arguments: { query: '민법' } } }) });
  t.equal(call.status, 200);
  const answer = await call.text();
  t.match(answer, /"structuredContent":\{"total":0,"results":\[\]/, 'search answered from the built law worker (empty store)');
  t.notMatch(answer, /"isError":true/);
  const health = await fetch(`http://127.0.0.1:${port}/health`);
  t.equal(health.status, 200);
  const qr = await fetch(`http://127.0.0.1:${port}/api/v1/qrcode/generate?data=built&size=128x128`);
  t.equal(qr.status, 200);
  const png = Buffer.from(await qr.arrayBuffer());
  t.equal(png.readUInt32BE(0), 0x89504e47, 'PNG signature');
  t.equal(png.readUInt32BE(16), 128, 'PNG width from the worker');
  p.kill('SIGTERM');
  const code = await new Promise((r) => p.once('exit', r));
  t.equal(code, 0, 'graceful stop');
});
