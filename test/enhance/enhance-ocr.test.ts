// The enhancement must not lower OCR accuracy (the e-KYC OCR task on the card before and after enhancement).
import t from 'tap';
import { renderCard, charAccuracy, type Degrade } from '../helpers/id-cards.js';
import { enhanceDirect } from './direct.js';
import { defaultRegions } from '../../src/enhance/privacy.js';
import ekycOcr from '../../src/tasks/ekyc-ocr.js';
import quality from '../../src/tasks/quality.js';
import sharp from 'sharp';

// Phone photos arrive as JPEG (the spec's input) and the enhanced card leaves as JPEG: both sides of the comparison
// are JPEG. (A lossless PNG input is not a fair baseline: the OCR reads the blurred masked '******' of a PNG card but
// not of the same card as JPEG even at quality 100.) The cards carry the full registration number, as the cards sent
// to enhancement do (the privacy regions exist to protect it); on masked cards ('******') the OCR's reading of the
// mask is fragile either way (docs/enhance.md).
const CASES: Array<[('jumin' | 'driver' | 'alien'), string, Degrade]> = [
  ['jumin', 'blur', { blur: 2.2, jpegQuality: 90 }],
  ['driver', 'noise', { noise: 26, jpegQuality: 90 }],
  ['alien', 'low light', { tint: [0.3, 0.3, 0.28], noise: 4, jpegQuality: 90 }],
  ['jumin', 'blur+noise+low light', { blur: 1.2, noise: 10, tint: [0.5, 0.5, 0.45], jpegQuality: 90 }],
];

t.test('OCR accuracy on degraded cards is not lower after enhancement', async (t) => {
  let sumBefore = 0, sumAfter = 0, n = 0;
  for (const [doc, name, degrade] of CASES) {
    const card = await renderCard(doc, { seed: 40 + n, degrade, masked: false });
    const r = await enhanceDirect(card.image, defaultRegions(doc, 'juminMask'));
    const score = async (img: Uint8Array) => {
      const o = await ekycOcr({ image: img, docType: doc });
      const keys = Object.keys(card.truth).filter((k) => o.fields[k]);
      return keys.reduce((s, k) => s + charAccuracy(card.truth[k]!, o.fields[k]!.text), 0) / keys.length;
    };
    const before = await score(new Uint8Array(card.image));
    const after = await score(r.jpeg);
    t.ok(after >= before - 0.03, `${doc} ${name}: character accuracy ${before.toFixed(3)} → ${after.toFixed(3)} (quality ${r.prepared.qualityBefore.overallScore} → ${r.qualityAfter.overallScore})`);
    sumBefore += before;
    sumAfter += after;
    n++;
  }
  // no allowance: until ocr22 the mean could fall by one character (0.005), as the blurred original's address read
  // 달구벌대로 by the weak-line vote while the sharper enhanced card's confident line read 달구별대로 by PP-OCR alone;
  // a confident line with an unsure syllable is now voted there too (field-vote.ts doubtfulSyllable)
  t.ok(sumAfter / n >= sumBefore / n, `mean character accuracy ${(sumBefore / n).toFixed(3)} → ${(sumAfter / n).toFixed(3)}`);
});

// Issue 18 item 5: the quality scale counts white card paper as well exposed (brightness ideal up to 90 %), so the
// enhancer no longer darkens paper to please it: a clean, well-lit card keeps its white paper, scores as high, and
// reads as well. (With the old white-point target, mean luma 68 %, paper went from p75 ≈ 240 to ≈ 196 on these
// cards while the score and the OCR stayed where they were: darkening bought nothing.)
t.test('a clean well-lit card: paper stays white, quality stays high, OCR not lower', async (t) => {
  const paperLevel = async (img: Uint8Array | Buffer): Promise<number> => {
    const { data } = await sharp(img).greyscale().raw().toBuffer({ resolveWithObject: true });
    const sorted = Uint8Array.from(data).sort();
    return sorted[Math.floor(0.75 * sorted.length)]!;
  };
  for (const doc of ['jumin', 'driver'] as const) {
    const card = await renderCard(doc, { seed: 40, degrade: { jpegQuality: 90 }, masked: false });
    const r = await enhanceDirect(card.image, defaultRegions(doc, 'juminMask'));
    const before = await paperLevel(card.image), after = await paperLevel(r.jpeg);
    t.ok(before >= 230, `${doc}: the clean card's paper is white (p75 luma ${before})`);
    t.ok(after >= before - 10, `${doc}: paper p75 luma ${before} → ${after} (not darkened; white point ${r.prepared.estimate.params.white})`);
    const qa = await quality({ image: r.jpeg });
    t.equal(qa.bucketKey, 'sharp-normal', `${doc}: enhanced card is neither "bright" nor "glare"`);
    t.ok(qa.overallScore >= 95 && qa.overallScore >= r.prepared.qualityBefore.overallScore - 1, `${doc}: quality ${r.prepared.qualityBefore.overallScore} → ${qa.overallScore}`);
    const acc = async (img: Uint8Array) => {
      const o = await ekycOcr({ image: img, docType: doc });
      const keys = Object.keys(card.truth).filter((k) => o.fields[k]);
      t.ok(keys.length >= 3, `${doc}: ${keys.length} fields read`);
      return keys.reduce((s, k) => s + charAccuracy(card.truth[k]!, o.fields[k]!.text), 0) / keys.length;
    };
    const a0 = await acc(new Uint8Array(card.image)), a1 = await acc(r.jpeg);
    t.ok(a1 >= a0 - 0.01, `${doc}: character accuracy ${a0.toFixed(3)} → ${a1.toFixed(3)}`);
  }
});
