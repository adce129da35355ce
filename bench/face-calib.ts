// Face calibration bench: embeds every photo of a face set once (as given, as a selfie-like variant, and printed on
// a synthetic ID card with a hologram and cut out again by the real pipeline), scores all pairs, and prints the
// cosine distributions, FMR/FNMR at several similarity thresholds (current calibration) and the cosine that gives
// FMR ≤ 0.1 %. Photos stay outside the project; the set is a folder of <person>/<photo> (any depth).
// Run: nice -n 10 npm run bench -- face-calib /work/data/faces-calib [--shared] [--per-person k] [--no-cards] [--selfies]
//      [--second]  (also embeds every face with the second model, dlib's ResNet-34 via TF.js WASM: bench/lib/dlib-face.ts;
//      same detection, both timed per embedding in the same run; each model gets its own threshold table)
//      (in parallel: … --cache /tmp/emb --shard 0/2 and … --shard 1/2, then … --cache /tmp/emb --from-cache)
import fs from 'node:fs';
import path from 'node:path';
import { decodeRgb } from '../src/tasks/lib/image-io.js';
import { detectFaces, embedFace, cosine } from '../src/vision/index.js';
import { calibrate, cosineFor, DEFAULT_FACE_THRESHOLD } from '../src/vision/calibration.js';
import { selfieVariant, cardWithPhoto, scorePairs, rates, thresholdForFmr, type Embedded } from '../test/helpers/face-sets.js';
import { shared } from '../test/helpers/shared.js';
import { table } from './lib/load.js';

const args = process.argv.slice(2);
const dir = args.find((a, i) => !a.startsWith('--') && !['--shard', '--cache', '--per-person'].includes(args[i - 1] ?? '')) ?? '/work/data/faces-calib';
const withShared = args.includes('--shared');
const cards = !args.includes('--no-cards');
const selfies = args.includes('--selfies');
// --shard i/n: embed every n-th photo and append to <cache>.i (JSONL); --from-cache: score what the shards wrote
const opt = (k: string) => (args.includes(k) ? args[args.indexOf(k) + 1] : undefined);
const [shardI, shardN] = (opt('--shard') ?? '0/1').split('/').map(Number) as [number, number];
const cache = opt('--cache');
const fromCache = args.includes('--from-cache');
const second = args.includes('--second');
// the second model loads TF.js: only when asked for (or when scoring a cache that holds its embeddings)
const dlib = second ? await import('./lib/dlib-face.js') : null;
const modelName = 'fr_feature' + (dlib ? ` and ${dlib.DLIB_MODEL}` : '');

function people(root: string, prefix: string): Array<{ id: string; file: string }> {
  const out: Array<{ id: string; file: string }> = [];
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d).sort()) {
      const p = path.join(d, f);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (/\.(png|jpe?g|webp)$/i.test(f)) out.push({ id: prefix + path.relative(root, d), file: p });
    }
  };
  walk(root);
  return out;
}

const perPerson = Number(opt('--per-person') ?? 1e9); // the first k photos (sorted) of each person
const keep = (a: Array<{ id: string; file: string }>) => a.filter((p, i) => a.slice(0, i).filter((q) => q.id === p.id).length < perPerson);
const photos = keep(people(dir, 'set:'));
if (withShared) photos.push(...keep(people(shared('faces', 'people'), 'shared:')));
const ids = new Set(photos.map((p) => p.id));
console.log(`set ${dir}${withShared ? ' + ../shared/faces/people' : ''}: ${photos.length} photos of ${ids.size} people; model ${modelName}`);

// one detection per image, then each model's embedding of that face (timed separately: detection, fr, dlib)
type Kind = Embedded['kind'];
const models = second ? ['fr', 'dlib'] as const : ['fr'] as const;
type Model = 'fr' | 'dlib';
const embedders: Partial<Record<Model, typeof embedFace>> = { fr: embedFace, dlib: dlib?.dlibEmbedFace };
async function embedAll(bytes: Buffer): Promise<{ detectMs: number; e: Partial<Record<Model, Float32Array>>; ms: Partial<Record<Model, number>> } | null> {
  const t0 = performance.now();
  const img = await decodeRgb(bytes);
  const [face] = await detectFaces(img);
  const detectMs = performance.now() - t0;
  if (!face) return null;
  const e: Partial<Record<Model, Float32Array>> = {}, ms: Partial<Record<Model, number>> = {};
  for (const m of models) {
    const t = performance.now();
    e[m] = await embedders[m]!(img, face);
    ms[m] = performance.now() - t;
  }
  return { detectMs, e, ms };
}

