// Issue 12: what the OCR detector's CPU memory arena costs in RSS and what turning it off costs in time.
// One process per arena setting (RSS is per process): create the detector (ppocr_det), run it on the nominal card
// (1280×800 after the detector's rounding), then on larger inputs; RSS after each step; then time R card runs.
// Run: MALLOC_MMAP_THRESHOLD_=131072 nice -n 19 node bench/ort-arena.mjs [runs=6] [sizes=1056x1056,1280x1280]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024);

if (process.argv[2] === 'child') {
  const arena = process.argv[3] === 'on';
  const runs = Number(process.argv[4]);
  const { default: ort } = await import('onnxruntime-node');
  const model = fileURLToPath(new URL('../native-models/ppocr_det.onnx', import.meta.url));
  const s = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3, enableCpuMemArena: arena });
  const input = (w, h) => new ort.Tensor('float32', new Float32Array(3 * w * h).fill(0.2), [1, 3, h, w]);
  const out = { arena, created: rss() };
  const card = input(1280, 800);
  await s.run({ x: card });
  out.card = rss();
  const sizes = (process.argv[5] ?? '1056x1056,1280x1280').split(',').map((x) => x.split('x').map(Number));
  for (const [w, h] of sizes) {
    await s.run({ x: input(w, h) });
    out[`${w}x${h}`] = rss();
  }
  await s.run({ x: card });
  out.cardAgain = rss();
  // CPU time (user + system) per card run: steadier than wall time on a shared machine
  const ms = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await s.run({ x: card });
    const c = process.cpuUsage(c0);
    ms.push(Math.round(performance.now() - t0));
    cpu.push(Math.round((c.user + c.system) / 1000));
  }
  out.cardRunMs = ms;
  out.cardRunCpuMs = cpu;
  // a session's release frees its arena: RSS after release, then after a fresh session and one card run
  await s.release();
  out.released = rss();
  const c1 = process.cpuUsage();
  const s2 = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3, enableCpuMemArena: arena });
  const c2 = process.cpuUsage(c1);
  out.recreateCpuMs = Math.round((c2.user + c2.system) / 1000);
  out.recreated = rss();
  await s2.run({ x: card });
  out.recreatedCard = rss();
  console.log(JSON.stringify(out));
} else {
  const runs = process.argv[2] ?? '6';
  const sizes = process.argv[3] ?? '1056x1056,1280x1280';
  // alternate the settings so that both see the same background load
  for (const arena of ['on', 'off', 'on', 'off']) {
    const r = spawnSync(process.execPath, [self, 'child', arena, runs, sizes], { encoding: 'utf8' });
    process.stdout.write(r.stdout || `${arena}: ${r.signal ?? r.status} ${r.stderr.slice(-200)}\n`);
  }
}
