// Law search quality: runs the evaluation questions through search_laws and scores hits@1, hits@5, MRR, the
// article of the first hit and empty answers, overall, per category and for the held-out questions.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LawStore } from '../../src/law/store.js';
import { searchLaws } from '../../src/law/tools.js';
import { nameKey } from '../../src/law/normalize.js';

export interface Question {
  id: string;
  category: 'keyword' | 'abbrev' | 'plain' | 'admrul' | 'filter';
  query: string;
  /** expected instrument (exact name; any document of that name counts) */
  law: string;
  /** expected article ("60", "76-2", "1-2-2" for 제1-2조의2) */
  article?: string;
  type?: string;
  ministry?: string;
  /** never used for tuning */
  holdout?: boolean;
  /** a second held-out set, written later from the statutes' text (plain questions mostly); never used for tuning */
  holdout2?: boolean;
  /** a third held-out set (2026-11-23, session 6: plain questions in everyday words, keywords, rules), never tuned on */
  holdout3?: boolean;
  /** a fourth held-out set (2026-11-23, session 7: everyday questions, lawyers' abbreviations with article numbers, rules
   *  of instruments no earlier question asks about), never tuned on */
  holdout4?: boolean;
  /** a fifth held-out set (2026-11-23, session 8: everyday questions, abbreviations, keywords, rules and filters over 29
   *  instruments no earlier question asks about), never tuned on */
  holdout5?: boolean;
  /** a sixth held-out set (2026-11-23, session 9: 50 questions — everyday questions, keywords, abbreviations, rules
   *  incl. 제N-N조 and filters — over 47 instruments no earlier question asks about), blind: never tuned on, its misses
   *  are never printed */
  holdout6?: boolean;
  /** a seventh held-out set (2026-11-24, session 10: 60 questions — 26 plain, 9 keyword, 9 abbrev, 10 admrul incl.
   *  제N-N조, 6 filter — over 60 instruments no earlier question asks about, written from the articles read directly
   *  by a helper who never ran a search), blind in session 10 (58.3 / 65.0 hits@1 / @5 before and after that
   *  session's work), studyable from session 11 */
  holdout7?: boolean;
  /** an eighth held-out set (2026-11-24, session 11: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul incl.
   *  제N-N조, 6 filter — over 60 instruments no earlier question asks about, written from the articles read directly
   *  by a helper who never ran a search), blind in session 11 (51.7 / 66.7 hits@1 / @5 before that session's work,
   *  50.0 / 68.3 after), studyable from session 12 */
  holdout8?: boolean;
  /** a ninth held-out set (2026-11-24, session 12: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul incl.
   *  제N-N조, 6 filter — over 60 instruments no earlier question asks about, written from the articles read directly
   *  by a helper who never ran a search), blind in session 12 (50.0 / 61.7 hits@1 / @5 before and after that
   *  session's work), studyable from session 13 */
  holdout9?: boolean;
  /** a tenth held-out set (2026-11-24, session 13: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul incl.
   *  제N-N조, 6 filter — over 60 instruments no earlier question asks about, written from the articles read directly
   *  by a helper who never ran a search), blind in session 13 (51.7 / 58.3 hits@1 / @5 before that session's work,
   *  53.3 / 61.7 after), studyable from session 14 */
  holdout10?: boolean;
  /** an eleventh held-out set (2026-11-24, session 14: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul, 6
   *  filter — over 60 instruments no earlier question asks about, written from the articles read directly by a helper
   *  who never ran a search; no 제N-N조 rule among them: every rule numbered so is already used by an earlier set),
   *  blind in session 14 (46.7 / 58.3 hits@1 / @5 at that session's start and end), studyable from session 15 (its
   *  validation set: aggregate lines only) */
  holdout11?: boolean;
  /** a twelfth held-out set (2026-11-24, session 15: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul, 6 filter
   *  — over 60 instruments no earlier question asks about (49 laws, 1 decree, 1 rule, 9 administrative rules incl. the
   *  filter ones; no 제N-N조 rule: every rule numbered so is already used), written from the articles read directly by
   *  a helper who never ran a search), blind in session 15 (43.3 / 58.3 hits@1 / @5 at that session's start, 46.7 / 63.3 at
   *  its end), studyable from session 16 (its validation set: aggregate lines only) */
  holdout12?: boolean;
  /** a thirteenth held-out set (2026-11-24, session 16: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul, 6
   *  filter — over 60 instruments no earlier question asks about (46 laws, 4 decrees, 1 rule, 9 administrative rules
   *  incl. the filter ones; no 제N-N조 rule: every rule numbered so is already used), written from the articles read
   *  directly by a helper who never ran a search), blind in session 16 (38.3 / 58.3 hits@1 / @5 at that session's start
   *  and at its end), studyable from session 17 (its validation set: aggregate lines only) */
  holdout13?: boolean;
  /** a fourteenth held-out set (2026-11-24, session 17: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul, 6
   *  filter — over 60 instruments no earlier question asks about (39 laws, 11 decrees, 1 rule, 9 administrative rules
   *  incl. the filter ones; no 제N-N조 rule: every rule numbered so is already used), written from the articles read
   *  directly by a helper who never ran a search), blind in session 17 (46.7 / 63.3 hits@1 / @5 at that session's start,
   *  48.3 / 68.3 at its end), studyable from session 18 (its validation set: aggregate lines only) */
  holdout14?: boolean;
  /** a fifteenth held-out set (2026-11-25, session 18: 60 questions — 30 plain, 8 keyword, 8 abbrev, 8 admrul, 6
   *  filter — over 60 instruments no earlier question asks about (40 laws, 10 decrees, 1 rule, 9 administrative rules
   *  incl. the filter ones; no 제N-N조 rule), written from the articles read directly by a helper who never ran a
   *  search), blind in session 18 */
  holdout15?: boolean;
}

