// Where qr-recognize spends its time, per stage and per kind, next to zxing alone on the same images (the set of
// bench/qr-hard.ts). Stage times come from the task's measurement hook (setStageProbe): CPU is process-wide
// (process.cpuUsage, includes sharp's threads), so run it on its own.
// Run: nice -n 19 npm run bench -- qr-stages [--per-kind 8] [--seed 1]
import sharp from 'sharp';
import { readBarcodes } from 'zxing-wasm/reader';
import { hardQrSet, photoQrSet } from '../test/helpers/qr-hard.js';
import qrRecognize, { zxingReady, BASE_OPTIONS, setStageProbe } from '../src/tasks/qr-recognize.js';
import { warmQr } from './lib/qr-warm.js';

const argv = process.argv;
const arg = (name: string, def: number): number => { const i = argv.indexOf(`--${name}`); return i > 0 ? Number(argv[i + 1]) : def; };
const PER = arg('per-kind', 8), SEED = arg('seed', 1);
await zxingReady();
const set = [...(await hardQrSet(PER, SEED)), ...(await photoQrSet(PER, SEED))];
const cpu = (c: NodeJS.CpuUsage): number => { const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
type Acc = { n: number; zx: number; ours: number; fail: number; zxFail: number; oursFail: number; stages: Record<string, number> };
const per: Record<string, Acc> = {};
let cur: Acc | undefined;
setStageProbe((name, _wall, c) => { if (cur) cur.stages[name] = (cur.stages[name] ?? 0) + c; });
await warmQr(arg('warm', 1));
for (const s of set) {
  const acc = (per[s.kind] ??= { n: 0, zx: 0, ours: 0, fail: 0, zxFail: 0, oursFail: 0, stages: {} });
  acc.n++;
  let c0 = process.cpuUsage();
  const { data, info } = await sharp(s.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const z = await readBarcodes({ data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height } as never, BASE_OPTIONS);
  const cz = cpu(c0);
  const zok = z.some((r) => r.isValid && r.text === s.data);
  acc.zx += cz;
  if (!zok) { acc.fail++; acc.zxFail += cz; }
  cur = zok ? undefined : acc; // stages only on the images zxing alone fails on
  c0 = process.cpuUsage();
  await qrRecognize({ image: s.bytes });
  const co = cpu(c0);
  acc.ours += co;
  if (!zok) acc.oursFail += co;
  cur = undefined;
}
const f = (v: number): string => v.toFixed(0);
console.log(`\nqr-stages: ${set.length} images (${PER} per kind, seeds ${SEED}..), CPU ms (process.cpuUsage)\n`);
console.log('kind | n | zxing alone | ours | ratio | zxing fails on | zxing on those | ours on those | stages on those (CPU ms)');
const tot: Acc = { n: 0, zx: 0, ours: 0, fail: 0, zxFail: 0, oursFail: 0, stages: {} };
for (const [k, a] of Object.entries(per)) {
  for (const key of ['n', 'zx', 'ours', 'fail', 'zxFail', 'oursFail'] as const) tot[key] += a[key];
  for (const [st, v] of Object.entries(a.stages)) tot.stages[st] = (tot.stages[st] ?? 0) + v;
  console.log(`${k} | ${a.n} | ${f(a.zx)} | ${f(a.ours)} | ${(a.ours / a.zx).toFixed(2)} | ${a.fail} | ${f(a.zxFail)} | ${f(a.oursFail)} | ${Object.entries(a.stages).map(([st, v]) => `${st} ${f(v)}`).join(', ')}`);
}
console.log(`all | ${tot.n} | ${f(tot.zx)} | ${f(tot.ours)} | ${(tot.ours / tot.zx).toFixed(2)} | ${tot.fail} | ${f(tot.zxFail)} | ${f(tot.oursFail)} | ${Object.entries(tot.stages).map(([st, v]) => `${st} ${f(v)}`).join(', ')}`);
