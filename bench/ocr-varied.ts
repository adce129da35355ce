// OCR on cards another generator might draw (test/helpers/id-cards-varied.ts): layout jitter, other fonts, the
// name with its Hanja, label words, the card turned 90/180/270° or cropped with a margin. Prints, per condition,
// each field's exact rate (text equal to the truth, spaces ignored), the mean character accuracy, and CPU seconds
// per card (process.cpuUsage, every thread), then the exact rate per font.
// Run: nice -n 19 npm run bench -- ocr-varied [--cards 6] [--seed 7000] [--only turn-180,jitter-8]
//      [--fonts nanum-myeongjo,gowun-dodum] [--ab orient=0,content=0] (A/B of the reader's switches, interleaved)
// Tuning used seeds 100+ with noto-sans / nanum-gothic / nanum-myeongjo; gowun-dodum and seeds 7000+ are held out.
// card27 added labels above values, glare, busy / pale backgrounds and tilts (test/helpers/card-photo.ts) and the
// Debian fonts (nanum-square, un-dotum tuned on seeds 100–105; nanum-barun, un-batang and seeds 8100+ held out):
// --ab checks=0 is the reader before card27.
import { renderVariedCard, VARIED_CONDITIONS, VARIED_FONTS } from '../test/helpers/id-cards-varied.js';
import { charAccuracy } from '../test/helpers/id-cards.js';
import { table } from './lib/load.js';
import { loadavg } from 'node:os';
import ekycOcr from '../src/tasks/ekyc-ocr.js';
import { CARD_READ_SWITCHES } from '../src/vision/card-fields.js';

const argv = process.argv;
const arg = (name: string): string | undefined => { const i = argv.indexOf(`--${name}`); return i > 0 ? argv[i + 1] : undefined; };
const CARDS = Number(arg('cards') ?? 6);
const SEED = Number(arg('seed') ?? 7000);
const only = arg('only')?.split(',');
const fonts = arg('fonts')?.split(',') ?? VARIED_FONTS;
const verbose = argv.includes('--verbose');
const SW = CARD_READ_SWITCHES as Record<string, number>;
const parse = (s: string) => Object.fromEntries(s.split(',').map((kv) => { const [k, v] = kv.split('='); if (!(k! in SW)) { console.error(`ocr-varied: unknown switch ${k} (${Object.keys(SW).join(', ')})`); process.exit(2); } return [k!, Number(v)]; }));
const sides: Array<[string, Record<string, number>]> = [['A', { ...SW }]];
if (arg('ab')) sides.push(['B', { ...SW, ...parse(arg('ab')!) }]);
const docs = ['jumin', 'driver', 'alien'] as const;
const FIELDS = ['name', 'number', 'birth_date', 'address', 'issue_date', 'issuer', 'license_number', 'nationality', 'status'];
const short: Record<string, string> = { birth_date: 'birth', issue_date: 'issue', license_number: 'licence', nationality: 'nation' };
const norm = (s: string) => s.replace(/\s+/g, '');

// warm-up, not counted (model sessions, Tesseract)
for (const doc of docs) { const c = await renderVariedCard(doc, { seed: SEED - 1 }); await ekycOcr({ image: c.image, docType: doc }); }
const t0 = performance.now();
const rows: Array<Record<string, string | number>> = [];
const perFont = sides.map(() => new Map<string, [number, number]>());
for (const [ci, [cond, opts]] of Object.entries(VARIED_CONDITIONS).entries()) {
  if (only && !only.includes(cond)) continue;
  const exact = sides.map(() => ({} as Record<string, [number, number]>));
  const acc = sides.map(() => [] as number[]);
  const cpu = sides.map(() => 0);
  for (let i = 0; i < CARDS; i++) {
    const doc = docs[i % 3]!, fontName = fonts[(i + ci) % fonts.length]!; // each font on each doc type across the rows
    const card = await renderVariedCard(doc, { ...opts, seed: SEED + i, font: fontName });
    const order = sides.map((_, s) => s);
    if (i % 2) order.reverse();
    for (const s of order) {
      Object.assign(SW, sides[s]![1]);
      const c0 = process.cpuUsage();
      const r = await ekycOcr({ image: card.image, docType: doc });
      cpu[s] += (((c) => c.user + c.system)(process.cpuUsage(c0))) / 1e6;
      let all = 0, ok = 0;
      for (const [k, v] of Object.entries(card.truth)) {
        if (k === 'jumin_full' && doc === 'alien') continue;
        const key = k === 'jumin_full' || k === 'registration_number' ? 'number' : k;
        const got = r.fields[k]?.text ?? '';
        const hit = norm(v) === norm(got);
        const e = (exact[s]![key] ??= [0, 0]);
        e[0] += hit ? 1 : 0; e[1]++;
        acc[s]!.push(charAccuracy(v, got));
        all++; ok += hit ? 1 : 0;
        if (verbose && !hit) console.log(`  ${sides.length > 1 ? sides[s]![0] + ' ' : ''}${cond} #${i} ${doc} ${fontName} ${key}: "${v}" → "${got}"`);
      }
      const f = perFont[s]!.get(fontName) ?? [0, 0];
      perFont[s]!.set(fontName, [f[0] + ok, f[1] + all]);
    }
  }
  sides.forEach(([label], s) => {
    const row: Record<string, string | number> = { condition: sides.length > 1 ? `${cond} ${label}` : cond, cards: CARDS };
    for (const k of FIELDS) { const e = exact[s]![k]; row[short[k] ?? k] = e ? `${e[0]}/${e[1]}` : '–'; }
    row['char acc'] = (acc[s]!.reduce((a, b) => a + b, 0) / acc[s]!.length).toFixed(3);
    row['CPU s/card'] = (cpu[s]! / CARDS).toFixed(2);
    rows.push(row);
  });
  console.error(`${cond} done: ${rows.slice(-sides.length).map((r) => JSON.stringify(r)).join(' ')}`);
}
console.log(`\n### OCR on varied cards (${CARDS} cards per row, seeds ${SEED}–${SEED + CARDS - 1}, jumin/driver/alien in turn, fonts ${fonts.join('/')}; ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})\n`);
if (sides.length > 1) console.log(`A = ${JSON.stringify(sides[0]![1])}, B = ${JSON.stringify(sides[1]![1])}\n`);
console.log(table(rows));
console.log('\nexact fields per font: ' + sides.map(([l], s) => `${sides.length > 1 ? l + ': ' : ''}${[...perFont[s]!].map(([f, [a, b]]) => `${f} ${a}/${b}`).join(', ')}`).join('; '));
