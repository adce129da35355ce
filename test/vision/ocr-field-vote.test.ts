// Address and issuer lines read by PP-OCRv3 Korean and Tesseract (kor) at three heights, decided by an aligned
// vote per character; the address numbers mended by the Latin recogniser (field-vote.ts).
import t from 'tap';
import { renderCard, photographCard, POOR_CAPTURES, charAccuracy } from '../helpers/id-cards.js';
import { align, voteLine, cleanLine, replaceDigitRuns, readFieldLines, mendDigits } from '../../src/vision/field-vote.js';
import { readCard } from '../../src/vision/idcard.js';
import { ocrRegions } from '../../src/vision/ocr.js';
import { LAYOUTS } from '../../src/vision/layouts.js';
import { loadCard } from '../../src/tasks/ekyc-ocr.js';

t.test('alignment onto the pivot: substitutions, lost characters, insertions', async (t) => {
  t.same(align([...'abc'], [...'abc']), { sub: ['a', 'b', 'c'], ins: [[], [], [], []] });
  t.same(align([...'abc'], [...'ac']).sub, ['a', '', 'c'], 'b lost');
  t.same(align([...'ac'], [...'abc']).ins, [[], ['b'], []], 'b inserted before c');
  t.same(align([...'abc'], [...'axc']).sub, ['a', 'x', 'c']);
});

t.test('the line vote: per character, weighted by confidence, lengths may differ', async (t) => {
  // each reader wrong in a different place: every position has a majority
  const v = voteLine([
    { text: '서울득불치 종로구 달구벌대로 144', confidence: 0.6 },
    { text: '서울특별시 종로구 달구불테로 144', confidence: 0.9 },
    { text: '서울특별시 총로구 달구벌대로 14', confidence: 0.7 },
  ])!;
  t.equal(v.text, '서울특별시 종로구 달구벌대로 144', 'the pivot (most confident) keeps its spaces');
  t.ok(v.confidence > 0.5 && v.confidence < 1, `confidence ${v.confidence.toFixed(3)}`);
  // a character only one light reader has is not inserted; one most readers have is
  t.equal(voteLine([{ text: '100동 1602호', confidence: 0.9 }, { text: '100동 16002호', confidence: 0.3 }, { text: '100동 1602호', confidence: 0.8 }])!.text, '100동 1602호');
  t.equal(voteLine([{ text: '100동 162호', confidence: 0.9 }, { text: '100동 1602호', confidence: 0.8 }, { text: '100동 1602호', confidence: 0.8 }])!.text, '100동 1602호');
  t.equal(voteLine([{ text: '', confidence: 0.9 }]), null, 'no text at all: null');
  t.equal(voteLine([{ text: ' ', confidence: 0.9 }, { text: '중구', confidence: 0.1 }])!.text, '중구');
});

t.test('lines cleaned of what never appears in an address; digit runs replaced in order', async (t) => {
  t.equal(cleanLine('서울특별시 ㅎ-- 「[ㅋ린로 85'), '서울특별시 린로 85');
  t.equal(cleanLine('白등道은 12-3'), '등은 12-3', 'Hanja dropped, a hyphen between digits kept');
  t.equal(replaceDigitRuns('프4능 893호', ['114', '801']), '프114능 801호');
  t.equal(replaceDigitRuns('테헤란로 5', ['85', '3']), null, 'as many groups as runs, or nothing');
  t.equal(replaceDigitRuns('테헤란로', []), null);
});

/** The PP-OCR lines inside a field's layout region of a card read at 1280 px. */
async function fieldLines(img: Awaited<ReturnType<typeof loadCard>>['img'], doc: 'jumin' | 'driver' | 'alien', field: string) {
  const [fx, fy, fw, fh] = LAYOUTS[doc].regions[field]!;
  const lines = await ocrRegions(img, { limitSide: 1280 });
  return lines.filter((l) => {
    const cx = (l.box[0] + l.box[2]) / 2, cy = (l.box[1] + l.box[3]) / 2;
    return l.text && cx >= fx * img.width && cx <= (fx + fw) * img.width && cy >= fy * img.height && cy <= (fy + fh) * img.height;
  });
}

t.test('motion blur: the vote and the digit reader recover address and issuer lines PP-OCR alone garbles', async (t) => {
  // seeds 9000, 9002 (jumin, alien) at 9-px motion blur: PP-OCR alone read the address as "관적관의시가신 반관대지로?
  // 10081002%" and "__ 출트_ 포승", the issuer "투조출업구의들인장공" (tuning seeds, bench/RESULTS.md ocr21)
  for (const [seed, doc] of [[9000, 'jumin'], [9002, 'alien']] as const) {
    const card = await renderCard(doc, { seed });
    const { img } = await loadCard(await photographCard(card, POOR_CAPTURES['motion-blur-640']!, seed), 'image');
    const addr = await fieldLines(img, doc, 'address');
    const pp = addr.map((l) => l.text).join(' ');
    const voted = await readFieldLines(img, addr, 'address');
    t.comment(`${seed} address: PP "${pp}" → "${voted.text}"`);
    t.ok(charAccuracy(card.truth.address!, voted.text) >= charAccuracy(card.truth.address!, pp) + 0.3, `${seed}: the address gains ≥ 0.3 over PP-OCR alone`);
    t.ok(voted.text.endsWith(card.truth.address!.split(' ').slice(-2).join(' ')), `${seed}: the flat number "${card.truth.address!.split(' ').slice(-2).join(' ')}" read exactly`);
    const r = await readCard(img, doc);
    t.equal(r.fields.issuer!.text.replace(/\s+/g, ''), card.truth.issuer!.replace(/\s+/g, ''), `${seed}: issuer "${r.fields.issuer!.text}"`);
    t.ok(charAccuracy(card.truth.address!, r.fields.address!.text) >= 0.85, `${seed}: card address "${r.fields.address!.text}" ≥ 0.85`);
  }
});

t.test('the digit reader: the flat line of a 480-px capture, and a line it cannot read left alone', async (t) => {
  const card = await renderCard('jumin', { seed: 9003 });
  const { img } = await loadCard(await photographCard(card, POOR_CAPTURES['all-480']!, 9003), 'image');
  const addr = await fieldLines(img, 'jumin', 'address');
  const flat = addr[addr.length - 1]!;
  t.equal(await mendDigits(img, flat.box, '1O4돔 11O4%'), '104동 1104호', 'two sure digit groups on a short line: the flat number');
  t.equal(await mendDigits(img, flat.box, '104동 1164호'), '104동 1104호', 'as many groups as runs: replaced in order');
  const first = addr[0]!;
  const text = '부산광역시 해운대구 세종대로 161';
  const mended = await mendDigits(img, first.box, text);
  t.match(mended, /^부산광역시 해운대구 세종대로 \d+$/, `the Hangul is kept: "${mended}"`);
});
