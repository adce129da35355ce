import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server/start.js';
import { sharedModeEnv } from '../test/helpers/engines.js';
const mode = process.argv[2] ?? 'shared';
const png = await sharp({ create: { width: 20000, height: 10, channels: 3, background: { r: 120, g: 130, b: 140 } } }).png().toBuffer();
const img = http.createServer((_q, s) => { s.writeHead(200, { 'content-type': 'image/png' }); s.end(png); });
await new Promise<void>((r) => img.listen(0, '127.0.0.1', () => r()));
const env: Record<string, string> = { SEJONG_HOST: '127.0.0.1', SEJONG_PORT: '0', SEJONG_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-test-')), SEJONG_WORKERS: '2', SEJONG_ADMIN_KEY: 'sk_test_admin_' + 'x'.repeat(20), SEJONG_WARMUP: 'off', SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_LOG_LEVEL: 'debug' };
if (mode === 'shared') Object.assign(env, (await sharedModeEnv()).env);
const server = await startServer(loadConfig(env), { log: pino({ level: 'debug' }), printSecret: () => undefined });
const { key } = await server.services.keys.create({ name: 't', now: Date.now() });
const r = await fetch(server.url + '/api/v1/studio/skin-retouch', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ imageUrl: `http://127.0.0.1:${(img.address() as any).port}/x.png` }) });
const b = (await r.json()) as any;
console.error('POST', r.status, JSON.stringify(b).slice(0, 200));
for (let i = 0; i < 120; i++) {
  const st = (await (await fetch(server.url + `/api/v1/studio/status/${b.jobId}`, { headers: { 'x-api-key': key } })).json()) as any;
  if (st.status !== 'processing') { console.error('END', JSON.stringify(st).slice(0, 300)); break; }
  if (i % 10 === 0) console.error('poll', i, st.status, st.progress);
  await new Promise((res) => setTimeout(res, 500));
}
process.exit(0);
