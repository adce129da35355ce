// A small face of a large photo embedded from the photo's own pixels (src/tasks/lib/face-full-res.ts), built from
// ../shared/faces/people at test time: a 120-px portrait pasted in a 4000×3000 photo, found on the 1600-px copy.
import t from 'tap';
import fs from 'node:fs';
import sharp from 'sharp';
import { loadRgb } from '../../src/tasks/face-detect.js';
import { embedAtFullSize } from '../../src/tasks/lib/face-full-res.js';
import { detectFaces, embedFace, cosine } from '../../src/vision/index.js';
import { COSINE_AT_DEFAULT } from '../../src/vision/calibration.js';
import { asPhoto } from '../helpers/face-conditions.js';
import { needsShared, shared } from '../helpers/shared.js';

const NEEDED = needsShared('faces');
const photo = (p: string, i: number) => fs.readFileSync(shared('faces', 'people', p, `${p}${i}.png`));

/** The portrait at `px` wide at (x, y) on a flat 4000×3000 photo. */
async function inLargePhoto(src: Buffer, px: number, x: number, y: number): Promise<Buffer> {
  const small = await sharp(await asPhoto(src)).resize(px, null, { kernel: 'lanczos3' }).toBuffer();
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 128, g: 120, b: 110 } } }).composite([{ input: small, left: x, top: y }]).jpeg({ quality: 90 }).toBuffer();
}

t.test('a small face of a 4000-px photo: embedded from the photo, nearer its owner than from the 1600-px copy', NEEDED, async (t) => {
  const refOf = async (p: string, i: number) => { const { img } = await loadRgb(await asPhoto(photo(p, i)), 'r'); return embedFace(img, (await detectFaces(img))[0]!); };
  const [own, other] = [await refOf('leonard', 2), await refOf('raj', 2)];
  const { img, scale, checked } = await loadRgb(await inLargePhoto(photo('leonard', 1), 130, 2100, 1400), 'image');
  t.equal(img.width, 1600, 'detected on the 1600-px copy');
  const faces = await detectFaces(img);
  t.equal(faces.length, 1, 'one face');
  const eyes = Math.hypot(faces[0]!.keypoints5[1]![0] - faces[0]!.keypoints5[0]![0], faces[0]!.keypoints5[1]![1] - faces[0]!.keypoints5[0]![1]);
  t.ok(eyes < 35, `its eyes ${eyes.toFixed(1)} px apart on the copy (< 35: small)`);
  const fromCopy = await embedFace(img, faces[0]!);
  const full = await embedAtFullSize(img, scale, faces[0]!, checked);
  t.ok(cosine(full, fromCopy) > 0.5 && cosine(full, fromCopy) < 0.995, `a different embedding of the same face (cosine ${cosine(full, fromCopy).toFixed(3)})`);
  t.ok(cosine(full, own) > cosine(fromCopy, own), `owner: ${cosine(full, own).toFixed(3)} from the photo > ${cosine(fromCopy, own).toFixed(3)} from the copy`);
  t.ok(cosine(full, own) >= COSINE_AT_DEFAULT, 'a match at the served threshold');
  t.ok(cosine(full, other) < COSINE_AT_DEFAULT, `another person: ${cosine(full, other).toFixed(3)} < 0.40`);
});

t.test('a face not small, or a photo not shrunk: the copy\'s embedding unchanged', NEEDED, async (t) => {
  const { img, scale, checked } = await loadRgb(await asPhoto(photo('leonard', 1)), 'image');
  t.equal(scale, 1, 'a 320-px photo is not shrunk');
  const f = (await detectFaces(img))[0]!;
  t.same(Array.from(await embedAtFullSize(img, scale, f, checked)), Array.from(await embedFace(img, f)), 'the same embedding');
});
