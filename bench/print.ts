// Print benchmark: one full sheet (1181 px = 10 cm at 300 dpi; 1024x1024 AI JPEG, Korean header, QR, signature,
// perforation, A3 ad) composed in the pool; p50/p99 of one sheet at a time and sheets per minute with 2 workers;
// then end to end over HTTP (fetch of the AI picture from a local server, ledger transaction, pool, blob store);
// then the money path alone (selectAndCharge transactions per second).
// Run: npm run bench -- print [--runs 20] [--jobs 30] [--http 40]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerPool } from '../src/pool/pool.js';
import { Store } from '../src/store/env.js';
import { PrintStore } from '../src/print/store.js';
import type { CompositeInput } from '../src/tasks/composite.js';
import { startTestServer } from '../test/helpers/server.js';
import { admin, imageServer } from '../test/print/helpers.js';
import { aiPicture, signaturePng, solid } from '../test/print/fixtures.js';
import { table } from './lib/load.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 20);
const JOBS = arg('jobs', 30);
const HTTP = arg('http', 40);
const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const ai = await aiPicture(1024, 1024);
const sig = await signaturePng();
const ad = await solid(1200, 800, [250, 200, 0], 'jpeg');
const settings = {
  event_name: '2026 세종 꿈 축제', dream_title: '우주비행사가 되고 싶어요', event_date: '2026년 11월 22일', ticket_no: 'A-0042',
  qr: { payload: 'https://kiosk.example/api/v1/composite/print/image/job-000042?key=0123456789abcdefghijABCDEFGHIJ01' },
};
const input = (): CompositeInput => ({ ai: Buffer.from(ai), signature: Buffer.from(sig), ad: Buffer.from(ad), settings, output: { format: 'jpeg', quality: 92 } });
const rows: Array<Record<string, string | number>> = [];

// ---- 1. the task in the pool
const pool = new WorkerPool({ workers: 2, queueSize: 256 });
let steps: Record<string, number> = {};
try {
  await Promise.all([0, 1, 2, 3].map(() => pool.run('composite', input())));
  const lat: number[] = [];
  let height = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const out = await pool.run('composite', input());
    lat.push(performance.now() - t0);
    height = out.height;
    steps = out.timings_ms ?? {};
  }
  const t0 = performance.now();
  let next = 0;
  await Promise.all([0, 1].map(async () => {
    while (next < JOBS) {
      next++;
      await pool.run('composite', input());
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  rows.push({ stage: `sheet 1181x${height} in the pool`, 'p50 ms': Math.round(pct(lat, 50)), 'p99 ms': Math.round(pct(lat, 99)), 'sheets/min (2 workers)': Math.round((JOBS / secs) * 60), 'kiosks @1 sheet/5 s': Math.floor((JOBS / secs) * 5) });
} finally {
  await pool.close();
}

// ---- 2. end to end over HTTP
const img = await imageServer({ '/ai.jpg': { body: ai, type: 'image/jpeg' } });
const s = await startTestServer({ env: { SEJONG_FETCH_ALLOW: '127.0.0.1', SEJONG_QUEUE_SIZE: '1000' }, workers: 2 });
try {
  const adm = admin(s);
  const ids = [await adm.advertiser('a', 3, 1_000_000), await adm.advertiser('b', 5, 1_000_000), await adm.advertiser('c', 7, 1_000_000)];
  for (const id of ids) await adm.creative(id, ad);
  await adm.album('bench', 'selected', { advertiser_ids: ids });
  const sigUrl = `data:image/png;base64,${sig.toString('base64')}`;
  let n = 0;
  const one = async () => {
    const t0 = performance.now();
    const r = await s.req('/api/v1/composite/print', { method: 'POST', json: { ai_image_url: `${img.url}/ai.jpg`, album_id: 'bench', job_id: `bench-${n++}`, signature_data_url: sigUrl, settings: { ...settings, qr: undefined } } });
    const b = await r.json() as { success?: boolean; applied?: { a3_ad: boolean } };
    if (r.status !== 200 || !b.applied?.a3_ad) throw new Error(`print failed: ${r.status} ${JSON.stringify(b)}`);
    return performance.now() - t0;
  };
  await Promise.all([one(), one()]);
  for (const conc of [1, 2, 4]) {
    const t0 = performance.now();
    let left = HTTP;
    const cl: number[] = [];
    await Promise.all(Array.from({ length: conc }, async () => {
      while (left > 0) {
        left--;
        cl.push(await one());
      }
    }));
    const secs = (performance.now() - t0) / 1000;
    rows.push({ stage: `HTTP print, ${conc} in flight`, 'p50 ms': Math.round(pct(cl, 50)), 'p99 ms': Math.round(pct(cl, 99)), 'sheets/min (2 workers)': Math.round((HTTP / secs) * 60), 'kiosks @1 sheet/5 s': Math.floor((HTTP / secs) * 5) });
  }
  for (const id of ids) {
    const b = await adm.balance(id);
    if (b.balance !== b.ledger_sum) throw new Error(`ledger mismatch for ${id}`);
  }
} finally {
  await s.close();
  await img.close();
}

// ---- 3. the money path alone
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-bench-print-'));
const store = new Store(dir);
try {
  const ps = new PrintStore(store);
  const now = Date.now();
  const advs = [];
  for (let i = 0; i < 3; i++) advs.push(await ps.createAdvertiser({ name: `x${i}`, unit_points: 1, initial_points: 1_000_000 }, now));
  for (const a of advs) {
    const app = await ps.createApplication({ advertiser_id: a.id, title: 't', album_ids: [] }, { bytes: Buffer.from('x'), format: 'png', width: 1, height: 1 }, now);
    if (typeof app !== 'string') await ps.decide(app.id, 1, 'approved', undefined, now);
  }
  await ps.createAlbum({ id: 'm', name: 'm', ad_mode: 'selected' }, now);
  const N = 3000;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: N }, (_, i) => ps.selectAndCharge({ job_id: `m-${i}`, album_id: 'm', at: now, want_ad: true })));
  const secs = (performance.now() - t0) / 1000;
  const sums = await Promise.all(advs.map((a) => ps.ledgerSum(a.id)));
  const balances = await Promise.all(advs.map(async (a) => (await ps.advertiser(a.id))!.balance));
  const ok = advs.every((_, i) => sums[i]!.sum === balances[i]);
  rows.push({ stage: `selectAndCharge x${N} (concurrent, ledger ${ok ? 'exact' : 'MISMATCH'})`, 'p50 ms': '-', 'p99 ms': '-', 'sheets/min (2 workers)': `${Math.round(N / secs)} tx/s`, 'kiosks @1 sheet/5 s': '-' });
} finally {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

console.log(`print: full sheet 1181 px wide (AI 1024x1024 JPEG, header, QR, signature, perforation, A3 ad), JPEG q92, 300 dpi sRGB; ${RUNS} serial runs, ${JOBS} pool jobs with 2 in flight, ${HTTP} HTTP prints per concurrency`);
console.log(`machine: ${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z, load ${os.loadavg().map((l) => l.toFixed(1)).join('/')}, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
console.log(`last sheet steps (ms): ${Object.entries(steps).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(table(rows));
