// Task: find faces (confirmed by a second detector) in one image. Input { image, maxPixels?, field? }.
import { checkImage, decodeChecked } from './lib/image-io.js';
import { detectFaces, type Face, type RgbImage, FACE_MODELS } from '../vision/index.js';

export interface FaceDetectInput {
  image: Uint8Array;
  maxPixels?: number;
  field?: string;
  /** shrink larger images to this longer side before detection (default 1600); coordinates are returned in original pixels */
  maxSide?: number;
}

export interface FaceDetectOutput {
  width: number;
  height: number;
  faces: Face[];
  model: typeof FACE_MODELS;
}

/** A box found on the decoded copy, back in the input image's pixels (loadRgb's `scale`), rounded. */
export const inputBox = (box: readonly number[], scale: number): [number, number, number, number] =>
  box.map((v) => Math.round(v / scale)) as [number, number, number, number];

/** Decode (checked) to RGB, shrinking huge photos; returns the image and the factor back to original pixels. */
export async function loadRgb(bytes: Uint8Array, field: string, maxPixels?: number, maxSide = 1600): Promise<{ img: RgbImage; scale: number; width: number; height: number }> {
  const c = await checkImage(bytes, { field, maxPixels, types: ['jpeg', 'png', 'webp'] });
  const raw = await decodeChecked(c, 3, maxSide);
  const img: RgbImage = { data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), width: raw.width, height: raw.height, channels: 3 };
  return { img, scale: raw.scale, width: c.width, height: c.height };
}

export default async function faceDetect(input: FaceDetectInput): Promise<FaceDetectOutput> {
  const { img, scale, width, height } = await loadRgb(input.image, input.field ?? 'image', input.maxPixels, input.maxSide);
  const faces = await detectFaces(img);
  const k = 1 / scale;
  const back = (p: [number, number]): [number, number] => [p[0] * k, p[1] * k];
  return {
    width,
    height,
    faces: faces.map((f) => ({ ...f, box: f.box.map((v) => v * k) as Face['box'], landmarks: f.landmarks.map(back), keypoints5: f.keypoints5.map(back) })),
    model: FACE_MODELS,
  };
}
