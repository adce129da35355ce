// RSS of a SEPARATE server process before and after a bad-input run (issue 12 item 6): malformed path escapes,
// thin and huge-aspect images, a 7000x7000 all-zero PNG on enhance and remove-background, junk JSON and multipart,
// 2 x 100 concurrent 9 MB bodies (keyed route and the open /mcp). The load generator is this process; the server's
// RSS is read from /proc/<pid>/status (VmRSS: main thread and its pool workers).
// Run: nice -n 10 node --import tsx bench/rss-bad-input.ts   (SKIP_BIG=1: without the 7000x7000 image; WARM=1: one
// valid request per image endpoint before the baseline; PASSES=N: the bad-input run N times)
import fs from 'node:fs';
import sharp from 'sharp';
import { spawnServer } from './lib/server-proc.js';

const s = await spawnServer({ workers: 2, env: { SEJONG_RATE_LIMIT_PER_MINUTE: '1000000' } });
const rss = (): number => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${s.pid}/status`, 'utf8'))![1]) / 1024);
const statuses: Record<string, number> = {};
const count = (r: Response | null): void => { const k = String(r?.status ?? 'net'); statuses[k] = (statuses[k] ?? 0) + 1; };
const go = async (p: Promise<Response>): Promise<void> => { const r = await p.catch(() => null); count(r); await r?.arrayBuffer().catch(() => undefined); };
const png = (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: '#000000' } }).png({ compressionLevel: 9 }).toBuffer();
const form = (fields: Record<string, string>, files: Record<string, Buffer>): FormData => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const [k, v] of Object.entries(files)) f.append(k, new Blob([v], { type: 'image/png' }), `${k}.png`);
  return f;
};

await go(s.req('/health'));
// WARM=1: one valid request on each image endpoint first, so the baseline includes the models the workers load
if (process.env.WARM) {
  const { renderCard } = await import('../test/helpers/id-cards.js');
  const card = (await renderCard('jumin', { seed: 7 })).image;
  await go(s.req('/api/v1/ekyc/ocr', { method: 'POST', body: form({ doc_type: 'jumin' }, { image: card }) }));
  await go(s.req('/api/v1/ekyc/enhance', { method: 'POST', body: form({ doc_type: 'jumin' }, { image: card }) }));
  await go(s.req('/api/v1/qrcode/recognize', { method: 'POST', body: form({}, { image: card }) }));
  await go(s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageBase64: card.toString('base64'), chromaKey: { color: 'auto' } } }));
}
await new Promise((r) => setTimeout(r, 1000));
const before = rss();
let peak = before;
const timer = setInterval(() => { try { peak = Math.max(peak, rss()); } catch { /* exited */ } }, 50);
const t0 = performance.now();
const passes: Array<Record<string, number>> = [];
const pass = async (): Promise<void> => {
  const phases: Record<string, number> = {};

  // 1. malformed escapes on parameterised routes
  const escapes = ['%ff', '%zz', '%', '%e0%80', '%c0%af', 'a%2', '%00'];
  const routes = ['/api/v1/receipt/status/', '/api/v1/laws/', '/api/v1/studio/status/', '/api/v1/image/result/', '/api/v1/receipt/image/'];
  await Promise.all(routes.flatMap((r) => escapes.map((e) => go(s.req(r + e)))));
  phases.escapes = rss();
  // 2. thin, huge-aspect and huge-but-cheap images on image endpoints
  const imgs = [await png(1, 1), await png(4, 2000), await png(10, 20000), await png(20000, 10), await png(7000, 7000)];
  for (const img of imgs) {
    if (img.length > 100_000 && process.env.SKIP_BIG) continue;
    await go(s.req('/api/v1/ekyc/ocr', { method: 'POST', body: form({ doc_type: 'jumin' }, { image: img }) }));
    await go(s.req('/api/v1/ekyc/enhance', { method: 'POST', body: form({ doc_type: 'jumin' }, { image: img }) }));
    await go(s.req('/api/v1/qrcode/recognize', { method: 'POST', body: form({}, { image: img }) }));
    await go(s.req('/api/v1/image/remove-background', { method: 'POST', json: { imageBase64: img.toString('base64'), chromaKey: { color: 'auto' } } }));
  }
  phases.images = rss();
  // 3. junk JSON and multipart, 600 requests, 20 at a time
  const junk = ['{', '{"a":', '[]', 'null', '"x"', '{"imageUrl":"http://127.0.0.1:1/x"}', '{"__proto__":{"x":1}}', 'x'.repeat(70000)];
  const posts = ['/api/v1/image/remove-background', '/api/v1/ekyc/ocr', '/mcp', '/api/v1/receipt/optimize', '/api/v1/qrcode/generate'];
  for (let i = 0; i < 600; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => {
      const k = i + j;
      const body = junk[k % junk.length]!;
      const ct = k % 3 === 0 ? 'multipart/form-data; boundary=zz' : 'application/json';
      return go(s.req(posts[k % posts.length]!, { method: 'POST', headers: { 'content-type': ct }, body }));
    }));
  }
  phases.junk = rss();
  // 4. 100 concurrent 9 MB bodies to a keyed route, then to the open /mcp
  const big = Buffer.alloc(9 * 1048576, 0x20);
  await Promise.all(Array.from({ length: 100 }, () => go(s.req('/api/v1/ekyc/ocr', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }))));
  await Promise.all(Array.from({ length: 100 }, () => go(fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big }))));
  phases.bodies = rss();
  passes.push(phases);
};
// PASSES=2: the same run again, to tell memory that plateaus (allocator and model arenas sized by the largest
// input seen) from memory that grows with every run (a leak)
for (let i = 0; i < Number(process.env.PASSES ?? 1); i++) await pass();
const runMs = Math.round(performance.now() - t0);
const atEnd = rss();
await new Promise((r) => setTimeout(r, 5000));
const after5 = rss();
await new Promise((r) => setTimeout(r, 25000));
const after30 = rss();
// the main thread's own view (prom-client default metrics): V8 heap and external (Buffer) memory
const metrics = await (await s.req('/metrics')).text();
const gauge = (name: string): number => Math.round(Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 1048576);
const mainThread = { heapUsedMb: gauge('sejong_nodejs_heap_size_used_bytes'), heapTotalMb: gauge('sejong_nodejs_heap_size_total_bytes'), externalMb: gauge('sejong_nodejs_external_memory_bytes') };
clearInterval(timer);
const health = await s.req('/health');
console.log(JSON.stringify({ rssBeforeMb: before, peakMb: peak, atEndMb: atEnd, after5sMb: after5, after30sMb: after30, mainThread, runMs, passes, statuses, healthAfter: health.status }));
await s.close();
