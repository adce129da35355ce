// Real-photo conditions the first look of the face detector missed (bench/face-pairs.ts): a photo turned without its
// EXIF tag, a face rolled 45°, a small face in a 3000-px photo. Built from ../shared/faces/people at test time
// (test/helpers/face-conditions.ts); each asserts the first look's miss, the served answer and the decision.
import t from 'tap';
import fs from 'node:fs';
import { loadRgb } from '../../src/tasks/face-detect.js';
import { detectFaces, embedFace, cosine, type Face, type RgbImage } from '../../src/vision/index.js';
import { turnedView, rolledCut, mapPoint, mapBox, tileOrigins } from '../../src/vision/face-turn.js';
import { COSINE_AT_DEFAULT } from '../../src/vision/calibration.js';
import { applyCondition, asPhoto } from '../helpers/face-conditions.js';
import { needsShared, shared } from '../helpers/shared.js';

const NEEDED = needsShared('faces');
const photo = (p: string, i: number) => fs.readFileSync(shared('faces', 'people', p, `${p}${i}.png`));
const angle = (f: Face) => (Math.atan2(f.keypoints5[1]![1] - f.keypoints5[0]![1], f.keypoints5[1]![0] - f.keypoints5[0]![0]) * 180) / Math.PI;

async function embedOf(bytes: Buffer, noRescue = false): Promise<{ img: RgbImage; faces: Face[]; e: Float32Array | null }> {
  const { img } = await loadRgb(bytes, 'image');
  const faces = await detectFaces(img, { noRescue });
  return { img, faces, e: faces[0] ? await embedFace(img, faces[0]) : null };
}

t.test('views map back: a 90° turn, a rolled cut, tiles covering the image', async (t) => {
  const img: RgbImage = { data: new Uint8Array(40 * 20 * 3), width: 40, height: 20, channels: 3 };
  img.data[(5 * 40 + 30) * 3] = 255; // a red pixel at (30, 5)
  const v = turnedView(img, 90);
  t.same([v.img.width, v.img.height], [20, 40], 'a 90° view of 40×20 is 20×40');
  let at: [number, number] | null = null;
  for (let y = 0; y < 40; y++) for (let x = 0; x < 20; x++) if (v.img.data[(y * 20 + x) * 3]! > 200) at = [x, y];
  t.ok(at, 'the red pixel is in the view');
  t.same(mapPoint(v.toImage, at!).map(Math.round), [30, 5], 'and maps back to (30, 5)');
  t.same(mapBox(v.toImage, [0, 0, 10, 20], 40, 20).map(Math.round), [19, 0, 39, 10], 'the view\'s left strip is the image\'s top right, sides swapped');
  const r = rolledCut(img, 30, 5, 9, 30);
  t.same(mapPoint(r.toImage, [4, 4]).map((x) => Math.round(x * 1000) / 1000), [30, 5], 'a rolled cut is centred on its centre');
  const tiles = tileOrigins(1600, 1200);
  t.equal(tiles.length, 25, '1600×1200: 5 × 5 tiles of 480×360 overlapping by ≥ 25 %');
  t.same(tiles[tiles.length - 1], [1120, 840], 'the last tile ends at the image corner');
});

t.test('a photo turned 90° / 270° / 180° without its EXIF tag: found, the same person, others not', NEEDED, async (t) => {
  const other = await embedOf(await asPhoto(photo('raj', 2)));
  for (const [cond, who, turn] of [['rot90', 'leonard', 90], ['rot270', 'leonard', -90], ['rot180', 'amy', 180]] as const) {
    const ref = await embedOf(await asPhoto(photo(who, 2)));
    const bytes = await applyCondition(cond, photo(who, 1), 2);
    const first = await embedOf(bytes, true);
    t.equal(first.faces.length, 0, `${cond}: the first look finds no face`);
    const got = await embedOf(bytes);
    t.equal(got.faces.length, 1, `${cond}: one face after the turned look`);
    const a = angle(got.faces[0]!);
    t.ok(Math.abs(((a - turn + 540) % 360) - 180) < 20, `${cond}: the eye line in the image is turned ${a.toFixed(0)}° (≈ ${turn}°)`);
    const b = got.faces[0]!.box;
    t.ok(b[0] >= 0 && b[1] >= 0 && b[2] <= got.img.width && b[3] <= got.img.height && b[2] - b[0] > 150, `${cond}: box ${b.map(Math.round)} inside the 320-px photo`);
    t.ok(cosine(got.e!, ref.e!) >= COSINE_AT_DEFAULT, `${cond}: genuine cosine ${cosine(got.e!, ref.e!).toFixed(3)} ≥ 0.40`);
    t.ok(cosine(got.e!, other.e!) < COSINE_AT_DEFAULT, `${cond}: impostor cosine ${cosine(got.e!, other.e!).toFixed(3)} < 0.40`);
  }
});

