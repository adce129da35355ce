// An administrative rule whose article holds more of the question's distinctive words than every hit above it
// competes with the statutes on its evidence (issue 15, admrul24). The 고시/규정 that answers a question about green
// fees (골프장 그린피 카트비 캐디피) or a noise-dispute procedure (층간소음 방문상담 … 소음 측정 신청) is often in the top
// ten, behind a 법률 that holds one generic word of the question many times and wins on the statutes' kind and
// citation prior. The rule's own article holding several of the question's rarer words is the evidence the prior
// should not outweigh. Measured on the question's own words (not the everyday → statutory terms it was mapped to),
// each weighed by its rarity in the corpus (the mean idf of its bigrams); hand-written: no library ranks this.
import { nameKey, termIds } from '../normalize.js';
import { SEARCH_SWITCHES } from './switches.js';

/** a question word as a name key, its rarity, and the statutory terms it was mapped to (a text holding one of them
 *  holds the word: 반품 → 청약철회) */
export interface CoverageWord { w: string; idf: number; alt?: string[] }

/** the hit shape the lift reads and changes */
export interface CoverageHit { doc: { id: string; name: string; category: string }; score: number; seqs: number[] }

/** a statute's name less its kind (전자상거래 등에서의 소비자보호에 관한 법률 → 전자상거래등에서의소비자보호) */
const STATUTE_KIND = /(에관한)?(특별법|법률|법)(시행령|시행규칙)?$/;

/** a rule named after a statute (전자상거래 등에서의 소비자보호 지침 after 전자상거래 등에서의 소비자보호에 관한 법률):
 *  the statute's name less its kind, four characters or more, is in the rule's name */
export function namedAfter(rule: string, statute: string): boolean {
  const stem = nameKey(statute).replace(STATUTE_KIND, '');
  return stem.length >= 4 && nameKey(rule).includes(stem);
}

/** The question's own words (2 characters or more, each once) with their rarity over N articles; a word one of whose
 *  bigrams no article holds is in no article and left out. */
export function coverageWords(core: string, N: number, df: (t: number) => number, groups?: string[], from?: string[]): CoverageWord[] {
  const out: CoverageWord[] = [];
  for (const raw of core.split(/\s+/)) {
    const w = nameKey(raw);
    if (w.length < 2 || out.some((x) => x.w === w)) continue;
    // (the mapped groups of this word; switch ruleCoverageMapped 2)
    const alt = groups?.flatMap((g, i) => (nameKey(from?.[i] ?? '') === w ? g.split(/\s+/).map(nameKey).filter((t) => t.length >= 2) : []));
    const ids = termIds(w);
    let sum = 0, ok = ids.length > 0;
    for (const t of ids) { const d = df(t); if (!d) { ok = false; break; } sum += Math.log(1 + (N - d + 0.5) / (d + 0.5)); }
    if (ok) out.push(alt?.length ? { w, idf: sum / ids.length, alt } : { w, idf: sum / ids.length });
  }
  return out;
}

/** the coverage of a text: the rarity-weighted share of the words it holds, and how many */
export interface Coverage { share: number; found: number }

/** the coverage of a text */
export function coverageOf(text: string, words: CoverageWord[]): Coverage {
  let got = 0, all = 0, found = 0;
  for (const x of words) { all += x.idf; if (text.includes(x.w) || x.alt?.some((a) => text.includes(a))) { got += x.idf; found++; } }
  return { share: all ? got / all : 0, found };
}

/**
 * Among the first `k` hits (sorted), a rule (`lift(h)` answers its score at the statutes' prior, or null: not a rule
 * below that prior) whose best articles' coverage passes every hit above it by `ruleCoverageMargin` and holds at least
 * `ruleCoverageMin` question words gets that score. The first k are re-sorted by `order`; true when one was lifted.
 */
export function coverageLift<H extends CoverageHit>(out: H[], k: number, wordsOf: () => CoverageWord[], lift: (h: H) => number | null,
  bodyOf: (id: string, seq: number) => string, order: (a: H, b: H) => number): boolean {
  const margin = SEARCH_SWITCHES.ruleCoverageMargin, min = SEARCH_SWITCHES.ruleCoverageMin;
  // (the words are made only once a rule among the first k could be lifted, speed24 — most questions have none, and
  // making them reads the df of every bigram of the question's words)
  let made: CoverageWord[] | null = null;
  const words = (): CoverageWord[] => (made ??= wordsOf());
  const n = Math.min(k, out.length), cov: Array<Coverage | undefined> = new Array(n);
  const best = (i: number): Coverage => {
    const h = out[i]!;
    let b: Coverage = { share: 0, found: 0 };
    for (const s of h.seqs.slice(0, SEARCH_SWITCHES.ruleCoverageArticles)) { const c = coverageOf(bodyOf(h.doc.id, s), words()); if (c.share > b.share) b = c; }
    return (cov[i] = b);
  };
  const gain = SEARCH_SWITCHES.ruleCoverageGain, cap = gain ? SEARCH_SWITCHES.ruleCoverageGainCap ** gain : 1;
  let lifted = false;
  for (let i = 1; i < n; i++) {
    const h = out[i]!, to = lift(h);
    // (a rule the lift would not take past the hit just above it keeps its place: its articles are not read)
    if (to === null || (!gain && to <= h.score) || to * cap < out[i - 1]!.score) continue;
    if (words().length < min) return false;
    const c = best(i);
    if (c.found < min) continue;
    // (the gain that could not take the rule past the hit just above it changes no order: the other hits' articles are
    // not read further)
    const reach = (above: number) => to * Math.min(cap, above > 0 ? (c.share / above) ** gain : cap);
    let beats = true, above = 0;
    for (let j = 0; j < i && beats; j++) {
      const a = (cov[j] ?? best(j)).share;
      above = Math.max(above, a);
      beats = c.share > a + margin && reach(above) >= out[i - 1]!.score;
    }
    // (switch ruleCoverageParent: a rule named after a statute above it is that statute's own guideline: the question
    // found the statute, and the parent-law prior keeps it first)
    if (beats && SEARCH_SWITCHES.ruleCoverageParent) for (let j = 0; j < i && beats; j++) beats = out[j]!.doc.category === 'admrul' || !namedAfter(h.doc.name, out[j]!.doc.name);
    // (switch ruleCoverageGain: the prior alone often leaves the rule below its parent 법률, whose articles hold fewer of
    // the question's words; the rule's score also grows with its coverage's lead, (share / best above)^gain, capped)
    if (beats) { const s = reach(above); if (s > h.score) { h.score = s; lifted = true; } }
  }
  if (lifted) { const head = out.slice(0, n).sort(order); for (let i = 0; i < n; i++) out[i] = head[i]!; }
  return lifted;
}
