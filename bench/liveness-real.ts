// Liveness bench on folders of REAL captures and REAL attack captures (no simulation): BPCER on the real folders,
// APCER per attack type, fr_liveness alone and as served (min of model and cues), at the default threshold and a
// sweep. Photos stay outside the project (provenance: /work/data/liveness/SOURCES.md).
// Run: nice -n 19 npm run bench -- liveness-real --real /work/data/liveness/real:120 --real /work/data/liveness/real-sf \
//        --attack print=/work/data/liveness/attacks/print --attack replay=/work/data/liveness/attacks/replay [--dump f.json]
//      a real group is named by its folder and the one above (`visagetrack/live`); `--attack type=dir` names an attack group.
//      re-score a dump with the current rule: … liveness-real --from-dump f.json
// Groups of ≤ 10 images also get one line per image (file, model, cue score, served). The dump also keeps each
// face box, the image's path and the screen-moiré measure (screen-moire.ts) for liveness-split / liveness-moire.
import fs from 'node:fs';
import path from 'node:path';
import { decodeRgb } from '../src/tasks/lib/image-io.js';
import { detectFaces } from '../src/vision/index.js';
import { livenessCheck, combineLiveness, cueScore, LIVENESS_THRESHOLD } from '../src/vision/liveness.js';
import type { SpoofCues } from '../src/vision/spoof-cues.js';
import { screenMoire, type ScreenMoire } from '../src/vision/screen-moire.js';
import { table } from './lib/load.js';

type Row = { group: string; attack: boolean; file: string; model: number | null; served: number | null; signals: Record<string, number>; box?: number[]; path?: string; moire?: ScreenMoire; moireMs?: number };

const args = process.argv.slice(2);
const many = (flag: string) => args.flatMap((a, k) => (args[k - 1] === flag ? [a] : []));
const one = (flag: string) => many(flag)[0];
const images = (dir: string, n = Infinity) => fs.readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().slice(0, n).map((f) => path.join(dir, f));

/** `dir[:n]` → the first n images of dir (sorted by name). */
const groupName = (dir: string) => path.join(path.basename(path.dirname(path.resolve(dir))), path.basename(dir));
function groupOf(spec: string): { dir: string; n: number } {
  const m = /^(.*?)(?::(\d+))?$/.exec(spec)!;
  return { dir: m[1]!, n: m[2] ? Number(m[2]) : Infinity };
}

async function score(group: string, attack: boolean, file: string): Promise<Row> {
  const img = await decodeRgb(fs.readFileSync(file));
  const [face] = await detectFaces(img);
  if (!face) return { group, attack, file: path.basename(file), model: null, served: null, signals: {} };
  const r = await livenessCheck(img, face.box);
  const t0 = performance.now();
  const moire = screenMoire(img, face.box);
  const moireMs = performance.now() - t0;
  return { group, attack, file: path.basename(file), model: r.model, served: r.score, signals: r.signals, box: face.box.map((v) => Math.round(v * 10) / 10), path: path.resolve(file), moire, moireMs };
}

async function measure(): Promise<Row[]> {
  const jobs: Array<[string, boolean, string]> = [];
  for (const spec of many('--real')) { const g = groupOf(spec); for (const f of images(g.dir, g.n)) jobs.push([`real ${groupName(g.dir)}`, false, f]); }
  for (const spec of many('--attack')) {
    const [type, dirSpec] = spec.split('=') as [string, string];
    const g = groupOf(dirSpec);
    for (const f of images(g.dir, g.n)) jobs.push([type, true, f]);
  }
  const rows: Row[] = [];
  for (const [k, [group, attack, file]] of jobs.entries()) {
    rows.push(await score(group, attack, file));
    if ((k + 1) % 25 === 0) console.error(`… ${k + 1}/${jobs.length}`);
  }
  return rows;
}

const fromDump = one('--from-dump');
let rows: Row[] = fromDump ? (JSON.parse(fs.readFileSync(fromDump, 'utf8')) as Row[]) : await measure();
// a dump is re-scored with the current combination rule (the model scores and cues are kept as measured)
if (fromDump) rows = rows.map((r) => ({ ...r, served: r.model === null ? null : combineLiveness(r.model, r.signals as unknown as SpoofCues) }));
const dump = one('--dump');
if (dump) fs.writeFileSync(dump, JSON.stringify(rows));

const groups = [...new Set(rows.map((r) => r.group))];
const pc = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} % (${a}/${b})`;
console.log(`\n${groups.map((g) => `${g}: ${rows.filter((r) => r.group === g).length} (no face ${rows.filter((r) => r.group === g && r.model === null).length})`).join('; ')}. Images without a face are excluded below.`);
const sweep = (key: 'model' | 'served') => [0.3, 0.4, 0.5, 0.6, 0.7].map((t) => {
  const line: Record<string, string> = { threshold: t === LIVENESS_THRESHOLD ? `**${t} (default)**` : String(t) };
  const real = rows.filter((r) => !r.attack && r[key] !== null);
  line['BPCER (all real)'] = pc(real.filter((r) => r[key]! < t).length, real.length);
  for (const g of groups.filter((g) => rows.some((r) => r.group === g && !r.attack))) {
    const a = real.filter((r) => r.group === g);
    if (a.length > 10) line[`BPCER ${g.slice(5)}`] = pc(a.filter((r) => r[key]! < t).length, a.length);
  }
  for (const g of groups.filter((g) => rows.some((r) => r.group === g && r.attack))) {
    const a = rows.filter((r) => r.group === g && r[key] !== null);
    line[`APCER ${g}`] = pc(a.filter((r) => r[key]! >= t).length, a.length);
  }
  return line;
});
console.log('\n### fr_liveness model alone\n');
console.log(table(sweep('model')));
console.log('\n### as served: min(model, cue score)\n');
console.log(table(sweep('served')));
for (const g of groups) {
  const small = rows.filter((r) => r.group === g);
  if (small.length > 10) continue;
  console.log(`\n### ${g}, per image\n`);
  console.log(table(small.map((r) => ({
    file: r.file,
    model: r.model === null ? 'no face' : r.model.toFixed(3),
    cues: r.model === null ? '' : cueScore(r.signals as unknown as SpoofCues).toFixed(3),
    served: r.served === null ? '' : r.served.toFixed(3),
    verdict: r.served === null ? 'refused (no face)' : r.served >= LIVENESS_THRESHOLD ? 'accepted as live' : 'refused',
  }))));
}