t.test('a face rolled 45°: landmarks again on the upright cut, the same person', NEEDED, async (t) => {
  const ref = await embedOf(await asPhoto(photo('stuart', 3)));
  const other = await embedOf(await asPhoto(photo('bernadette', 3)));
  for (const seed of [1, 2]) {
    const bytes = await applyCondition('roll45', photo('stuart', 1), seed);
    const got = await embedOf(bytes);
    t.equal(got.faces.length, 1);
    const a = angle(got.faces[0]!);
    t.ok(Math.abs(Math.abs(a) - 45) < 12, `seed ${seed}: eye line ${a.toFixed(0)}° (rolled 45°)`);
    t.ok(cosine(got.e!, ref.e!) >= COSINE_AT_DEFAULT, `seed ${seed}: genuine cosine ${cosine(got.e!, ref.e!).toFixed(3)} ≥ 0.40`);
    t.ok(cosine(got.e!, other.e!) < COSINE_AT_DEFAULT, `seed ${seed}: impostor cosine ${cosine(got.e!, other.e!).toFixed(3)} < 0.40`);
  }
});

t.test('a small face in a 3000×2250 photo: found on a tile, boxed where it was pasted', NEEDED, async (t) => {
  const ref = await embedOf(await asPhoto(photo('raj', 4)));
  const bytes = await applyCondition('small3k', photo('raj', 1), 5);
  const { img, scale } = await loadRgb(bytes, 'image');
  t.equal(img.width, 1600, 'decoded at 1600 px for detection');
  t.equal((await detectFaces(img, { noRescue: true })).length, 0, 'the first look (320×240 of the whole photo) finds no face');
  const faces = await detectFaces(img);
  t.equal(faces.length, 1, 'one face after the tiled look');
  const b = faces[0]!.box.map((v) => v / scale);
  t.ok(b[2]! - b[0]! > 40 && b[2]! - b[0]! < 140, `face ${Math.round(b[2]! - b[0]!)} px wide in the 3000-px photo`);
  const e = await embedFace(img, faces[0]!);
  t.ok(cosine(e, ref.e!) >= COSINE_AT_DEFAULT, `genuine cosine ${cosine(e, ref.e!).toFixed(3)} ≥ 0.40`);
});

t.test('a photo upside down whose first look accepts the face as upright: taken turned, the same person', NEEDED, async (t) => {
  const ref = await embedOf(await asPhoto(photo('leonard', 2)));
  const other = await embedOf(await asPhoto(photo('raj', 2)));
  const bytes = await applyCondition('rot180', photo('leonard', 1), 2);
  const eyesBelowMouth = (f: Face) => f.keypoints5[0]![1] + f.keypoints5[1]![1] > f.keypoints5[3]![1] + f.keypoints5[4]![1];
  const first = await embedOf(bytes, true);
  t.equal(first.faces.length, 1, 'the first look finds one face');
  t.notOk(eyesBelowMouth(first.faces[0]!), 'and takes it upright (eyes above the mouth in a photo upside down)');
  t.ok(first.faces[0]!.confirmScore < 0.75, `confirmed only ${first.faces[0]!.confirmScore.toFixed(2)}`);
  t.ok(cosine(first.e!, ref.e!) < COSINE_AT_DEFAULT, `compared so, its owner is missed: cosine ${cosine(first.e!, ref.e!).toFixed(3)}`);
  const got = await embedOf(bytes);
  t.equal(got.faces.length, 1, 'served: one face');
  t.ok(eyesBelowMouth(got.faces[0]!), 'taken turned: its eyes below its mouth in the image');
  t.ok(got.faces[0]!.confirmScore > first.faces[0]!.confirmScore, `confirmed ${got.faces[0]!.confirmScore.toFixed(2)} turned`);
  t.ok(cosine(got.e!, ref.e!) >= COSINE_AT_DEFAULT, `genuine cosine ${cosine(got.e!, ref.e!).toFixed(3)} ≥ 0.40`);
  t.ok(cosine(got.e!, other.e!) < COSINE_AT_DEFAULT, `impostor cosine ${cosine(got.e!, other.e!).toFixed(3)} < 0.40`);
});
