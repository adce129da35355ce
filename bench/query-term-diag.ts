// Query-term diagnosis (issue #15, map26): which of a question's terms carry its first hit. For every studied question
// (tuned, holdout … holdout12) its terms with their source — own word (the rule set's), morph lemma (a noun of the
// analyser that is no rule-set word), compound part (a noun lying inside a longer rule-set word: 요소수 → 소수), a
// compound seam dropped (query-terms.ts compoundTerms), mapped (vocabulary term: the word it stands for), abbreviation
// (the statute it names) — and its rank with everything on and with each source turned off in turn (switches mapped=0,
// morph=0, compoundSplit=0). A source carries the first hit when turning it off changes the first instrument: a
// miss that turning it off makes right was sent to the wrong law by it; a right-first question that turning it off
// loses was brought there by it. The validation set (VALIDATION) and the blind set (BLIND) are refused.
// Usage: npx tsx bench/query-term-diag.ts --data DIR [--sets tuned,holdout7] [--changed] [--set k=v,…]
import os from 'node:os';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { termIds } from '../src/law/normalize.js';
import { analyseQuery } from '../src/law/search/query.js';
import { compoundTerms } from '../src/law/search/query-terms.js';
import { SEARCH_SWITCHES } from '../src/law/search/switches.js';
import { BLIND, HELD_OUT, VALIDATION, isBlind, loadQuestions, runQuestion, type Outcome, type Question } from './law-quality/evaluate.js';

const arg = (n: string) => { const i = process.argv.indexOf(n); return i >= 0 ? process.argv[i + 1] : undefined; };
const STUDIED: string[] = ['tuned', ...HELD_OUT.filter((s) => s !== VALIDATION && s !== BLIND)];
const sets = (arg('--sets') ?? STUDIED.join(',')).split(',');
for (const s of sets) if (s === VALIDATION || s === BLIND || !STUDIED.includes(s)) { console.error(`query-term-diag: ${s} is not a studied set (${VALIDATION} validation, ${BLIND} blind)`); process.exit(2); }
const law = openLaw(new Store(arg('--data')!));
law.reload();
const base = { ...SEARCH_SWITCHES };
const sw = SEARCH_SWITCHES as Record<string, number>;
const apply = (cfg: string) => { Object.assign(SEARCH_SWITCHES, base); for (const kv of cfg.split(',').filter(Boolean)) { const [k, v] = kv.split('='); if (!(k! in sw)) throw new Error(`unknown switch ${k}`); sw[k!] = Number(v); } };
const baseCfg = arg('--set') ?? '';
const setOf = (q: Question) => Object.keys(q).find((k) => /^holdout\d*$/.test(k) && (q as unknown as Record<string, unknown>)[k]) ?? 'tuned';
const qs = loadQuestions().filter((q) => !isBlind(q) && sets.includes(setOf(q)));
const abbr = (q: string) => (law.search as unknown as { abbrOf(q: string): Map<string, string> }).abbrOf(q);
const df = (t: number) => law.search.df(t);

/** the terms of a question with their source */
function terms(q: string): string[] {
  apply(`${baseCfg},morph=0`);
  const rule = analyseQuery(q, abbr(q));
  apply(baseCfg);
  const aq = analyseQuery(q, abbr(q));
  const ruleWords = rule.core.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (const w of aq.core.split(/\s+/).filter(Boolean)) {
    if (aq.named.includes(w)) { out.push(`${w}<abbr>`); continue; }
    const src = ruleWords.includes(w) ? 'own' : aq.plain && ruleWords.some((r) => r.length > w.length && r.includes(w)) ? `part of ${ruleWords.find((r) => r.length > w.length && r.includes(w))}` : 'morph';
    const ids = termIds(w), kept = compoundTerms(w, df);
    out.push(`${w}<${src}${kept.length < ids.length ? `, seam dropped ${ids.length - kept.length}` : ''}>`);
  }
  (aq.mappedGroups ?? []).forEach((g, i) => out.push(`${g}<mapped ${aq.mappedFrom?.[i] ?? ''}>`));
  const general = aq.text.split(/\s+/).slice(aq.core.split(/\s+/).filter(Boolean).length).join(' ').replace(aq.mapped, '').trim();
  if (general) out.push(`${general}<everyday as own>`);
  return out;
}

const ABLATE = [['mapped', 'mapped=0'], ['morph', 'morph=0'], ['split', 'compoundSplit=0']] as const;
const l0 = os.loadavg()[0]!;
const run = (cfg: string): Outcome[] => { apply(`${baseCfg},${cfg}`); return qs.map((q) => runQuestion(law, q)); };
const all = run('');
const off = ABLATE.map(([, c]) => run(c));
const right = (o: Outcome) => o.rank === 1;
const count: Record<string, { sent: number; brought: number; moved: number }> = {};
for (const [name] of ABLATE) count[name] = { sent: 0, brought: 0, moved: 0 };
qs.forEach((q, i) => {
  const a = all[i]!;
  const notes: string[] = [];
  ABLATE.forEach(([name], k) => {
    const b = off[k]![i]!;
    if (a.top[0]?.split(' ')[0] === b.top[0]?.split(' ')[0] && a.rank === b.rank) return;
    const c = count[name]!;
    if (!right(a) && right(b)) { c.sent++; notes.push(`${name} SENT it wrong (off: ${b.rank})`); }
    else if (right(a) && !right(b)) { c.brought++; notes.push(`${name} BROUGHT it first (off: ${b.rank}, ${b.top[0]})`); }
    else { c.moved++; notes.push(`${name} moves it ${b.rank}→${a.rank} (off: ${b.top[0]})`); }
  });
  if (process.argv.includes('--changed') && !notes.length) return;
  console.log(`${right(a) ? '=' : 'x'} [${setOf(q)}] ${q.id} ${q.category} rank ${a.rank} | ${q.query} | want ${q.law}\n    terms: ${terms(q.query).join(' ')}\n    top: ${a.top[0] ?? '(none)'}${notes.length ? `\n    carried: ${notes.join('; ')}` : ''}`);
});
console.log(`\n${qs.length} questions (${sets.join(',')}); hits@1 ${all.filter(right).length}; with each source off: ${ABLATE.map(([n], k) => `${n} ${off[k]!.filter(right).length}`).join(', ')}`);
for (const [name] of ABLATE) { const c = count[name]!; console.log(`  ${name}: sent ${c.sent} misses to the wrong first law, brought ${c.brought} right first, moved ${c.moved} others`); }
console.log(`load ${l0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`);
process.exit(0);
