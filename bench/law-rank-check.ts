// Ranking guard for speed work on law search: dumps the top 10 of law.search.query (document, score, match, article
// positions, named article) and the total for every question of bench/law-quality (every set), as searchLaws asks it,
// and compares a dump with the current code. A change made for speed must leave every top 10 identical; two hits may
// trade places only when their scores are equal (reported as a tie).
// Usage: npm run bench -- law-rank-check --data DIR (--write FILE | --check FILE)
import fs from 'node:fs';
import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
import { loadQuestions } from './law-quality/evaluate.js';
import { searchCall } from './law-quality/calls.js';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i >= 0 ? process.argv[i + 1] : undefined; };
const dataDir = arg('--data'), writeTo = arg('--write'), checkAgainst = arg('--check');
if (!dataDir || (!writeTo && !checkAgainst)) { console.error('Usage: law-rank-check --data DIR (--write FILE | --check FILE)'); process.exit(2); }

interface Row { id: string; score: number; match: string; seqs: number[]; ref?: number }
interface Dump { id: string; query: string; total: number; top: Row[] }

const store = new Store(dataDir);
const law = openLaw(store);
law.reload();
const dump: Dump[] = [];
for (const q of loadQuestions()) {
  const c = searchCall(q); // the call searchLaws makes
  const hits = law.search.query(c.text, c.filters, c.ref);
  dump.push({
    id: q.id, query: q.query, total: hits.total,
    top: hits.slice(0, 10).map((h) => ({ id: h.doc.id, score: h.score, match: h.match, seqs: h.seqs.slice(), ...(h.ref !== undefined ? { ref: h.ref } : {}) })),
  });
}
await store.close();

if (writeTo) {
  fs.writeFileSync(writeTo, JSON.stringify(dump));
  console.log(`law-rank-check: wrote the top 10 of ${dump.length} questions to ${writeTo}`);
} else {
  const before = new Map((JSON.parse(fs.readFileSync(checkAgainst!, 'utf8')) as Dump[]).map((d) => [d.id, d]));
  let differ = 0, ties = 0;
  const same = (a: Row, b: Row) => a.id === b.id && a.score === b.score && a.match === b.match && a.ref === b.ref && a.seqs.join() === b.seqs.join();
  for (const d of dump) {
    const b = before.get(d.id);
    if (!b) { console.log(`  ${d.id}: not in the earlier dump`); differ++; continue; }
    const problems: string[] = [];
    if (b.total !== d.total) problems.push(`total ${b.total} → ${d.total}`);
    if (b.top.length !== d.top.length) problems.push(`${b.top.length} → ${d.top.length} hits`);
    for (let i = 0; i < Math.min(b.top.length, d.top.length); i++) {
      const x = b.top[i]!, y = d.top[i]!;
      if (same(x, y)) continue;
      // a tie may reorder: the same score at this place, and the earlier hit is found with equal fields elsewhere in the top 10
      const moved = d.top.find((r) => r.id === x.id);
      if (x.score === y.score && moved && same(x, moved)) { ties++; continue; }
      problems.push(`#${i + 1} ${x.id} ${x.score} [${x.seqs.join(',')}]${x.ref ?? ''} → ${y.id} ${y.score} [${y.seqs.join(',')}]${y.ref ?? ''}`);
    }
    if (problems.length) { differ++; console.log(`  ${d.id} ${d.query}: ${problems.join('; ')}`); }
  }
  console.log(`law-rank-check: ${dump.length} questions, ${differ} differ, ${ties} places swapped between equal scores`);
  if (differ) process.exitCode = 1;
}
