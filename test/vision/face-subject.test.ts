// Which face of a photo with two is the subject's (src/vision/face-subject.ts), and the compare task's answer on such
// a photo built from ../shared/faces/people: a bystander's larger face in a corner, the subject's in the middle.
import t from 'tap';
import fs from 'node:fs';
import sharp from 'sharp';
import faceCompare from '../../src/tasks/face-compare.js';
import { subjectFace, centreOffset2 } from '../../src/vision/face-subject.js';
import type { Box } from '../../src/vision/index.js';
import { asPhoto } from '../helpers/face-conditions.js';
import { needsShared, shared } from '../helpers/shared.js';

const NEEDED = needsShared('faces');
const photo = (p: string, i: number) => fs.readFileSync(shared('faces', 'people', p, `${p}${i}.png`));

t.test('subjectFace: the largest face, its area weighted by its closeness to the centre', async (t) => {
  t.equal(centreOffset2([40, 30, 60, 50], 100, 80), 0, 'a face in the middle: no offset');
  t.equal(Math.round(centreOffset2([0, 0, 20, 20], 100, 80) * 10000) / 10000, Math.round((0.4 ** 2 + 0.375 ** 2) * 10000) / 10000, 'top left: 0.4 and 0.375 off');
  const middle = { box: [400, 250, 560, 410] as Box }, corner = { box: [0, 0, 200, 200] as Box }, beside = { box: [700, 250, 860, 410] as Box };
  t.equal(subjectFace([corner, middle], 1000, 700), middle, 'a 160-px face in the middle over a 200-px one in the corner');
  t.equal(subjectFace([middle, beside], 1000, 700), middle, 'of two the same size, the more central');
  t.equal(subjectFace([{ box: [0, 0, 400, 400] as Box }, middle], 1000, 700)?.box[2], 400, 'a corner face 6× the area is taken');
  t.equal(subjectFace([], 10, 10), undefined, 'no face, no subject');
});

/** The subject's 240-px portrait in the middle of a 900×600 room, a bystander's 320-px portrait in its top-left corner. */
async function withBystander(subject: Buffer, bystander: Buffer): Promise<Buffer> {
  const room = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 120, g: 125, b: 118 } } }).png().toBuffer();
  return sharp(room).composite([{ input: await asPhoto(bystander, 320), left: 0, top: 0 }, { input: await asPhoto(subject, 240), left: 330, top: 200 }]).jpeg({ quality: 90 }).toBuffer();
}

t.test('face compare on a photo with a larger bystander in the corner compares the subject', NEEDED, async (t) => {
  const photoOf = await withBystander(photo('howard', 1), photo('penny', 1));
  const withSubject = await faceCompare({ image1: photoOf, image2: await asPhoto(photo('howard', 2)) });
  t.equal(withSubject.face1.count, 2, 'both faces found');
  const b = withSubject.face1.box!;
  const [cx, cy] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  t.ok(cx > 330 && cx < 570 && cy > 200 && cy < 440, `the subject's box ${b} is centred in the middle portrait`);
  t.ok(withSubject.similarity >= 0.6, `the subject's own photo: similarity ${withSubject.similarity} ≥ 0.6`);
  const withBystanderPhoto = await faceCompare({ image1: photoOf, image2: await asPhoto(photo('penny', 2)) });
  t.ok(withBystanderPhoto.similarity < 0.6, `the bystander's photo: similarity ${withBystanderPhoto.similarity} < 0.6`);
});