const items: Record<Model, Embedded[]> = { fr: [], dlib: [] };
const missed: Record<string, number> = { photo: 0, selfie: 0, card: 0 };
const ms: Record<string, number[]> = { photo: [], selfie: [], card: [] };
const embedMs: Record<Model, number[]> = { fr: [], dlib: [] };
let seed = 1;
const sink = cache && !fromCache ? fs.createWriteStream(`${cache}.${shardI}`, { flags: 'a' }) : null;
const f32 = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const b64 = (e?: Float32Array) => (e ? Buffer.from(e.buffer, e.byteOffset, e.byteLength).toString('base64') : null);
const done = new Set<string>(); // resume: skip photos already in this shard's cache
if (cache && fs.existsSync(`${cache}.${shardI}`) && !fromCache) for (const l of fs.readFileSync(`${cache}.${shardI}`, 'utf8').split('\n')) if (l) done.add(JSON.parse(l).src);
if (fromCache && cache) {
  for (const f of fs.readdirSync(path.dirname(cache)).filter((f) => f.startsWith(path.basename(cache) + '.'))) {
    for (const l of fs.readFileSync(path.join(path.dirname(cache), f), 'utf8').split('\n')) {
      if (!l) continue;
      const o = JSON.parse(l);
      if (done.has(o.src + o.kind)) continue; // a photo embedded by two shards counts once
      done.add(o.src + o.kind);
      if (o.e) items.fr.push({ id: o.id, src: o.src, kind: o.kind, e: f32(Buffer.from(o.e, 'base64')) });
      if (o.e2) items.dlib.push({ id: o.id, src: o.src, kind: o.kind, e: f32(Buffer.from(o.e2, 'base64')) });
      if (!o.e) missed[o.kind]!++;
      if (o.ms) ms[o.kind]!.push(o.ms);
      if (o.msFr) embedMs.fr.push(o.msFr);
      if (o.msDlib) embedMs.dlib.push(o.msDlib);
    }
  }
}
for (const p of fromCache ? [] : photos) {
  if ((seed - 1) % shardN !== shardI || done.has(p.file)) { seed++; continue; }
  const src = fs.readFileSync(p.file);
  const variants: Array<[Kind, Buffer]> = [['photo', src]];
  if (selfies) variants.push(['selfie', await selfieVariant(src, seed)]);
  if (cards) variants.push(['card', await cardWithPhoto(src, seed)]);
  seed++;
  for (const [kind, bytes] of variants) {
    const r = await embedAll(bytes);
    if (r) {
      ms[kind]!.push(r.detectMs);
      for (const m of models) { items[m].push({ id: p.id, src: p.file, kind, e: r.e[m]! }); embedMs[m].push(r.ms[m]!); }
    } else missed[kind]!++;
    sink?.write(JSON.stringify({ id: p.id, src: p.file, kind, ms: r?.detectMs, msFr: r?.ms.fr, msDlib: r?.ms.dlib, e: b64(r?.e.fr), e2: b64(r?.e.dlib) }) + '\n');
  }
  if (seed % 25 === 0) console.error(`… ${seed} photos`);
}
const q = (a: number[], p: number) => { const x = [...a].sort((u, v) => u - v); return x[Math.min(x.length - 1, Math.floor(p * x.length))] ?? NaN; };
const f3 = (x: number) => x.toFixed(3);
const med = (a: number[]) => q(a, 0.5);
const pc = (x: number) => `${(x * 100).toFixed(x < 0.01 ? 3 : 2)} %`;
console.log(`\nembedded ${items.fr.length}; no face found: photo ${missed.photo}, selfie ${missed.selfie}, card ${missed.card}` +
  ` (a photo without a face is a refused capture, not a pair); median ms per image (decode + detection): photo ${med(ms.photo!).toFixed(0)}, selfie ${med(ms.selfie!).toFixed(0)}, card ${med(ms.card!).toFixed(0)}`);
