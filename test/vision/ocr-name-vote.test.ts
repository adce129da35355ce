// Hangul names read by PP-OCRv3 Korean and by Tesseract (kor) at three line heights, decided by a vote per syllable.
import t from 'tap';
import { renderCard, photographCard, POOR_CAPTURES } from '../helpers/id-cards.js';
import { decodeRgb } from '../../src/tasks/lib/image-io.js';
import { voteSyllables, voteName, hangulName, TESSERACT_HEIGHTS } from '../../src/vision/name-vote.js';
import { tesseractLine, linePgm } from '../../src/vision/ocr-tesseract.js';
import { readCard } from '../../src/vision/idcard.js';
import { loadCard } from '../../src/tasks/ekyc-ocr.js';

t.test('the vote: per syllable, weighted by confidence, over the most common name length', async (t) => {
  // one confident reader wrong on one syllable, three others right: the three win that syllable
  const v = voteSyllables([{ text: '한린도', confidence: 1 }, { text: '한민도', confidence: 0.9 }, { text: '한민도', confidence: 0.9 }, { text: '한민도', confidence: 0.9 }])!;
  t.equal(v.text, '한민도');
  // syllables 1 and 3: all four agree (3.7 / 4); syllable 2: 2.7 / 4
  t.equal(Math.round(v.confidence * 1000), Math.round(((3.7 + 2.7 + 3.7) / 3 / 4) * 1000));
  // errors on different syllables: each position has a majority
  t.equal(voteSyllables([{ text: '권해에', confidence: 0.8 }, { text: '권혜혜', confidence: 0.9 }, { text: '권혜혀', confidence: 0.8 }])!.text, '권혜혜');
  // a reading of another length does not vote on syllables; the more common length wins
  t.equal(voteSyllables([{ text: '안한', confidence: 0.95 }, { text: '안혜하', confidence: 0.8 }, { text: '안혜하', confidence: 0.7 }])!.text, '안혜하');
  // spaces and stray marks are dropped; readings that are no name do not vote; none at all → null
  t.equal(hangulName("'임 지성"), '임지성');
  t.equal(hangulName('A1'), null);
  t.equal(voteSyllables([{ text: '임지성', confidence: 0.5 }, { text: '12', confidence: 0.99 }])!.text, '임지성');
  t.equal(voteSyllables([{ text: '', confidence: 0 }, { text: 'x', confidence: 0.9 }]), null);
});

t.test('Tesseract reads the name line of a rendered card (PGM crop, three heights)', async (t) => {
  const card = await renderCard('jumin', { seed: 4242 });
  const img = await decodeRgb(card.image);
  const r = await readCard(img, 'jumin');
  const box = r.fields.name!.bbox;
  const pgm = linePgm(img, box, 96);
  t.match(new TextDecoder().decode(pgm.subarray(0, 16)), /^P5\n\d+ 96\n255\n/, 'a PGM of height 96');
  for (const h of TESSERACT_HEIGHTS) {
    const line = await tesseractLine(img, box, h);
    t.equal(line.text.replace(/\s+/g, ''), card.truth.name, `height ${h}: "${line.text}"`);
    t.ok(line.confidence > 0.8 && line.confidence <= 1, `height ${h}: confidence ${line.confidence}`);
  }
  t.equal(r.fields.name!.text, card.truth.name, 'the card reading keeps the name');
});

t.test('motion-blurred and 480-px captures: the vote reads the names PP-OCR alone misses', async (t) => {
  // seeds 9200, 9201 (jumin, driver): PP-OCRv3 alone read 박진혜 → 박진에 / 탁진에 and 김혜빈 → 김해킨 / 길려린 here
  let ok = 0, n = 0;
  for (const kind of ['motion-blur-640', 'all-480'] as const) {
    for (const [seed, doc] of [[9200, 'jumin'], [9201, 'driver']] as const) {
      const card = await renderCard(doc, { seed });
      const { img } = await loadCard(await photographCard(card, POOR_CAPTURES[kind]!, seed), 'image');
      const r = await readCard(img, doc);
      const v = await voteName(img, r.fields.name!.bbox, { text: '', confidence: 0 });
      t.comment(`${kind} ${seed}: card "${r.fields.name!.text}", readings ${v.readings.map((x) => x.text).join(' / ')}`);
      n++;
      if (r.fields.name!.text === card.truth.name) ok++;
    }
  }
  t.equal(ok, n, `${ok}/${n} names exact`);
});
