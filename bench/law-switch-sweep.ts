// A systematic search of the law search's switches (issue 15): loads the store once, evaluates a setting over the
// studied questions in one pass (SEARCH_SWITCHES set in place, as law-switch-ab.ts does), and runs a coordinate
// search: for each switch a few values around its current one (law-quality/sweep.ts candidates), a move kept only when
// it raises the objective (MRR-like, the older sets down-weighted) and passes the guard (gains on at least half of
// holdout6 … holdout11, more than one question lost on none); passes repeat until nothing moves or the time is up.
// Then the leave-one-set-out picture (the sweep again without each blind-written set, evaluations memoized) and the
// validation set's aggregate lines (default VALIDATION: never inside the loop; its questions never printed). The blind
// set is never loaded. Prints the final setting as a law-switch-ab argument string.
// Usage: npx tsx bench/law-switch-sweep.ts --data DIR [--minutes 20] [--passes N] [--skip a,b] [--no-loo] [--loo-minutes M]
//        [--validate holdoutN] [--alt "k=v,…"]… [--start "k=v,…"]
import os from 'node:os';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { VALIDATION, isBlind, loadQuestions, runQuestion, type Question } from './law-quality/evaluate.js';
import { NEW_SETS, candidates, diffString, guardOk, objective, settingKey, sweptSwitches, valueOf, type Scored, type Setting } from './law-quality/sweep.js';

const argv = process.argv.slice(2);
const arg = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const args = (name: string) => argv.flatMap((a, i) => (a === name ? [argv[i + 1]!] : []));
const law = openLaw(new Store(arg('--data')!));
law.reload();
const minutes = Number(arg('--minutes') ?? 20), maxPasses = Number(arg('--passes') ?? 50);
const validate = arg('--validate') ?? VALIDATION;
const setName = (q: Question) => Object.keys(q).find((k) => /^holdout\d*$/.test(k) && (q as unknown as Record<string, unknown>)[k]) ?? 'tuned';
const all = loadQuestions().filter((q) => !isBlind(q));
const qs = all.filter((q) => setName(q) !== validate), vqs = all.filter((q) => setName(q) === validate);
const setOf = qs.map(setName);
const base: Setting = { ...SEARCH_SWITCHES };
const apply = (s: Setting) => Object.assign(SEARCH_SWITCHES, s);
const parse = (cfg: string): Setting => {
  const s = { ...base };
  for (const kv of cfg.split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    if (!(k! in base)) throw new Error(`unknown switch ${k}`);
    s[k!] = Number(v);
  }
  return s;
};

interface Run { scored: Map<string | null, Scored>; ranks: Int16Array; right: Uint8Array }
const memo = new Map<string, Run>();
let evaluations = 0;
/** a setting over the studied questions, once (the leave-one-out sweeps mostly revisit the full sweep's settings) */
function evaluate(s: Setting): Run {
  const key = settingKey(s);
  let r = memo.get(key);
  if (r) return r;
  apply(s);
  const outs = qs.map((q) => runQuestion(law, q));
  evaluations++;
  const values = Float64Array.from(outs, valueOf);
  r = { scored: new Map(), ranks: Int16Array.from(outs, (o) => o.rank), right: Uint8Array.from(outs, (o) => (o.rank === 1 && o.articleOk !== false ? 1 : 0)) };
  for (const lo of [null, ...NEW_SETS]) r.scored.set(lo, objective(values, setOf, lo));
  memo.set(key, r);
  return r;
}

