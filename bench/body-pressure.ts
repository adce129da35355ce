// RSS under body pressure: 100 concurrent connections x 9 MB bodies to a keyed route and to the open /mcp, on
// loopback, against an in-process server. Run: node --expose-gc --import tsx bench/body-pressure.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server/start.js';

const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-'));
const s = await startServer(loadConfig({ SEJONG_PORT: '0', SEJONG_DATA_DIR: dir, SEJONG_ADMIN_KEY: 'sk_bench_admin_000000000', SEJONG_WORKERS: '1', SEJONG_LOG_LEVEL: 'silent', SEJONG_RATE_LIMIT_PER_MINUTE: '100000' }), { log: pino({ level: 'silent' }) });
const { key } = await s.services.keys.create({ name: 'bench', now: Date.now() });
const body = Buffer.alloc(9 * 1048576, 0x20);
gc();
const before = mb();
async function wave(url: string, headers: Record<string, string>): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  await Promise.all(Array.from({ length: 100 }, async () => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).catch(() => null);
    const st = r?.status ?? 0;
    counts[st] = (counts[st] ?? 0) + 1;
    await r?.text();
  }));
  return counts;
}
let peak = before;
const timer = setInterval(() => (peak = Math.max(peak, mb())), 20);
const keyed = await wave(`${s.url}/api/v1/ekyc/ocr`, { 'x-api-key': key });
const open = await wave(`${s.url}/mcp`, {});
clearInterval(timer);
await new Promise((r) => setTimeout(r, 1000));
gc();
await new Promise((r) => setTimeout(r, 500));
console.log(JSON.stringify({ rssBeforeMb: before, peakMb: peak, afterMb: mb(), keyed, open, budgetInUse: s.http.budget.inUse }));
await s.close();
fs.rmSync(dir, { recursive: true, force: true });