for (const m of models) {
  const e = embedMs[m];
  if (e.length) console.log(`embedding ${m} (alignment + forward, one thread): median ${med(e).toFixed(1)} ms, p90 ${q(e, 0.9).toFixed(1)} ms over ${e.length}`);
}

// dlib: cached raw descriptors; scored by cosine of the normalised vectors and by dlib's own Euclidean distance
type Scoring = { name: string; model: Model; items: Embedded[]; score: (a: Float32Array, b: Float32Array) => number };
function report({ name, model: m, items: its, score }: Scoring): void {
  const s = scorePairs(its, score);
  const groups: Array<[string, number[]]> = [['genuine photo↔photo', s.genuine], ['genuine card↔photo', s.cardGenuine], ['impostor photo↔photo', s.impostor], ['impostor card↔photo', s.cardImpostor]];
  console.log(`\n## model ${m === 'fr' ? 'fr_feature (512-d)' : dlib?.DLIB_MODEL + ' (128-d)'}, score: ${name}\n\n### score distributions\n`);
  console.log(table(groups.map(([n, a]) => ({ pairs: n, count: a.length, min: f3(q(a, 0)), p1: f3(q(a, 0.01)), p5: f3(q(a, 0.05)), median: f3(q(a, 0.5)), p99: f3(q(a, 0.99)), 'p99.9': f3(q(a, 0.999)), max: f3(q(a, 1)) }))));
  const gen = [...s.genuine, ...s.cardGenuine], imp = [...s.impostor, ...s.cardImpostor];
  if (m === 'fr') { // the served scale: the calibration map of src/vision/calibration.ts
    const sim = (a: number[]) => a.map(calibrate);
    console.log(`\n### FMR / FNMR by similarity threshold (all ${gen.length} genuine, ${imp.length} impostor pairs; card pairs separately)\n`);
    console.log(table([0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8].map((t) => {
      const all = rates(sim(gen), sim(imp), t), c = rates(sim(s.cardGenuine), sim(s.cardImpostor), t);
      return { similarity: t === DEFAULT_FACE_THRESHOLD ? `**${t} (default)**` : String(t), cosine: f3(cosineFor(t)), FMR: `${pc(all.fmr)} (${all.fm})`, FNMR: `${pc(all.fnmr)} (${all.fnm})`, 'FMR card': pc(c.fmr), 'FNMR card': pc(c.fnmr) };
    })));
  }
  console.log(`\n### at this model's own thresholds (score chosen for the FMR target on these ${imp.length} impostor pairs)\n`);
  console.log(table([0.01, 0.001, 0.0001].map((target) => {
    const c = thresholdForFmr(imp, target), all = rates(gen, imp, c), cd = rates(s.cardGenuine, s.cardImpostor, c);
    return { 'FMR target': pc(target), score: f3(c), FMR: `${pc(all.fmr)} (${all.fm})`, FNMR: `${pc(all.fnmr)} (${all.fnm})`, 'FMR card': pc(cd.fmr), 'FNMR card': pc(cd.fnmr) };
  })));
  let eer = 1, at = 0;
  for (let c = -1; c < 1; c += 0.001) { const r = rates(gen, imp, c); const x = Math.max(r.fmr, r.fnmr); if (x < eer) { eer = x; at = c; } }
  console.log(`EER ≈ ${(eer * 100).toFixed(2)} % (score ${f3(at)})`);
}
report({ name: 'cosine', model: 'fr', items: items.fr, score: cosine });
if (items.dlib.length && dlib) {
  report({ name: 'cosine (normalised)', model: 'dlib', items: items.dlib.map((x) => ({ ...x, e: dlib.l2normalise(x.e) })), score: cosine });
  report({ name: '1 − Euclidean distance (dlib: same person ≥ 0.4)', model: 'dlib', items: items.dlib, score: dlib.dlibCloseness });
} else if (items.dlib.length) console.log('\n(the cache also holds dlib embeddings: add --second to score them)');
