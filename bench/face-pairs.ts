// Face pairs under real-photo conditions (test/helpers/face-conditions.ts): each probe photo, changed by one condition,
// is compared through the served path (checked decode with EXIF orientation and the 1600-px shrink, detectFaces,
// the largest face, embedding) with the clean photos of the same person (genuine) and of everyone else in its half
// (impostor). Per condition: faces found, FNMR and FMR at the served threshold (similarity 0.6 = cosine 0.40; a probe
// without a face counts as a non-match), CPU per image (process.cpuUsage). A/B in the same run, interleaved per
// image: A = the first look only (detectFaces { noRescue: true }), B = as served; with --base DIR, A = the build in
// DIR/dist (e.g. /tmp/base18, main before a change) as served, its face = the largest.
// Halves: ../shared/faces/people sorted, even index = tune, odd = report; ORL (--orl DIR of s<N>/<k>.png, the ORL
// face database) s1–s20 tune, s21–s40 report. Photos stay outside the project.
// Run: nice -n 10 npm run bench -- face-pairs [--half tune|report|all] [--orl /tmp/face26-orl/png] [--orl-people 10]
//      [--only roll30,small3k] [--no-ab] [--base /tmp/base18]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRgb } from '../src/tasks/face-detect.js';
import { detectFaces, embedFace, cosine, subjectFace, type DetectOptions, type Face, type RgbImage } from '../src/vision/index.js';
import { COSINE_AT_DEFAULT } from '../src/vision/calibration.js';
import { CONDITIONS, applyCondition, asPhoto, type Condition } from '../test/helpers/face-conditions.js';
import { shared } from '../test/helpers/shared.js';
import { table } from './lib/load.js';

const args = process.argv.slice(2);
const opt = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
const half = opt('--half') ?? 'report';
const orlDir = opt('--orl');
const orlPeople = Number(opt('--orl-people') ?? 20);
const only = opt('--only')?.split(',') as Condition[] | undefined;
const ab = !args.includes('--no-ab');
const baseDir = opt('--base');
// the base build's detector for A (its own vision runtime and ONNX sessions); its face was the largest, faces[0]
const baseDetect = baseDir ? ((await import(path.join(baseDir, 'dist/vision/index.js'))) as { detectFaces: (i: RgbImage) => Promise<Face[]> }).detectFaces : null;
const conds = (only ?? [...CONDITIONS]).filter((c) => CONDITIONS.includes(c));

interface Photo { id: string; file: string }
function photos(): Photo[] {
  const out: Photo[] = [];
  const ppl = fs.readdirSync(shared('faces', 'people')).sort();
  ppl.forEach((p, i) => {
    if (half !== 'all' && (i % 2 === 0) !== (half === 'tune')) return;
    for (const f of fs.readdirSync(shared('faces', 'people', p)).sort()) out.push({ id: `people:${p}`, file: shared('faces', 'people', p, f) });
  });
  if (orlDir) {
    for (let s = 1; s <= 40; s++) {
      if (half !== 'all' && (s <= 20) !== (half === 'tune')) continue;
      if ((s - 1) % 20 >= orlPeople) continue;
      const d = path.join(orlDir, `s${s}`);
      for (const f of fs.readdirSync(d).sort()) out.push({ id: `orl:s${s}`, file: path.join(d, f) });
    }
  }
  return out;
}

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

async function look(bytes: Buffer, opts: DetectOptions): Promise<{ n: number; e: Float32Array | null; ms: number; box: number[] | null; W: number; H: number }> {
  const c0 = cpuMs();
  const { img, scale } = await loadRgb(bytes, 'image');
  const base = opts.noRescue && baseDetect;
  const faces = base ? await baseDetect(img) : await detectFaces(img, opts);
  const f = base ? faces[0] : subjectFace(faces, img.width, img.height);
  const e = f ? await embedFace(img, f) : null;
  return { n: faces.length, e, ms: cpuMs() - c0, box: f ? f.box.map((v) => v / scale) : null, W: img.width / scale, H: img.height / scale };
}

const set = photos();
console.log(`face-pairs: half ${half}, ${set.length} photos of ${new Set(set.map((p) => p.id)).size} people; conditions ${conds.join(', ')}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${new Date().toISOString()}`);

// references: the clean photos as served (their face box also places the occlusion band)
const refs: Array<{ p: Photo; e: Float32Array | null; face?: [number, number, number, number] }> = [];
for (const p of set) {
  const photo = await asPhoto(fs.readFileSync(p.file));
  const r = await look(photo, {});
  const b = r.box;
  refs.push({ p, e: r.e, face: b ? [b[0]! / r.W, b[1]! / r.H, b[2]! / r.W, b[3]! / r.H] : undefined });
}
console.log(`references: ${refs.filter((r) => r.e).length}/${refs.length} with a face`);

interface Tally { found: number; n: number; gen: number; genMiss: number; imp: number; impHit: number; ms: number[] }
const tally = (): Tally => ({ found: 0, n: 0, gen: 0, genMiss: 0, imp: 0, impHit: 0, ms: [] });
const rows: Array<Record<string, string | number>> = [];
const median = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)]! : 0; };
const pct = (k: number, n: number) => `${((100 * k) / Math.max(1, n)).toFixed(1)} % (${k}/${n})`;
let seed = 1;
for (const cond of conds) {
  const A = tally(), B = tally();
  for (let i = 0; i < set.length; i++) {
    const p = set[i]!;
    const others = set.filter((q) => q.id !== p.id);
    const other = others[(seed * 7) % others.length]!;
    const bytes = await applyCondition(cond, fs.readFileSync(p.file), seed++, fs.readFileSync(other.file), refs[i]!.face);
    for (const [t, o] of (ab ? [[A, { noRescue: true }], [B, {}]] : [[B, {}]]) as Array<[Tally, DetectOptions]>) {
      const r = await look(bytes, o);
      t.n++;
      t.ms.push(r.ms);
      if (r.e) t.found++;
      for (let j = 0; j < refs.length; j++) {
        const ref = refs[j]!;
        if (j === i || !ref.e) continue;
        const c = r.e ? cosine(r.e, ref.e) : -1;
        if (ref.p.id === p.id) { t.gen++; if (c < COSINE_AT_DEFAULT) t.genMiss++; }
        else { t.imp++; if (c >= COSINE_AT_DEFAULT) t.impHit++; }
      }
    }
  }
  const row = (name: string, t: Tally) => ({ condition: cond, look: name, found: `${t.found}/${t.n}`, FNMR: pct(t.genMiss, t.gen), FMR: pct(t.impHit, t.imp), 'CPU ms/img (median)': Math.round(median(t.ms)), 'CPU ms/img (max)': Math.round(Math.max(...t.ms)) });
  if (ab) rows.push(row(baseDetect ? 'A base' : 'A first look', A));
  rows.push(row(ab ? 'B served' : 'served', B));
  console.log(table(rows.slice(ab ? -2 : -1)));
}
console.log(`\nall conditions (load average now ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}):`);
console.log(table(rows));
