// The morphological analyser of the law search's questions (issue #15, morph22): its CPU per question cold (a fresh
// process: the dictionary opened on the first question, every page and matrix row read for the first time; the
// kernel's page cache may hold the files already) and warm (the same questions again), the pages it read, and the
// RSS it adds. Texts: the studied questions of the law-quality set (the blind set is left out).
// Usage: npm run bench -- law-morph [--rounds 3]
import os from 'node:os';
import { dictionaryReads, tokens } from '../src/law/search/morph/analyser.js';
import { isBlind, loadQuestions } from './law-quality/evaluate.js';

const ri = process.argv.indexOf('--rounds');
const rounds = ri >= 0 ? Number(process.argv[ri + 1]) : 3;
const texts = loadQuestions().filter((q) => !isBlind(q)).map((q) => q.query);
const cpu = (): number => { const u = process.cpuUsage(); return u.user + u.system; };
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const load0 = os.loadavg()[0]!;
global.gc?.();
const rss0 = process.memoryUsage().rss;
const pass = (): { each: number[]; total: number } => {
  const each: number[] = [];
  const t0 = cpu();
  for (const t of texts) { const c = cpu(); tokens(t); each.push(cpu() - c); }
  return { each, total: cpu() - t0 };
};
const report = (name: string, r: { each: number[]; total: number }, reads: number): void =>
  console.log(`${name}: CPU mean ${(r.total / texts.length / 1000).toFixed(3)} ms/question, p50 ${(pct(r.each, 0.5) / 1000).toFixed(3)}, p99 ${(pct(r.each, 0.99) / 1000).toFixed(3)}, first ${(r.each[0]! / 1000).toFixed(1)} ms; dictionary reads ${reads}`);
const cold = pass();
report('cold', cold, dictionaryReads());
let warm = cold;
for (let i = 0; i < rounds; i++) { const before = dictionaryReads(); warm = pass(); if (i === rounds - 1) report(`warm (round ${i + 1})`, warm, dictionaryReads() - before); }
global.gc?.();
const rss1 = process.memoryUsage().rss;
console.log(`questions ${texts.length}; RSS ${(rss0 / 2 ** 20).toFixed(1)} → ${(rss1 / 2 ** 20).toFixed(1)} MB (+${((rss1 - rss0) / 2 ** 20).toFixed(1)}); heap used ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(1)} MB`);
console.log(`load ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`);
