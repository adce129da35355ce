// The stages every studio task runs in the pool (one pool call per stage, so that the job reports real progress
// between them): detect (decode + faces with 68 landmarks from the shared vision runtime), apply (one or more
// faces, in place; optionally encode as PNG at the end). Pixels travel between stages as transferred buffers.
import { checkImage, decodeChecked, encodePng } from './image-io.js';
import { badInput } from './task-error.js';
import { detectFaces } from '../../vision/face.js';
import type { Pt, Rgb } from './studio-raster.js';

export interface DetectInput {
  stage: 'detect';
  image: Uint8Array;
  field?: string;
  maxPixels?: number;
  maxFaces?: number;
}

export interface StudioFace {
  box: [number, number, number, number];
  score: number;
  landmarks: Pt[];
}

export interface DetectOutput {
  rgb: Uint8Array;
  width: number;
  height: number;
  format: string;
  /** largest first, at most maxFaces */
  faces: StudioFace[];
  /** all faces the detector found (may exceed faces.length) */
  found: number;
}

export async function detectStage(input: DetectInput): Promise<DetectOutput> {
  const field = input.field ?? 'imageUrl';
  const c = await checkImage(input.image, { field, maxPixels: input.maxPixels });
  const raw = await decodeChecked(c, 3);
  const img = { data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), width: raw.width, height: raw.height, channels: 3 as const };
  let faces;
  try {
    faces = await detectFaces(img);
  } catch (e) {
    throw new Error(`face detection failed: ${(e as Error).message}`);
  }
  const keep = faces.slice(0, input.maxFaces ?? 8).map((f) => ({
    box: f.box.map((v) => Math.round(v * 10) / 10) as [number, number, number, number],
    score: Math.round(f.score * 1000) / 1000,
    landmarks: f.landmarks.map((p) => [p[0], p[1]] as Pt),
  }));
  // a fresh, whole ArrayBuffer so that it is transferred, not copied
  const rgb = new Uint8Array(img.data.byteLength);
  rgb.set(img.data);
  return { rgb, width: img.width, height: img.height, format: c.format, faces: keep, found: faces.length };
}

export interface ApplyInput<P> {
  stage: 'apply';
  rgb: Uint8Array;
  width: number;
  height: number;
  /** the landmark sets of the faces to treat in this call */
  faces: Pt[][];
  params: P;
  /** encode the result as PNG and return it instead of the raw pixels */
  encode?: boolean;
}

export interface ApplyOutput {
  rgb?: Uint8Array;
  png?: Uint8Array;
  width: number;
  height: number;
}

export async function applyStage<P>(input: ApplyInput<P>, op: (img: Rgb, lm: Pt[], p: P) => unknown): Promise<ApplyOutput> {
  const { width, height } = input;
  if (!(input.rgb instanceof Uint8Array) || input.rgb.byteLength !== width * height * 3) throw badInput('image', 'pixel buffer does not match its size');
  const img: Rgb = { data: input.rgb, width, height };
  for (const lm of input.faces) op(img, lm, input.params);
  if (input.encode) {
    const png = await encodePng({ data: img.data, width, height, channels: 3 }, { compressionLevel: 4 });
    return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height };
  }
  return { rgb: img.data, width, height };
}

export type StageInput<P> = DetectInput | ApplyInput<P>;

/** A feature's params as they come from a request: each task checks and clamps them itself. */
export type LooseParams<P> = { [K in keyof P]?: unknown };

/** The default export of every studio task: the apply stage (the detect stage is the task studio-detect). */
export function studioTask<P>(op: (img: Rgb, lm: Pt[], p: LooseParams<P>) => unknown) {
  return async (input: ApplyInput<LooseParams<P>>): Promise<ApplyOutput> => {
    if (input.stage !== 'apply') throw new Error(`unknown studio stage ${String(input.stage)}`);
    return applyStage(input, op);
  };
}
