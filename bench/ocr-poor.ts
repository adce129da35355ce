// OCR on poor captures: rendered ID cards "photographed" with perspective, Gaussian / motion blur, glare,
// JPEG q60 and a downscale to 480–640 px (test/helpers/id-cards.ts photographCard), read by the ekyc-ocr task.
// Prints per-degradation character accuracy of name and number (and the other fields), the exact-field rate, and
// wall and CPU seconds per card (CPU: process.cpuUsage, all threads).
// Run: nice -n 19 npm run bench -- ocr-poor [--cards 9] [--seed 9100] [--only small-480,all-480] [--set k=v]
//      [--ab mendAll=1,checkConfident=0] (A/B of field-vote.ts's switches on the same cards, interleaved;
//      also card-fields.ts's: --ab orient=0,content=0)
import { renderCard, photographCard, charAccuracy, POOR_CAPTURES } from '../test/helpers/id-cards.js';
import { table } from './lib/load.js';
import { loadavg } from 'node:os';
import ekycOcr from '../src/tasks/ekyc-ocr.js';
import { FIELD_VOTE_SWITCHES } from '../src/vision/field-vote.js';
import { CARD_READ_SWITCHES } from '../src/vision/card-fields.js';

const argv = process.argv;
const arg = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i > 0 ? argv[i + 1] : undefined; };
const CARDS = Number(arg('cards') ?? 9);
/** first seed (the earlier sessions measured 9100+; a fresh range, e.g. 9200, checks that a change generalises) */
const SEED = Number(arg('seed') ?? 9100);
const only = arg('only')?.split(',');
const verbose = argv.includes('--verbose');
// measurement switches of the address / issuer reading (field-vote.ts, e.g. --set mendAll=1)
// (and of the card reader's layout steps, card-fields.ts: --ab orient=0,content=0 is the reader of before)
const SW = new Proxy({} as Record<string, number>, {
  get: (_, k: string) => (k in CARD_READ_SWITCHES ? (CARD_READ_SWITCHES as Record<string, number>)[k] : (FIELD_VOTE_SWITCHES as Record<string, number>)[k]),
  set: (_, k: string, v: number) => { ((k in CARD_READ_SWITCHES ? CARD_READ_SWITCHES : FIELD_VOTE_SWITCHES) as Record<string, number>)[k] = v; return true; },
  has: (_, k: string) => k in CARD_READ_SWITCHES || k in FIELD_VOTE_SWITCHES,
  ownKeys: () => [...Object.keys(FIELD_VOTE_SWITCHES), ...Object.keys(CARD_READ_SWITCHES)],
  getOwnPropertyDescriptor: (_, k: string) => ({ enumerable: true, configurable: true, value: k in CARD_READ_SWITCHES ? (CARD_READ_SWITCHES as Record<string, number>)[k] : (FIELD_VOTE_SWITCHES as Record<string, number>)[k] }),
});
for (let i = argv.indexOf('--set'); i >= 0; i = argv.indexOf('--set', i + 1)) {
  const [k, v] = argv[i + 1]!.split('=');
  if (!(k! in SW)) { console.error(`ocr-poor: unknown switch ${k} (${Object.keys(SW).join(', ')})`); process.exit(2); }
  SW[k!] = Number(v);
}
// --ab k=v,k=v: every card read twice, with the switches as set (A) and with these (B), the order alternating
// card by card, so both see the same load; each side's own accuracy and CPU are printed
const abArg = arg('ab');
const sides: Array<[string, Record<string, number>]> = [['A', { ...SW }]];
if (abArg) sides.push(['B', { ...SW, ...Object.fromEntries(abArg.split(',').map((kv) => { const [k, v] = kv.split('='); if (!(k! in SW)) { console.error(`ocr-poor: unknown switch ${k}`); process.exit(2); } return [k!, Number(v)]; })) }]);
const docs = ['jumin', 'driver', 'alien'] as const;
const mean = (a: number[]) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : NaN);

const rows: Array<Record<string, string | number>> = [];
// warm-up, not counted: the first read loads the ONNX sessions and the Tesseract engine (seconds of CPU), which
// would otherwise be charged to the first card (and in an A/B run to side A)
for (const doc of docs) { const c = await renderCard(doc, { seed: SEED - 1 }); await ekycOcr({ image: await photographCard(c, POOR_CAPTURES['small-640']!, SEED - 1), docType: doc }); }
const t0 = performance.now();
for (const [kind, d] of Object.entries(POOR_CAPTURES)) {
  if (only && !only.includes(kind)) continue;
  const acc = sides.map(() => ({} as Record<string, number[]>));
  const exactNameNum = sides.map(() => 0), cpu = sides.map(() => 0), wall = sides.map(() => 0);
  for (let i = 0; i < CARDS; i++) {
    const doc = docs[i % 3]!;
    const card = await renderCard(doc, { seed: SEED + i });
    const photo = await photographCard(card, d, SEED + i);
    const order = sides.map((_, s) => s);
    if (i % 2) order.reverse();
    for (const s of order) {
      Object.assign(SW, sides[s]![1]);
      const tk = performance.now(), c0 = process.cpuUsage(); // every thread of the process (onnxruntime's included)
      const r = await ekycOcr({ image: photo, docType: doc });
      cpu[s] += (((c) => c.user + c.system)(process.cpuUsage(c0))) / 1e6;
      wall[s] += (performance.now() - tk) / 1000;
      const num = doc === 'alien' ? 'registration_number' : 'jumin_full';
      for (const [k, v] of Object.entries(card.truth)) {
        const got = r.fields[k]?.text ?? '';
        const key = k === num ? 'number' : k === 'jumin_full' ? '' : k;
        if (!key) continue;
        (acc[s]![key] ??= []).push(charAccuracy(v, got));
        if (verbose && v.replace(/\s+/g, '') !== got.replace(/\s+/g, '') && ['name', 'number', 'address', 'issuer'].includes(key)) console.log(`  ${sides.length > 1 ? sides[s]![0] + ' ' : ''}${kind} #${i} ${doc} ${key}: "${v}" → "${got}"`);
      }
      if (r.fields.name?.text.replace(/\s+/g, '') === card.truth.name!.replace(/\s+/g, '') && r.fields[num]?.text === card.truth[num]) exactNameNum[s]++;
    }
  }
  sides.forEach(([label], s) => {
    const a = acc[s]!;
    const others = ['birth_date', 'issue_date', 'address', 'issuer'].map((k) => `${k.split('_')[0]} ${mean(a[k] ?? []).toFixed(3)}`).join(', ');
    rows.push({
      degradation: sides.length > 1 ? `${kind} ${label}` : kind,
      cards: CARDS,
      'name char acc': mean(a.name!).toFixed(3),
      'number char acc': mean(a.number!).toFixed(3),
      'name+number exact': `${exactNameNum[s]}/${CARDS}`,
      'other fields (char acc)': others,
      's/card': (wall[s]! / CARDS).toFixed(2),
      'CPU s/card': (cpu[s]! / CARDS).toFixed(2),
    });
  });
  console.error(`${kind} done: ${rows.slice(-sides.length).map((r) => JSON.stringify(r)).join(' ')}`); // partial results while the run goes on
}
console.log(`\n### OCR on poor captures (${CARDS} cards per row, seeds ${SEED}–${SEED + CARDS - 1}, jumin/driver/alien in turn, JPEG q60; ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})\n`);
if (abArg) console.log(`A = ${JSON.stringify(sides[0]![1])}, B = ${JSON.stringify(sides[1]![1])}\n`);
console.log(table(rows));
