// Liveness bench on real captures and SIMULATED attacks made from them (test/helpers/spoof-sim.ts: printed photo
// re-photographed, screen replay re-photographed). Prints BPCER on the real captures and APCER per attack type
// at the default threshold and a sweep. Photos stay outside the project.
// Run: nice -n 10 npm run bench -- liveness-sim /work/data/liveness/real [--n 150] [--dump file.json]
//      re-score a dump with the current rule: … liveness-sim --from-dump file.json [--half odd|even]
import fs from 'node:fs';
import path from 'node:path';
import { decodeRgb } from '../src/tasks/lib/image-io.js';
import { detectFaces } from '../src/vision/index.js';
import { livenessCheck, combineLiveness, LIVENESS_THRESHOLD } from '../src/vision/liveness.js';
import type { SpoofCues } from '../src/vision/spoof-cues.js';
import { simulatePrint, simulateReplay } from '../test/helpers/spoof-sim.js';
import { table } from './lib/load.js';

const args = process.argv.slice(2);
const dir = args.find((a, k) => !a.startsWith('--') && !['--n', '--dump', '--from-dump', '--half'].includes(args[k - 1] ?? '')) ?? '/work/data/liveness/real';
const N = args.includes('--n') ? Number(args[args.indexOf('--n') + 1]) : 150;
const dump = args.includes('--dump') ? args[args.indexOf('--dump') + 1] : undefined;
// --from-dump file.json: re-score a dumped run with the current combination rule (no images needed)
const fromDump = args.includes('--from-dump') ? args[args.indexOf('--from-dump') + 1] : undefined;
// --half odd|even: only the files with an odd/even number (the rule's constants were chosen on the odd half)
const half = args.includes('--half') ? args[args.indexOf('--half') + 1] : undefined;
const files = fs.readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, N);

type Kind = 'real' | 'print' | 'replay';
type Row = { kind: Kind; file: string; score: number | null; model: number | null; signals: Record<string, number> };
let rows: Row[] = [];
const ms: number[] = [];
let i = 0;
for (const f of fromDump ? [] : files) {
  const real = fs.readFileSync(path.join(dir, f));
  const variants: Array<[Kind, Buffer]> = [['real', real], ['print', await simulatePrint(real, ++i)], ['replay', await simulateReplay(real, i)]];
  for (const [kind, bytes] of variants) {
    const img = await decodeRgb(bytes);
    const [face] = await detectFaces(img);
    if (!face) { rows.push({ kind, file: f, score: null, model: null, signals: {} }); continue; }
    const t0 = performance.now();
    const r = await livenessCheck(img, face.box);
    ms.push(performance.now() - t0);
    rows.push({ kind, file: f, score: r.score, model: r.model, signals: r.signals });
  }
  if (i % 25 === 0) console.error(`… ${i}`);
}
if (dump) fs.writeFileSync(dump, JSON.stringify(rows));
if (fromDump) rows = (JSON.parse(fs.readFileSync(fromDump, 'utf8')) as Row[]).map((r) => ({ ...r, score: r.model === null ? null : combineLiveness(r.model, r.signals as unknown as SpoofCues) }));
const num = (f: string) => Number(/(\d+)/.exec(f)?.[1] ?? 0);
if (half) rows = rows.filter((r) => num(r.file) % 2 === (half === 'odd' ? 1 : 0));

const pc = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} % (${a}/${b})`;
const of = (k: Kind) => rows.filter((r) => r.kind === k);
const noFace = (k: Kind) => of(k).filter((r) => r.score === null).length;
console.log(`\n${of('real').length} real captures from ${dir}; attacks SIMULATED from them. No face found: real ${noFace('real')}, print ${noFace('print')}, replay ${noFace('replay')} (excluded below). Median liveness ms (after detection): ${[...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)]?.toFixed(0)}`);
const sweep = (key: 'score' | 'model') => [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((t) => {
  const real = of('real').filter((r) => r[key] !== null), pr = of('print').filter((r) => r[key] !== null), rp = of('replay').filter((r) => r[key] !== null);
  return {
    threshold: t === LIVENESS_THRESHOLD ? `**${t} (default)**` : String(t),
    'BPCER (real refused)': pc(real.filter((r) => r[key]! < t).length, real.length),
    'APCER print': pc(pr.filter((r) => r[key]! >= t).length, pr.length),
    'APCER replay': pc(rp.filter((r) => r[key]! >= t).length, rp.length),
  };
});
console.log('\n### fr_liveness model alone\n');
console.log(table(sweep('model')));
console.log('\n### combined check (model + screen/print cues), as served\n');
console.log(table(sweep('score')));
