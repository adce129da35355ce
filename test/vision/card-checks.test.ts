// Cards photographed as others would (test/helpers/card-photo.ts: labels above their values, glare, a busy
// background, a few degrees off straight) and the reader's checks for them (card-fields.ts labelClips, the number
// chosen by its birth part; idcard.ts the Hanja cut and the licence type mended).
import t from 'tap';
import { renderVariedCard, VARIED_CONDITIONS } from '../helpers/id-cards-varied.js';
import ekycOcr, { loadCard } from '../../src/tasks/ekyc-ocr.js';
import { CARD_READ_SWITCHES, assignByContent, labelClips } from '../../src/vision/card-fields.js';
import { normaliseRrn } from '../../src/vision/card-patterns.js';
import type { TextLine } from '../../src/vision/ocr.js';
import type { Box } from '../../src/vision/raster.js';

t.setTimeout(900_000);

function line(text: string, box: Box, conf = 0.95): TextLine {
  const n = text.replace(/\s+/g, '').length, w = (box[2] - box[0]) / n;
  return { text, confidence: conf, box, charConfidences: Array(n).fill(conf), charX: Array.from({ length: n }, (_, i) => box[0] + w * (i + 0.5)) };
}

t.test('a line reaching up into the label above it is clipped below the label', async (t) => {
  const ls = [line('성명', [303, 229, 348, 260], 1), line('창아재였품리', [297, 241, 553, 316], 0.54), line('주민번호', [316, 325, 388, 353], 1), line('720811-1******', [315, 345, 569, 392], 0.98)];
  t.same([...labelClips(ls)], [[1, [297, 260, 553, 316]], [3, [315, 353, 569, 392]]], 'the name and the number, below their labels');
  t.same([...labelClips([ls[0]!, line('720811-1******', [315, 262, 569, 310])])], [], 'a label ending above the line: nothing to clip');
  t.same([...labelClips([ls[1]!, ls[3]!])], [], 'no label: nothing clipped');
});

t.test('an issue date read without its dots is not taken for the number (birth part checked)', async (t) => {
  const ls = [
    line('2종소형', [246, 157, 386, 200]),
    line('장아재', [265, 248, 383, 299]),
    line('720811-1******', [288, 344, 550, 387], 0.99),
    line('울산광역시울주군도산대로262', [296, 453, 674, 482]),
    line('2010521', [339, 616, 518, 651], 1), // passes for 201052-1 (a number whose mask was lost), surer than the number
    line('울산광역시경찰청장', [303, 710, 698, 758]),
  ];
  const f = assignByContent(ls, 'driver')!;
  t.equal(f.jumin_full![0]!.text, '720811-1******');
  t.equal(f.issue_date![0]!.text, '2010521');
  t.equal(f.name![0]!.text, '장아재');
  Object.assign(CARD_READ_SWITCHES, { checks: 0 });
  try {
    t.equal(assignByContent(ls, 'driver'), null, 'before: the date was the number, no date was left');
  } finally {
    Object.assign(CARD_READ_SWITCHES, { checks: 1 });
  }
});

t.test('a stray glyph before the number and a date whose split is not known from its digits (tilt-pale seed 117)', async (t) => {
  t.equal(normaliseRrn('O020317-4****'), '020317-4******');
  t.equal(normaliseRrn('12-10-754400-22'), '12-10-754400-22', 'a licence number is left alone');
  const ls = [
    line('2종보통', [415, 211, 533, 248]), line('23-25-648991-99', [709, 214, 980, 243]), line('송동현', [413, 273, 523, 317]),
    line('O020317-4****', [410, 335, 670, 371], 0.94), line('서울특별시마포구삼일대로86', [412, 406, 752, 432]),
    line('113동1802호', [410, 469, 577, 499]), line('2025111', [474, 547, 628, 574], 0.93), line('서울특별시경찰청장', [430, 618, 721, 653]),
  ];
  const f = assignByContent(ls, 'driver')!;
  t.same([f.jumin_full![0]!.text, f.issue_date![0]!.text, f.name![0]!.text, f.issuer![0]!.text], ['O020317-4****', '2025111', '송동현', '서울특별시경찰청장']);
});

const same = (a: string, b: string) => a.replace(/\s+/g, '') === b.replace(/\s+/g, '');

t.test('a card on white paper turned 5° is turned back by its text lines (its edge not found)', async (t) => {
  const card = await renderVariedCard('jumin', { ...VARIED_CONDITIONS['tilt-pale'], seed: 103, font: 'nanum-gothic' });
  const loaded = await loadCard(card.image, 'image');
  // 5° in the photo, less once the crop is stretched to the card's 1280×807 (wider than it is tall by less)
  t.ok(loaded.skew! >= 4 && loaded.skew! <= 5.5, `skew ${loaded.skew}°`);
  const straight = await loadCard((await renderVariedCard('jumin', { seed: 103, font: 'nanum-gothic' })).image, 'image');
  t.equal(straight.skew, 0, 'a straight crop is left as it is');
  const r = await ekycOcr({ image: card.image, docType: 'jumin' });
  for (const k of ['name', 'jumin_full', 'address', 'issue_date', 'issuer']) t.ok(same(r.fields[k]!.text, card.truth[k]!), `${k}: "${r.fields[k]!.text}"`);
  const [x0, y0, x1, y1] = r.fields.issuer!.bbox; // the issuer's line in the submitted image: lower left, inside it
  t.ok(x0 >= 0 && x1 <= card.width && y1 <= card.height && y0 > card.height * 0.6, `issuer bbox ${r.fields.issuer!.bbox} in ${card.width}×${card.height}`);
});

for (const [cond, doc, seed, font] of [['all-photo', 'driver', 104, 'nanum-gothic'], ['above-jitter', 'alien', 102, 'noto-sans']] as const) {
  t.test(`${cond} ${doc} (seed ${seed}, ${font}): every field read`, async (t) => {
    const card = await renderVariedCard(doc, { ...VARIED_CONDITIONS[cond], seed, font });
    const r = await ekycOcr({ image: card.image, docType: doc });
    for (const [k, v] of Object.entries(card.truth)) t.ok(same(r.fields[k]?.text ?? '', v), `${k}: "${r.fields[k]?.text}" (truth "${v}")`);
  });
}
