// Honest threshold choice for liveness veto rules, from a dump of bench/liveness-real.ts (`--dump f.json`; the
// dump keeps each image's model score, cues and screen-moiré measure, so nothing is re-run here):
//  - split: each source is cut in two halves by a hash of the file name; a rule's threshold is chosen on one half
//    and its errors are reported on the other (both ways round);
//  - leave-one-source-out: for each source, the threshold is chosen on all OTHER sources and the error is
//    reported on the one left out (an attack type the rule never saw, a camera it was never tuned on).
// A threshold is chosen as the goal reads (APCER at BPCER ≤ 10 %): among the thresholds that keep the BPCER
// of every real source in the training rows ≤ 10 %, the one with the lowest worst APCER over the attack sources
// (sources of ≥ 10 images; ties to the lower mean error); if none keeps BPCER ≤ 10 %, the lowest worst error. Every rule refuses what the model refuses
// (model < LIVENESS_THRESHOLD); a veto can only add refusals.
// Run: npm run bench -- liveness-split /tmp/live-real.json
import fs from 'node:fs';
import { cueScore, LIVENESS_THRESHOLD } from '../src/vision/liveness.js';
import type { SpoofCues } from '../src/vision/spoof-cues.js';
import type { ScreenMoire } from '../src/vision/screen-moire.js';
import { table } from './lib/load.js';

type Row = { group: string; attack: boolean; file: string; model: number | null; signals: Record<string, number>; moire?: ScreenMoire };
type Rule = { name: string; grid: number[]; veto: (r: Row, t: number) => boolean };

const file = process.argv.slice(2).find((a) => a.endsWith('.json'));
if (!file) throw new Error('usage: liveness-split <dump.json> (from liveness-real --dump)');
const rows = (JSON.parse(fs.readFileSync(file, 'utf8')) as Row[]).filter((r) => r.model !== null && r.moire);
const steps = (a: number, b: number, d: number) => Array.from({ length: Math.round((b - a) / d) + 1 }, (_, k) => Math.round((a + k * d) * 1000) / 1000);
const cue = (r: Row) => cueScore(r.signals as unknown as SpoofCues);

/** Each rule: refuse when the model refuses OR veto(row, t). t = the grid's no-veto end keeps the model alone. */
const RULES: Rule[] = [
  { name: 'model alone (fixed)', grid: [0], veto: () => false },
  { name: 'as served: min(model, cue) (fixed)', grid: [LIVENESS_THRESHOLD], veto: (r, t) => cue(r) < t },
  { name: 'cue veto: cue score < t', grid: steps(0, 1, 0.01), veto: (r, t) => cue(r) < t },
  { name: 'moiré luma: peak ≥ t', grid: [...steps(0.5, 3, 0.02), Infinity], veto: (r, t) => r.moire!.peak >= t },
  { name: 'moiré chroma: peak ≥ t', grid: [...steps(0.5, 3, 0.02), Infinity], veto: (r, t) => r.moire!.peakChroma >= t },
];

const fnv = (s: string) => { let h = 0x811c9dc5; for (const c of Buffer.from(s)) h = Math.imul(h ^ c, 0x01000193) >>> 0; return h; };
const half = (r: Row) => (fnv(r.file) & 1 ? 'B' : 'A');
const sources = [...new Set(rows.map((r) => r.group))].filter((g) => rows.filter((r) => r.group === g).length >= 10);

function errors(set: Row[], rule: Rule, t: number): Map<string, { bad: number; n: number }> {
  const out = new Map<string, { bad: number; n: number }>();
  for (const r of set) {
    const refused = r.model! < LIVENESS_THRESHOLD || rule.veto(r, t);
    const e = out.get(r.group) ?? { bad: 0, n: 0 };
    e.n++; if (refused !== r.attack) e.bad++;
    out.set(r.group, e);
  }
  return out;
}
function choose(train: Row[], rule: Rule): number {
  const key = (t: number) => {
    const e = [...errors(train, rule, t)].filter(([g, v]) => sources.includes(g) && v.n >= 5);
    const rate = (real: boolean) => e.filter(([g]) => g.startsWith('real ') === real).map(([, v]) => v.bad / v.n);
    const all = e.map(([, v]) => v.bad / v.n), mean = all.reduce((a, b) => a + b, 0) / all.length;
    return Math.max(...rate(true)) <= 0.1 ? [0, Math.max(...rate(false)), mean] : [1, Math.max(...all), mean];
  };
  let best = { t: rule.grid[0]!, k: [Infinity] };
  for (const t of rule.grid) {
    const k = key(t);
    const better = k.findIndex((x, i) => Math.abs(x - best.k[i]!) > 1e-12);
    if (better >= 0 && k[better]! < best.k[better]!) best = { t, k };
  }
  return best.t;
}
const pc = (e?: { bad: number; n: number }) => (e ? `${((100 * e.bad) / Math.max(1, e.n)).toFixed(1)} % (${e.bad}/${e.n})` : '');
const label = (g: string) => (g.startsWith('real ') ? `BPCER ${g.slice(5)}` : `APCER ${g}`);

console.log(`\n${rows.length} images with a face; sources (≥ 10 images): ${sources.join(', ')}; halves by FNV-1a of the file name.`);
const split: Array<Record<string, string>> = [];
for (const rule of RULES) for (const [fit, test] of [['A', 'B'], ['B', 'A']] as const) {
  const t = choose(rows.filter((r) => half(r) === fit), rule);
  const e = errors(rows.filter((r) => half(r) === test), rule, t);
  split.push({ rule: rule.name, 'chosen on': fit, t: String(t), 'measured on': test, ...Object.fromEntries(sources.map((g) => [label(g), pc(e.get(g))])) });
}
console.log('\n### split halves: threshold chosen on one half, errors on the other\n');
console.log(table(split));

const loso: Array<Record<string, string>> = [];
for (const rule of RULES) {
  const line: Record<string, string> = { rule: rule.name };
  for (const g of sources) {
    const t = choose(rows.filter((r) => r.group !== g), rule);
    line[label(g)] = `${pc(errors(rows.filter((r) => r.group === g), rule, t).get(g))} @ ${t}`;
  }
  loso.push(line);
}
console.log('\n### leave-one-source-out: threshold chosen without the source, error on it (… @ chosen t)\n');
console.log(table(loso));