/** the held-out sets, oldest first; the last one is blind */
export const HELD_OUT = ['holdout', 'holdout2', 'holdout3', 'holdout4', 'holdout5', 'holdout6', 'holdout7', 'holdout8', 'holdout9', 'holdout10', 'holdout11', 'holdout12', 'holdout13', 'holdout14', 'holdout15'] as const;
export type HeldOut = (typeof HELD_OUT)[number];
/** the blind set: scored, never studied (`--misses` refuses it, the quality test has no floor on it); null while
 *  the next one is being written (holdout14 became studyable in session 18, when holdout15 was written) */
export const BLIND: HeldOut | null = 'holdout15';
/** the validation set of the tuning tools (law-switch-ab, law-switch-sweep): the blind set before this one; its
 *  aggregate lines are read, its questions never printed by them (the diagnosis scripts refuse it) */
export const VALIDATION: HeldOut = 'holdout14';
/** a question of the blind set */
export const isBlind = (q: Question): boolean => BLIND !== null && q[BLIND] === true;

export interface Score { n: number; hits1: number; hits5: number; mrr: number; article1: number; articleN: number; empty: number }
export interface Outcome { q: Question; rank: number; articleOk: boolean | null; empty: boolean; top: string[]; ms: number }

export const QUESTIONS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'questions.json');

export function loadQuestions(file = QUESTIONS_FILE): Question[] {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Question[];
}

export function runQuestion(law: LawStore, q: Question, now = Date.UTC(2026, 5, 8)): Outcome {
  const t0 = performance.now();
  const out = searchLaws({ law, now }, { query: q.query, type: q.type as never, ministry: q.ministry, limit: 10 }) as { results: Array<{ law_id?: string; law_name?: string; admrul_name?: string; articles?: Array<{ no: string }>; matches?: Array<{ article_no: string }> }> };
  const ms = performance.now() - t0;
  const want = nameKey(q.law);
  const nameOf = (r: { law_name?: string; admrul_name?: string }) => r.law_name ?? r.admrul_name ?? '';
  const rank = out.results.findIndex((r) => nameKey(nameOf(r)) === want) + 1;
  let articleOk: boolean | null = null;
  if (q.article) {
    const r = rank ? out.results[rank - 1]! : null;
    const first = r?.matches?.[0]?.article_no ?? r?.articles?.[0]?.no;
    articleOk = rank === 1 && first === q.article;
  }
  return { q, rank, articleOk, empty: out.results.length === 0, top: out.results.slice(0, 3).map((r) => `${nameOf(r)}${r.articles?.[0] ? ' ' + r.articles[0].no : ''}`), ms };
}

export function score(outs: Outcome[]): Score {
  const s: Score = { n: outs.length, hits1: 0, hits5: 0, mrr: 0, article1: 0, articleN: 0, empty: 0 };
  if (!outs.length) return s;
  for (const o of outs) {
    if (o.rank === 1) s.hits1++;
    if (o.rank >= 1 && o.rank <= 5) s.hits5++;
    if (o.rank >= 1) s.mrr += 1 / o.rank;
    if (o.articleOk !== null) { s.articleN++; if (o.articleOk) s.article1++; }
    if (o.empty) s.empty++;
  }
  s.mrr /= outs.length;
  return s;
}

/** a question that may be used for tuning (in no held-out set) */
export const isTuned = (q: Question) => HELD_OUT.every((k) => !q[k]);

export type Evaluation = {
  outcomes: Outcome[];
  all: Score;
  tuned: Score;
  /** per category over the first set (tuned + holdout) */
  byCategory: Record<string, Score>;
  /** per category over each later held-out set */
  bySet: Record<HeldOut, Record<string, Score>>;
} & Record<HeldOut, Score>;

export function evaluate(law: LawStore, qs = loadQuestions()): Evaluation {
  const outcomes = qs.map((q) => runQuestion(law, q));
  const perCategory = (outs: Outcome[]) => {
    const r: Record<string, Score> = {};
    for (const c of [...new Set(outs.map((o) => o.q.category))]) r[c] = score(outs.filter((o) => o.q.category === c));
    return r;
  };
  const of = (k: HeldOut) => outcomes.filter((o) => o.q[k]);
  const sets = Object.fromEntries(HELD_OUT.map((k) => [k, score(of(k))])) as Record<HeldOut, Score>;
  const bySet = Object.fromEntries(HELD_OUT.map((k) => [k, perCategory(of(k))])) as Record<HeldOut, Record<string, Score>>;
  const first = outcomes.filter((o) => HELD_OUT.slice(1).every((k) => !o.q[k]));
  return { outcomes, all: score(outcomes), tuned: score(outcomes.filter((o) => isTuned(o.q))), ...sets, byCategory: perCategory(first), bySet };
}

const pct = (a: number, n: number) => (n ? `${((100 * a) / n).toFixed(1)} %` : '-');
export function formatScore(label: string, s: Score): string {
  return `${label.padEnd(10)} n=${String(s.n).padStart(3)}  hits@1 ${pct(s.hits1, s.n).padStart(7)}  hits@5 ${pct(s.hits5, s.n).padStart(7)}  MRR ${s.mrr.toFixed(3)}  article@1 ${pct(s.article1, s.articleN).padStart(7)}  empty ${s.empty}`;
}