const t0 = Date.now(), cpu0 = process.cpuUsage();
const log = (m: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(0)} s, load ${os.loadavg()[0]!.toFixed(1)}] ${m}`);

/** the coordinate search from `start`, one set left out (or none), until a pass moves nothing, the passes or the time run out */
function sweep(start: Setting, leftOut: string | null, until: number, passes: number, verbose: boolean): { s: Setting; passes: number; moves: string[]; timeUp: boolean } {
  let cur = { ...start }, done = 0;
  const moves: string[] = [];
  const skip = (arg('--skip') ?? '').split(',').filter(Boolean);
  for (; done < passes && Date.now() < until; done++) {
    let moved = false;
    for (const k of sweptSwitches(skip)) {
      if (Date.now() >= until) break;
      const a = evaluate(cur).scored.get(leftOut)!;
      let best: { v: number; b: Scored } | null = null;
      for (const v of candidates(k, cur[k]!)) {
        const b = evaluate({ ...cur, [k]: v }).scored.get(leftOut)!;
        if (b.objective > (best?.b.objective ?? a.objective) + 1e-9 && guardOk(a, b, setOf, leftOut)) best = { v, b };
      }
      if (!best) continue;
      const m = `${k} ${cur[k]} → ${best.v}: objective ${a.objective.toFixed(4)} → ${best.b.objective.toFixed(4)}`;
      moves.push(m);
      if (verbose) log(`move ${m}`);
      cur = { ...cur, [k]: best.v };
      moved = true;
    }
    if (verbose) log(`pass ${done + 1} done (${evaluations} settings evaluated)`);
    if (!moved && Date.now() < until) { done++; break; }
  }
  return { s: cur, passes: done, moves, timeUp: Date.now() >= until };
}

/** hits@1 / hits@5 / right article first / MRR of one set under a run */
function figure(r: Run, set: string | null, cat?: string): string {
  const ix = qs.map((_, i) => i).filter((i) => (set === null || setOf[i] === set) && (!cat || qs[i]!.category === cat));
  const h1 = ix.filter((i) => r.ranks[i] === 1).length, h5 = ix.filter((i) => r.ranks[i]! >= 1 && r.ranks[i]! <= 5).length;
  const mrr = ix.reduce((a, i) => a + (r.ranks[i]! >= 1 ? 1 / r.ranks[i]! : 0), 0) / (ix.length || 1);
  return `${h1}/${h5}/${ix.filter((i) => r.right[i]).length} MRR ${mrr.toFixed(3)} (n ${ix.length})`;
}

/** the validation set's aggregate and category lines under a setting (its questions never printed); scored inside a
 *  run of every question in the file's order, as law-quality and law-switch-ab score it: a question's outcome can
 *  depend on the query before it (tune25: holdout12 under compoundSplit=0 alone 28 first, in the file's order 29) */
function validation(s: Setting): string {
  apply(s);
  const outs = all.map((q) => runQuestion(law, q)).filter((o) => setName(o.q) === validate);
  const line = (cat?: string) => {
    const o = outs.filter((x) => !cat || x.q.category === cat);
    return `${cat ?? 'all'} ${o.filter((x) => x.rank === 1).length}/${o.filter((x) => x.rank >= 1 && x.rank <= 5).length}/${o.filter((x) => x.rank === 1 && x.articleOk !== false).length} MRR ${(o.reduce((a, x) => a + (x.rank >= 1 ? 1 / x.rank : 0), 0) / (o.length || 1)).toFixed(3)} (n ${o.length})`;
  };
  return [undefined, ...new Set(vqs.map((q) => q.category))].map(line).join('; ');
}

log(`${qs.length} studied questions (${validate} ${vqs.length} held for validation, the blind set not loaded); ${sweptSwitches().length} switches`);
const start = parse(arg('--start') ?? '');
const full = sweep(start, null, t0 + minutes * 60_000, maxPasses, true);
const before = evaluate(base), after = evaluate(full.s);
log(`sweep: ${full.passes} passes${full.timeUp ? ' (time up in the last)' : ' (the last moved nothing)'}, ${full.moves.length} moves, ${evaluations} settings evaluated`);
console.log('per set, hits@1 / hits@5 / right article first, before → after:');
for (const st of [...new Set(setOf), null]) console.log(`  ${st ?? 'studied'}: ${figure(before, st)} → ${figure(after, st)}`);
for (const cat of [...new Set(qs.map((q) => q.category))]) console.log(`  studied ${cat}: ${figure(before, null, cat)} → ${figure(after, null, cat)}`);
console.log(`objective ${before.scored.get(null)!.objective.toFixed(4)} → ${after.scored.get(null)!.objective.toFixed(4)}`);
if (!argv.includes('--no-loo')) {
  // each blind-written set's figure when the sweep ran without it, as many passes as the full sweep made
  console.log('leave one set out (the set\'s figure: before → full sweep → sweep without it):');
  const looMs = Number(arg('--loo-minutes') ?? minutes / 2) * 60_000 / NEW_SETS.length;
  for (const lo of NEW_SETS) {
    const r = sweep(start, lo, Date.now() + looMs, full.passes, false);
    const cut = r.timeUp ? ` (time up in pass ${r.passes} of ${full.passes})` : '';
    console.log(`  ${lo}: ${figure(before, lo)} → ${figure(after, lo)} → ${figure(evaluate(r.s), lo)}${cut}; without it: "${diffString(r.s, base)}"`);
  }
}
console.log(`validation ${validate} (aggregate / category lines only):`);
console.log(`  defaults: ${validation(base)}`);
console.log(`  swept:    ${validation(full.s)}`);
for (const alt of args('--alt')) console.log(`  "${alt}": ${validation(parse(alt))}`);
const c = process.cpuUsage(cpu0);
log(`CPU ${((c.user + c.system) / 1e6).toFixed(0)} s, ${new Date().toISOString()}`);
console.log(`final setting (law-switch-ab argument): "${diffString(full.s, base)}"`);
process.exit(0);
