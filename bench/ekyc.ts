// e-KYC benchmark: latency p50/p99 (one request at a time) and throughput (2 in flight) of face compare, liveness,
// OCR per card type and verify end to end through the real pool; plus the quality table: genuine/impostor
// similarity distributions and FMR/FNMR at the default threshold on ../shared/faces/people, and OCR character
// accuracy per field on rendered ID cards.
// Run: npm run bench -- ekyc [--runs 12] [--cards 30]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerPool } from '../src/pool/pool.js';
import { table } from './lib/load.js';
import { renderCard, degradationFor, charAccuracy } from '../test/helpers/id-cards.js';
import { decodeRgb } from '../src/tasks/lib/image-io.js';
import { detectFaces, embedFace, cosine } from '../src/vision/index.js';
import { calibrate, DEFAULT_FACE_THRESHOLD, COSINE_AT_DEFAULT } from '../src/vision/calibration.js';
import { shared } from '../test/helpers/shared.js';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('runs', 12);
const TESS = arg('tesseract', 0);
const CARDS = arg('cards', 30);
const FACES = shared('faces');
const rd = (p: string) => fs.readFileSync(path.join(FACES, p));
const pct = (a: number[], p: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const pool = new WorkerPool({ workers: 2, queueSize: 1000 });
const maxPixels = 50_000_000;

const cards = { jumin: await renderCard('jumin', { seed: 1 }), driver: await renderCard('driver', { seed: 2 }), alien: await renderCard('alien', { seed: 3 }) };
const idCard = await renderCard('jumin', { seed: 4, photo: rd('public-domain/grace_hopper_512x512.jpg') });
const g1 = rd('people/sheldon/sheldon1.png'), g2 = rd('people/sheldon/sheldon2.png');
const real = rd('liveness/real.jpg');

const ops: Array<{ name: string; run: () => Promise<unknown> }> = [
  { name: 'face compare (150 px pair)', run: () => pool.run('face-compare', { image1: Buffer.from(g1), image2: Buffer.from(g2), maxPixels }) },
  { name: 'face compare (512 px pair)', run: () => pool.run('face-compare', { image1: rd('public-domain/grace_hopper_512x512.jpg'), image2: rd('public-domain/astronaut.png'), maxPixels }) },
  { name: 'liveness (480x640)', run: () => pool.run('liveness', { image: Buffer.from(real), maxPixels }) },
  ...(['jumin', 'driver', 'alien'] as const).map((d) => ({ name: `OCR ${d} card (1280x807)`, run: () => pool.run('ekyc-ocr', { image: Buffer.from(cards[d].image), docType: d, maxPixels }) })),
  {
    name: 'verify end to end (3 parts)',
    run: () => Promise.all([
      pool.run('ekyc-verify-ocr', { image: Buffer.from(idCard.image), idCardType: 'resident_registration', maxPixels }),
      pool.run('face-compare', { image1: rd('public-domain/grace_hopper_512x512.jpg'), image2: Buffer.from(real), maxPixels }),
      pool.run('liveness', { image: Buffer.from(real), maxPixels }),
    ]),
  },
];

const rows: Array<Record<string, string | number>> = [];
for (const op of ops) {
  await op.run(); // warm: sessions created in the worker
  await op.run();
  const lat: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await op.run();
    lat.push(performance.now() - t0);
  }
  const n = Math.max(6, RUNS);
  const t0 = performance.now();
  let next = 0;
  await Promise.all([0, 1].map(async () => { while (next++ < n) await op.run(); }));
  const rps = n / ((performance.now() - t0) / 1000);
  rows.push({ operation: op.name, 'p50 ms': Math.round(pct(lat, 50)), 'p99 ms': Math.round(pct(lat, 99)), 'throughput /s (2 workers)': Math.round(rps * 100) / 100 });
}
await pool.close();
console.log(`\n### latency and throughput (${RUNS} sequential runs each; ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, node ${process.version})\n`);
console.log(table(rows));

// ---------------------------------------------------------------- face quality
const embs: Array<{ p: string; e: Float32Array }> = [];
let missed = 0;
for (const p of fs.readdirSync(path.join(FACES, 'people')).sort()) {
  for (const f of fs.readdirSync(path.join(FACES, 'people', p)).sort()) {
    const img = await decodeRgb(rd(`people/${p}/${f}`));
    const faces = await detectFaces(img);
    if (!faces.length) { missed++; continue; }
    embs.push({ p, e: await embedFace(img, faces[0]!) });
  }
}
const gen: number[] = [], imp: number[] = [];
for (let i = 0; i < embs.length; i++) for (let j = i + 1; j < embs.length; j++) (embs[i]!.p === embs[j]!.p ? gen : imp).push(cosine(embs[i]!.e, embs[j]!.e));
const dist = (a: number[]) => ({ n: a.length, min: pct(a, 0), p5: pct(a, 5), mean: a.reduce((s, x) => s + x, 0) / a.length, p95: pct(a, 95), max: pct(a, 100) });
const frow = (name: string, a: number[]) => {
  const d = dist(a), c = dist(a.map(calibrate));
  return { pairs: name, n: d.n, 'cos min': d.min, 'cos p5': d.p5, 'cos mean': d.mean, 'cos p95': d.p95, 'cos max': d.max, 'sim mean': c.mean, 'sim min': c.min, 'sim max': c.max };
};
console.log(`\n### face similarity on ../shared/faces/people (8 people × 5, ${embs.length} faces found, ${missed} missed)\n`);
console.log(table([frow('genuine', gen), frow('impostor', imp)]));
const rates: Array<Record<string, string | number>> = [];
for (const thr of [0.5, 0.55, DEFAULT_FACE_THRESHOLD, 0.65, 0.7, 0.8]) {
  const fmr = imp.filter((c) => calibrate(c) >= thr).length;
  const fnmr = gen.filter((c) => calibrate(c) < thr).length;
  rates.push({ threshold: thr, 'FMR': `${fmr}/${imp.length} = ${((100 * fmr) / imp.length).toFixed(2)} %`, 'FNMR': `${fnmr}/${gen.length} = ${((100 * fnmr) / gen.length).toFixed(2)} %` });
}
console.log(`\nsimilarity = piecewise-linear calibration of cosine; threshold ${DEFAULT_FACE_THRESHOLD} ↔ cosine ${COSINE_AT_DEFAULT}\n`);
console.log(table(rates));

