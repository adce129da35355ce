// How strong must a screen's moiré be for the screen-moiré measure (src/vision/screen-moire.ts) to see it, and what
// it costs. From a dump of bench/liveness-real.ts (`--dump f.json`: each image's path and face box):
//  1. the measure on every image as captured (its distribution per source);
//  2. SENSITIVITY: a synthetic moiré — a cosine grating of amplitude a grey levels at a random off-axis frequency
//     in the searched band, random phase; on R and B in opposite phase for the chroma (sub-pixel stripe) case — is
//     added to the face region of each REAL capture, and the share whose peak then exceeds the 95th percentile of
//     the real captures as they are (5 % false alarms) is reported per amplitude;
//  3. CPU time per image (process.cpuUsage over repeated calls) of screenMoire and of the served cues (spoofCues).
// Run: npm run bench -- liveness-moire /tmp/live-real.json [--reps 5]
import fs from 'node:fs';
import { decodeRgb } from '../src/tasks/lib/image-io.js';
import { screenMoire, moireWindow, BAND } from '../src/vision/screen-moire.js';
import { spoofCues } from '../src/vision/spoof-cues.js';
import { livenessCrop } from '../src/vision/liveness.js';
import type { Box, RgbImage } from '../src/vision/raster.js';
import { table } from './lib/load.js';

type Row = { group: string; attack: boolean; file: string; model: number | null; box?: Box; path?: string };
const args = process.argv.slice(2);
const file = args.find((a) => a.endsWith('.json'));
if (!file) throw new Error('usage: liveness-moire <dump.json> (from liveness-real --dump)');
const reps = Number(args[args.indexOf('--reps') + 1] || 5) || 5;
const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as Row[]).filter((r) => r.box && r.path);
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);

/** A copy of img with a grating of amplitude a added over the face's analysed window (luma, or R/B in opposite phase). */
function withGrating(img: RgbImage, box: Box, a: number, chroma: boolean): RgbImage {
  const w = moireWindow(img.width, img.height, box)!;
  let fu = 0, fv = 0;
  while (Math.hypot(fu, fv) < BAND[0] + 0.02 || Math.hypot(fu, fv) > BAND[1] - 0.02 || Math.abs(fu) < 0.05 || Math.abs(fv) < 0.05) { fu = rnd() - 0.5; fv = rnd() * 0.5; }
  const ph = rnd() * 2 * Math.PI, data = new Uint8Array(img.data);
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let y = w.y; y < w.y + w.n; y++) for (let x = w.x; x < w.x + w.n; x++) {
    const g = a * Math.cos(2 * Math.PI * (fu * x + fv * y) + ph), o = (y * img.width + x) * 3;
    if (chroma) { data[o] = clamp(data[o]! + g); data[o + 2] = clamp(data[o + 2]! - g); }
    else for (let c = 0; c < 3; c++) data[o + c] = clamp(data[o + c]! + g);
  }
  return { ...img, data };
}

const groups = [...new Set(rows.map((r) => r.group))];
const base: Array<{ r: Row; img: RgbImage; peak: number; peakChroma: number }> = [];
for (const r of rows) {
  const img = await decodeRgb(fs.readFileSync(r.path!));
  const m = screenMoire(img, r.box!);
  if (m.window) base.push({ r, img, peak: m.peak, peakChroma: m.peakChroma });
}
const pct = (v: number[], p: number) => { const s = [...v].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]!; };
console.log('\n### the measure as captured (log10 peak / ring median): 10th / 50th / 90th percentile\n');
console.log(table(groups.map((g) => {
  const b = base.filter((x) => x.r.group === g);
  const q = (k: 'peak' | 'peakChroma') => [0.1, 0.5, 0.9].map((p) => pct(b.map((x) => x[k]), p).toFixed(2)).join(' / ');
  return { source: g, images: String(b.length), 'luma peak': b.length ? q('peak') : '', 'chroma peak': b.length ? q('peakChroma') : '' };
})));

const real = base.filter((x) => !x.r.attack);
const cut = { luma: pct(real.map((x) => x.peak), 0.95), chroma: pct(real.map((x) => x.peakChroma), 0.95) };
console.log(`\n### sensitivity: grating added to ${real.length} real captures; detected = peak above the real 95th percentile (luma ${cut.luma.toFixed(2)}, chroma ${cut.chroma.toFixed(2)})\n`);
const sens: Array<Record<string, string>> = [];
for (const a of [0.5, 1, 2, 4, 8]) {
  const line: Record<string, string> = { 'amplitude (grey levels)': String(a) };
  for (const chroma of [false, true]) {
    let hit = 0;
    const peaks: number[] = [];
    for (const x of real) {
      const m = screenMoire(withGrating(x.img, x.r.box!, a, chroma), x.r.box!);
      const p = chroma ? m.peakChroma : m.peak;
      peaks.push(p);
      if (p > (chroma ? cut.chroma : cut.luma)) hit++;
    }
    line[chroma ? 'R/B stripes: detected (median peak)' : 'luma grating: detected (median peak)'] = `${((100 * hit) / real.length).toFixed(1)} % (${pct(peaks, 0.5).toFixed(2)})`;
  }
  sens.push(line);
}
console.log(table(sens));

const cpu = (f: () => void) => { const t = process.cpuUsage(); for (let k = 0; k < reps; k++) f(); const d = process.cpuUsage(t); return (d.user + d.system) / 1000 / reps; };
let moireMs = 0, cueMs = 0;
for (const x of base) {
  moireMs += cpu(() => screenMoire(x.img, x.r.box!));
  cueMs += cpu(() => spoofCues(x.img, x.r.box!, livenessCrop(x.img.width, x.img.height, x.r.box!)));
}
console.log(`\nCPU per image (mean of ${base.length} images × ${reps}): screenMoire ${(moireMs / base.length).toFixed(2)} ms, spoofCues (served cues) ${(cueMs / base.length).toFixed(2)} ms; load average ${(await import('node:os')).loadavg().map((v) => v.toFixed(1)).join(' ')}`);
