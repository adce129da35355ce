// A small face of a photo shrunk for detection, embedded from the photo's own pixels: the detector sees a ≤ 1600-px
// copy, where a 60–85-px face of a 3000–4000-px photo is 25–45 px wide and its eyes 12–18 px apart, against the 35 px
// of ArcFace's 112-px template; the alignment would upsample it 2–3× from pixels the photo has at full size.
import { embedAligned, alignFace, embedFace, type Face, type Point, type RgbImage } from '../../vision/index.js';
import { decodeFailure, openSharp, type Checked } from './image-io.js';

/** Eyes closer than this (pixels of the shrunk copy) make a face small: ArcFace's template holds them 35.2 px apart. */
export const SMALL_FACE_EYES = 35;

const eyes = (k5: Point[]) => Math.hypot(k5[1]![0] - k5[0]![0], k5[1]![1] - k5[0]![1]);

/**
 * The embedding of `face` (found on `img`, a copy of the checked photo `c` scaled by `scale`). A small face of a shrunk
 * copy is cut from the photo (twice its box, around it) and sampled so that its eyes are at most 70 px apart (2× the
 * template: the alignment's bilinear warp then shrinks it at most 2×).
 */
export async function embedAtFullSize(img: RgbImage, scale: number, face: Face, c: Checked): Promise<Float32Array> {
  const e = eyes(face.keypoints5);
  if (scale >= 1 || e >= SMALL_FACE_EYES) return embedFace(img, face);
  const [x1, y1, x2, y2] = face.box.map((v) => v / scale) as [number, number, number, number];
  const m = Math.max(x2 - x1, y2 - y1) / 2;
  const left = Math.max(0, Math.floor(x1 - m)), top = Math.max(0, Math.floor(y1 - m));
  const width = Math.min(c.width, Math.ceil(x2 + m)) - left, height = Math.min(c.height, Math.ceil(y2 + m)) - top;
  const k = Math.min(1, (2 * SMALL_FACE_EYES) / (e / scale));
  const w = Math.max(1, Math.round(width * k)), h = Math.max(1, Math.round(height * k));
  let raw;
  try {
    raw = await openSharp(c).extract({ left, top, width, height }).resize(w, h, { fit: 'fill', kernel: 'lanczos3' }).flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw decodeFailure(c, err);
  }
  const cut: RgbImage = { data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), width: raw.info.width, height: raw.info.height, channels: 3 };
  const kx = cut.width / width, ky = cut.height / height;
  // pixel centres: the copy's x is the photo's (x + 0.5) / scale − 0.5, the cut's the photo's (x − left + 0.5)·kx − 0.5
  const at = (v: number, o: number, kk: number) => ((v + 0.5) / scale - 0.5 - o + 0.5) * kk - 0.5;
  const k5 = face.keypoints5.map((p): Point => [at(p[0], left, kx), at(p[1], top, ky)]);
  return embedAligned(alignFace(cut, k5));
}
