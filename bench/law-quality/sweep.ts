// The coordinate search of law-switch-sweep.ts (issue 15): the candidate values of each search switch, the objective
// over the studied sets (the older sets down-weighted) and the guard against fitting them (a move must gain on at
// least half of the blind-written sets and lose more than one question on none of them).
import { SEARCH_SWITCHES } from '../../src/law/search/switches.js';
import type { Outcome } from './evaluate.js';

export type Setting = Record<string, number>;
/** the sets tuned on for many sessions (down-weighted) and the sets written blind, closest to real users */
export const OLD_SETS = ['tuned', 'holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5'];
export const NEW_SETS = ['holdout6', 'holdout7', 'holdout8', 'holdout9', 'holdout10', 'holdout11'];
/** the old sets' share of the objective (the new ones get the rest: at least as much, as issue 15 asks) */
export const OLD_WEIGHT = 0.4;

/** read once when the search opens (changing them in place would measure nothing) */
const AT_OPEN = new Set(['nameWordsRules']);
/** switches whose values are modes, not magnitudes: each mode is a candidate */
const MODES: Record<string, number[]> = {
  morph: [0, 1, 2], mappedGroup: [0, 1, 2, 3, 4], titleMappedGroup: [0, 1, 2], ruleCoverage: [0, 1, 2], ruleCoverageMapped: [0, 1, 2],
};
/** on / off switches */
const FLAGS = new Set(['everyday', 'lifeVocabulary', 'everydayMapped', 'rulePrior', 'compoundSplit', 'nameWordsAll', 'titleChoiceAfter',
  'titleDocIdf', 'titleCueAlone', 'declaredAbbr', 'spelledAbbr', 'spokenJosa', 'ruleCoverageParent', 'wordTerms', 'ruleStandardRules']);
/** counts (candidates rounded) */
const COUNTS = new Set(['ruleLongSubject', 'postings', 'coordEnough', 'coordEnoughPlain', 'nameWordsMaxHits', 'titleBodyCandidates',
  'titleBodyHits', 'ruleCoverageTop', 'ruleCoverageArticles', 'ruleCoverageMin', 'mappedBigrams', 'plainTerms']);

/** the switches the sweep moves: every numeric one the search reads per query */
export function sweptSwitches(skip: string[] = []): string[] {
  return Object.keys(SEARCH_SWITCHES).filter((k) => !AT_OPEN.has(k) && !skip.includes(k));
}

/** the values tried around a switch's current one: ×0.5, ×0.75, ×1.5, ×2 (counts rounded), the other state of a flag,
 *  every other mode, each bit of a bit mask toggled; a weight at 0 tries a few small values */
export function candidates(k: string, v: number): number[] {
  let out: number[];
  if (MODES[k]) out = MODES[k]!;
  else if (FLAGS.has(k)) out = [v ? 0 : 1];
  else if (k === 'noiseWords') out = [1, 4, 16].map((b) => v ^ b);
  else if (v === 0) out = COUNTS.has(k) ? [1, 2] : [0.1, 0.25, 0.5];
  else out = [0.5, 0.75, 1.5, 2].map((f) => (COUNTS.has(k) ? Math.round(v * f) : Math.round(v * f * 1000) / 1000));
  return [...new Set(out)].filter((x) => x !== v && x >= 0);
}

/** a question's value: its reciprocal rank, plus a half for a first-five hit and a quarter for the right article first
 *  (so the article choice's switches count, less than finding the instrument) */
export function valueOf(o: Outcome): number {
  const right = o.rank === 1 && o.articleOk !== false;
  return (o.rank >= 1 ? 1 / o.rank : 0) + (o.rank >= 1 && o.rank <= 5 ? 0.5 : 0) + (right ? 0.25 : 0);
}

export interface Scored { values: Float64Array; objective: number; perSet: Map<string, number> }

/** the objective: each set's mean question value; the old sets' mean × OLD_WEIGHT + the new sets' mean × the rest */
export function objective(values: Float64Array, setOf: string[], leftOut: string | null): Scored {
  const sum = new Map<string, number>(), n = new Map<string, number>();
  setOf.forEach((s, i) => { sum.set(s, (sum.get(s) ?? 0) + values[i]!); n.set(s, (n.get(s) ?? 0) + 1); });
  const perSet = new Map([...sum].map(([s, x]) => [s, x / n.get(s)!]));
  const mean = (sets: string[]) => { const xs = sets.filter((s) => s !== leftOut && perSet.has(s)).map((s) => perSet.get(s)!); return xs.reduce((a, b) => a + b, 0) / xs.length; };
  return { values, objective: OLD_WEIGHT * mean(OLD_SETS) + (1 - OLD_WEIGHT) * mean(NEW_SETS), perSet };
}

/** the guard: gains on at least half of the new sets (left-out one aside) and on none of them more than one question
 *  lost (questions whose value fell minus those whose value rose) */
export function guardOk(a: Scored, b: Scored, setOf: string[], leftOut: string | null): boolean {
  const sets = NEW_SETS.filter((s) => s !== leftOut);
  let gains = 0;
  for (const s of sets) {
    let net = 0;
    setOf.forEach((t, i) => { if (t === s) net += Math.sign(b.values[i]! - a.values[i]!); });
    if (net < -1) return false;
    if (b.perSet.get(s)! > a.perSet.get(s)! + 1e-9) gains++;
  }
  return gains >= sets.length / 2;
}

export const settingKey = (s: Setting): string => Object.keys(s).sort().map((k) => `${k}=${s[k]}`).join(',');
/** a setting as law-switch-ab's argument: the switches that differ from the defaults */
export const diffString = (s: Setting, base: Setting): string => Object.keys(s).filter((k) => s[k] !== base[k]).map((k) => `${k}=${s[k]}`).join(',');
