// eKYC enhance benchmark: one 1280×807 card end to end through the HTTP server (POST /ekyc/enhance, synchronous),
// p50/p99; tiles per second of the enhance-tile task with 1 and 2 workers; the pipeline with and without OCR.
// Run: npm run bench -- enhance [--runs 10] [--pipeline-runs 4] [--record]   (--record appends to bench/RESULTS.md)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { WorkerPool } from '../src/pool/pool.js';
import { table } from './lib/load.js';
import { renderCard } from '../test/helpers/id-cards.js';
import { startTestServer, formData } from '../test/helpers/server.js';
import { defaultRegions } from '../src/enhance/privacy.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 10);
const PRUNS = arg('pipeline-runs', 4);
const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const load0 = os.loadavg()[0]!;

const card = await renderCard('jumin', { seed: 77, degrade: { blur: 1.2, noise: 10, tint: [0.6, 0.6, 0.55] } });
const cardJpg = await sharp(card.image).jpeg({ quality: 90 }).toBuffer();
const rotated = await sharp(card.image).rotate(4, { background: '#2b2b30' }).png().toBuffer();
const photo = await sharp(rotated).extend({ top: 160, bottom: 160, left: 200, right: 200, background: '#2b2b30' }).jpeg({ quality: 90 }).toBuffer();

const rows: Array<Record<string, string | number>> = [];

// 1. end to end through the server, 2 workers
const s = await startTestServer({ workers: 2 });
const timed = async (path: string, fields: Record<string, string>, image: Buffer, runs: number) => {
  const ms: number[] = [];
  let last: any;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const r = await s.req(path, { method: 'POST', body: formData(fields, { image: { data: image, type: 'image/jpeg' } }) });
    last = await r.json();
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(last)}`);
    if (i > 0) ms.push(performance.now() - t0); // first run warms the workers (tsx, ONNX sessions)
  }
  return { ms, last };
};
const e2e = await timed('/api/v1/ekyc/enhance', { doc_type: 'jumin' }, cardJpg, RUNS);
rows.push({ metric: 'POST /ekyc/enhance 1280×807 p50 / p99 ms', value: `${pct(e2e.ms, 50).toFixed(0)} / ${pct(e2e.ms, 99).toFixed(0)}`, note: `${RUNS} runs, 2 workers, ${e2e.last.tilesProcessed} tiles, quality ${e2e.last.qualityBefore.overallScore} → ${e2e.last.qualityAfter.overallScore}` });
const withOcr = await timed('/api/v1/ekyc/enhance-pipeline', {}, photo, PRUNS);
rows.push({ metric: 'pipeline with OCR p50 / p99 ms', value: `${pct(withOcr.ms, 50).toFixed(0)} / ${pct(withOcr.ms, 99).toFixed(0)}`, note: `${PRUNS} runs: crop, quality, doc type detection, OCR, enhance` });
const noOcr = await timed('/api/v1/ekyc/enhance-pipeline', { doc_type: 'jumin', skip_ocr: 'true' }, photo, PRUNS);
rows.push({ metric: 'pipeline without OCR p50 / p99 ms', value: `${pct(noOcr.ms, 50).toFixed(0)} / ${pct(noOcr.ms, 99).toFixed(0)}`, note: `${PRUNS} runs: crop, quality, enhance (doc_type given)` });
const steps = withOcr.last.steps;
rows.push({ metric: 'pipeline step ms (last run)', value: ['perspectiveCrop', 'qualityAnalysis', 'ocr', 'enhance'].map((k) => steps[k].processingTimeMs ?? '-').join(' / '), note: 'crop / quality / OCR (+doc type) / enhance' });
await s.close();

// 2. tiles per second of the tile task, 1 and 2 workers
for (const workers of [1, 2]) {
  const pool = new WorkerPool({ workers, queueSize: 1000 });
  const prep = await pool.run('enhance-prepare', { image: new Uint8Array(cardJpg), regions: defaultRegions('jumin', 'juminMask') });
  const runTiles = async () => {
    await Promise.all(prep.tiles.map((t) => pool.run('enhance-tile', { ...t, data: t.data.slice(), params: prep.estimate.params })));
  };
  await runTiles(); // warm-up
  const rounds = 4;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await runTiles();
  const sec = (performance.now() - t0) / 1000;
  rows.push({ metric: `tiles/s, ${workers} worker${workers > 1 ? 's' : ''}`, value: ((rounds * prep.tiles.length) / sec).toFixed(1), note: `${rounds * prep.tiles.length} tiles of ${prep.tiles[0]!.crop.w}×${prep.tiles[0]!.crop.h} (+halo), params ${prep.estimate.params.denoiseSigma > 0 ? 'with' : 'without'} denoise` });
  await pool.close();
}

const cpu = os.cpus()[0]?.model ?? 'unknown';
const head = `enhance: one 1280×807 jumin card (blur 1.2, noise 10, dim light), end to end over HTTP; tile task throughput\nmachine: ${os.cpus().length} cores ${cpu}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}, rss ${Math.round(process.memoryUsage().rss / 1048576)} MB`;
const out = `${head}\n${table(rows)}`;
console.log(out);
if (process.argv.includes('--record')) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'RESULTS.md');
  fs.appendFileSync(file, `\n## enhance\n\n\`npm run bench -- enhance\` (bench/enhance.ts), ${new Date().toISOString().slice(0, 10)}. The machine (2 cores) was shared with other\nwork during the run (see the load average), so absolute numbers are pessimistic.\n\n${out}\n`);
}
process.exit(0);