// ---------------------------------------------------------------- OCR quality
const pool2 = new WorkerPool({ workers: 2, queueSize: 1000 });
const acc: Record<string, number[]> = {};
const exact: Record<string, number[]> = {};
const docs = ['jumin', 'driver', 'alien'] as const;
const jobs: Array<Promise<void>> = [];
for (let i = 0; i < CARDS; i++) {
  const doc = docs[i % 3]!;
  const card = await renderCard(doc, { seed: 5000 + i, degrade: degradationFor(Math.floor(i / 3)) });
  jobs.push(pool2.run('ekyc-ocr', { image: card.image, docType: doc, maxPixels }).then((r) => {
    for (const [k, v] of Object.entries(card.truth)) {
      const got = r.fields[k]?.text ?? '';
      (acc[`${k}`] ??= []).push(charAccuracy(v, got));
      (exact[`${k}`] ??= []).push(v.replace(/\s+/g, '') === got.replace(/\s+/g, '') ? 1 : 0);
    }
  }));
}
await Promise.all(jobs);
await pool2.close();
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
console.log(`\n### OCR on ${CARDS} rendered cards (jumin/driver/alien in turn; clean, blur 1.2, noise 12, tint, rotation 1.5°, all + JPEG 80)\n`);
console.log(table(Object.keys(acc).sort().map((k) => ({ field: k, cards: acc[k]!.length, 'char accuracy': mean(acc[k]!).toFixed(3), 'exact': mean(exact[k]!).toFixed(3) }))));

// ---------------------------------------------------------------- engine comparison: tesseract.js on the same fields
if (TESS > 0) {
  const { createWorker, PSM } = await import('tesseract.js');
  const { createRequire } = await import('node:module');
  const sharp = (await import('sharp')).default;
  const { LAYOUTS } = await import('../src/vision/layouts.js');
  const { readCard } = await import('../src/vision/idcard.js');
  const require = createRequire(import.meta.url);
  const data = (l: string) => path.dirname(require.resolve(`@tesseract.js-data/${l}/package.json`)) + '/4.0.0_best_int';
  const core = path.dirname(require.resolve('tesseract.js-core/package.json'));
  // kor and eng live in different packages and tesseract.js takes one langPath: link both into a temp folder
  const langDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sejong-tess-'));
  for (const l of ['kor', 'eng']) fs.symlinkSync(path.join(data(l), `${l}.traineddata.gz`), path.join(langDir, `${l}.traineddata.gz`));
  const w = await createWorker(['kor', 'eng'], 1, { langPath: langDir, corePath: core, cacheMethod: 'none', gzip: true } as never);
  const accT: Record<string, number[]> = {}, accP: Record<string, number[]> = {};
  let tT = 0, tP = 0;
  for (let i = 0; i < TESS; i++) {
    const doc = docs[i % 3]!;
    const card = await renderCard(doc, { seed: 7000 + i, degrade: degradationFor(Math.floor(i / 3)) });
    let t0 = performance.now();
    const pp = await readCard(await decodeRgb(card.image), doc);
    tP += performance.now() - t0;
    t0 = performance.now();
    for (const [k, [x, y, ww, hh]] of Object.entries(LAYOUTS[doc].regions)) {
      if (card.truth[k] === undefined) continue;
      // the pre-processing models.md found best for tesseract: grey → 2× → contrast stretch
      const crop = await sharp(card.image).extract({ left: Math.round(x * 1280), top: Math.round(y * 807), width: Math.round(ww * 1280), height: Math.round(hh * 807) })
        .greyscale().resize({ width: Math.round(ww * 1280 * 2) }).normalise().png().toBuffer();
      await w.setParameters({ tessedit_pageseg_mode: k === 'address' ? PSM.SINGLE_BLOCK : PSM.SINGLE_LINE });
      const got = (await w.recognize(crop)).data.text.trim();
      let truth = card.truth[k]!;
      if (k === 'issue_date') { const [Y, M, D] = truth.split('-'); truth = `${Y}. ${Number(M)}. ${Number(D)}.`; }
      (accT[k] ??= []).push(charAccuracy(truth, got));
      (accP[k] ??= []).push(charAccuracy(card.truth[k]!, pp.fields[k]?.text ?? ''));
    }
    tT += performance.now() - t0;
  }
  await w.terminate();
  console.log(`\n### engine comparison on ${TESS} rendered cards: per-field char accuracy (tesseract on the printed form, PP-OCR after our post-processing)\n`);
  console.log(table(Object.keys(accT).map((k) => ({ field: k, 'tesseract.js kor+eng': mean(accT[k]!).toFixed(3), 'PP-OCR det+rec': mean(accP[k]!).toFixed(3) }))));
  console.log(`\nms per card on this (loaded) machine: tesseract.js fields only ${Math.round(tT / TESS)}, PP-OCR whole card ${Math.round(tP / TESS)}`);
}
