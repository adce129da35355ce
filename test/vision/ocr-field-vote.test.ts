// Address and issuer lines read by PP-OCRv3 Korean and Tesseract (kor) at three heights, decided by an aligned
// vote per character; the address numbers mended by the Latin recogniser (field-vote.ts).
import t from 'tap';
import { renderCard, photographCard, POOR_CAPTURES, charAccuracy } from '../helpers/id-cards.js';
import { align, voteLine, cleanLine, replaceDigitRuns, readFieldLines, mendDigits, mendDoubtful, doubtfulSyllable, digitsInDoubt, WEAK_LINE, FIELD_VOTE_SWITCHES, type PpLine } from '../../src/vision/field-vote.js';
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

/** A PP-OCR line of glyphs at an even pitch (in line heights), each with its probability. */
function ppLine(text: string, probs: number[], pitch = 1, lh = 34): PpLine {
  const g = [...text.replace(/\s+/g, '')];
  const charX = g.map((_, i) => 100 + (i + 0.5) * pitch * lh);
  return { text, confidence: probs.reduce((s, p) => s + p, 0) / probs.length, box: [100, 200, 100 + g.length * pitch * lh + 0.3 * lh, 200 + lh], charConfidences: probs, charX };
}

t.test('a confident line with one unsure syllable is doubtful; one after a number (동 / 호) is not', async (t) => {
  const sure = (n: number) => new Array<number>(n).fill(0.99);
  // 월드컵로 read 월드컴로 with 컴 at 0.81 inside a 0.965 line (seed 9400, clean capture)
  const l = ppLine('대구광역시수성구월드컴로112', [...sure(10), 0.81, ...sure(4)]);
  t.ok(l.confidence >= WEAK_LINE, `the line is confident (${l.confidence.toFixed(3)}): the weak-line vote never saw it`);
  t.equal(doubtfulSyllable(l), true, '컴 at 0.81 < 0.85');
  t.equal(doubtfulSyllable(ppLine('대구광역시수성구월드컵로112', [...sure(10), 0.86, ...sure(4)])), false, 'at 0.86: not doubtful');
  t.equal(doubtfulSyllable(ppLine('117동1201호', [...sure(8), 0.56])), false, '호 at 0.56 after a number: the lexicon mends it');
  t.equal(doubtfulSyllable(ppLine('117동1201호', [...sure(7), 0.6, 0.99])), false, 'a digit at 0.6: not a syllable');
});

t.test('digits in doubt: an unsure digit, or room in the box for a lost one', async (t) => {
  const sure = (n: number) => new Array<number>(n).fill(0.99);
  // glyph pitch 1 line height for Hangul, 0.55 for digits; the box ends 0.3 line heights after the last glyph
  const line = (text: string, probs: number[], extraTail = 0, gapBefore = -1, gap = 0): PpLine => {
    const lh = 34, g = [...text], xs: number[] = [];
    let x = 100 + 0.5 * lh;
    g.forEach((ch, i) => { if (i) x += (/\d/.test(ch) && /\d/.test(g[i - 1]!) ? 0.55 : 1) * lh + (i === gapBefore ? gap * lh : 0); xs.push(x); });
    return { text, confidence: 0.99, box: [100, 200, x + (0.3 + extraTail) * lh, 200 + lh], charConfidences: probs, charX: xs };
  };
  t.equal(digitsInDoubt(line('무등로241', sure(6))), false, 'every digit sure, the box ends at the last one: no doubt');
  t.equal(digitsInDoubt(line('무등로24', sure(5), 0.55)), true, '무등로 241 read 무등로24: a digit-wide empty tail');
  t.equal(digitsInDoubt(line('무등로21', sure(5), 0, 4, 0.55)), true, '241 read 21: two digits 1.1 line heights apart');
  t.equal(digitsInDoubt(line('무등로2', sure(4), 0, 3, 1.1)), true, '112 read 2: the number starts 2.1 line heights after 로');
  t.equal(digitsInDoubt(line('무등로241', [...sure(4), 0.8, 0.99])), true, 'a digit at 0.8');
  t.equal(digitsInDoubt(line('서울특별시종로구', sure(8), 2)), false, 'no digits: nothing to mend');
});

t.test('a clean card: the confident address line with an unsure syllable is voted', async (t) => {
  // seed 9400 clean (bench/RESULTS.md ocr22): PP-OCR reads 월드컵로 as 월드컴로, 컴 at 0.81 in a 0.965 line
  const card = await renderCard('jumin', { seed: 9400 });
  const { img } = await loadCard(await photographCard(card, POOR_CAPTURES['clean-1280-q60']!, 9400), 'image');
  const addr = await fieldLines(img, 'jumin', 'address');
  t.ok(addr[0]!.confidence >= WEAK_LINE, `first line "${addr[0]!.text}" at ${addr[0]!.confidence.toFixed(3)}`);
  t.equal(doubtfulSyllable(addr[0]!), true, 'one syllable below 0.85');
  // this card's 112 has its 1 at 0.85 and 1201 its 0 at 0.83: both lines' numbers are read in full (a card whose
  // digits are all ≥ 0.9 reads each line's numbers once, on the plain line)
  t.same(addr.map((l) => digitsInDoubt(l)), [true, true], 'digits below 0.9 on both lines: the prepared copies are read');
  const before = { ...FIELD_VOTE_SWITCHES };
  try {
    FIELD_VOTE_SWITCHES.checkConfident = 0;
    const old = await readFieldLines(img, addr, 'address');
    FIELD_VOTE_SWITCHES.checkConfident = 1;
    const voted = await readFieldLines(img, addr, 'address');
    t.comment(`"${old.text}" → "${voted.text}"`);
    t.ok(charAccuracy(card.truth.address!, voted.text) > charAccuracy(card.truth.address!, old.text), `the vote gains: ${charAccuracy(card.truth.address!, old.text).toFixed(3)} → ${charAccuracy(card.truth.address!, voted.text).toFixed(3)}`);
    t.match(voted.text, /월드컵로/);
    FIELD_VOTE_SWITCHES.mendAll = 1;
    t.equal((await readFieldLines(img, addr, 'address')).text, voted.text, 'reading every line\'s digits on the prepared copies (ocr21) gives the same text');
  } finally {
    Object.assign(FIELD_VOTE_SWITCHES, before);
  }
});

t.test('a doubtful line takes the vote only at its unsure syllables', async (t) => {
  const sure = (n: number) => new Array<number>(n).fill(0.99);
  const l = ppLine('대구광역시 수성구 월드컴로 112', [...sure(10), 0.81, ...sure(4)]);
  t.equal(mendDoubtful(l, '대구광역시 수성구 월드컵로 112'), '대구광역시 수성구 월드컵로 112', '컴 at 0.81: the vote\'s 컵 taken');
  t.equal(mendDoubtful(l, '대구광역시 월드컵로 11'), '대구광역시 수성구 월드컵로 112', 'the vote lost sure glyphs (glare): PP-OCR\'s kept');
  t.equal(mendDoubtful(l, '대구광역시 수성구 윌드컵로 142'), '대구광역시 수성구 월드컵로 112', 'sure syllables and digits are never changed by the vote');
});
