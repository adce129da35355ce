// Chroma-key background removal in OKLab (docs/image.md#remove-background), as an ordered list of small named
// steps over one context (imgproxy's processing/pipeline.go style), each timed (`timings_ms` in the output):
//   checkArgs → checkHeader → decode (RGBA) → borderRing → keyColour (given, or `auto`: the dominant chroma of the
//   border) → distance (to the key: chroma plus down-weighted lightness, 0..255) → tolerance (given, or from the
//   border's spread and the Otsu split) → alpha (soft edge band: smoothstep tol..tol+softness; a hard cut when
//   edgeSmoothing is false) → unmixEdges (band pixels as mixes of local foreground and screen) → smoothEdges
//   (3x3, band only) → spillAndPack (key chroma removed from edge and near-key
//   pixels; counts; trim box) → encode (PNG of the kept box).
import * as S from './chroma-key-steps.js';
import * as E from './chroma-key-edges.js';
import type { ChromaKeyInput, KeyCtx } from './chroma-key-steps.js';
import { toHex } from './lib/colour.js';
import { runSteps } from './lib/steps.js';

export type { ChromaKeyInput } from './chroma-key-steps.js';

export interface ChromaKeyOutput {
  png: Uint8Array;
  width: number;
  height: number;
  originalDimensions: [number, number];
  trimmedDimensions: [number, number];
  /** [left, top, width, height] of the kept area in the original */
  trimBox: [number, number, number, number];
  removedColor: string;
  colorSource: 'given' | 'auto';
  tolerance: number;
  toleranceSource: 'given' | 'auto';
  softness: number;
  /** fully transparent pixels in the original frame (before trimming) */
  transparentPixels: number;
  /** partly transparent (edge band) pixels */
  semiTransparentPixels: number;
  totalPixels: number;
  /** milliseconds per pipeline step, in order */
  timings_ms: Record<string, number>;
}

export const PIPELINE: ReadonlyArray<(c: KeyCtx) => void | Promise<void>> = [
  S.checkArgs,
  S.checkHeader,
  S.decode,
  S.borderRing,
  S.keyColour,
  S.distance,
  S.tolerance,
  S.alpha,
  E.unmixEdges,
  E.smoothEdges,
  S.spillAndPack,
  S.encode,
];

export default async function chromaKey(input: ChromaKeyInput): Promise<ChromaKeyOutput> {
  const none = new Uint8Array(0);
  const c: KeyCtx = {
    in: input, edgeSmoothing: input.edgeSmoothing ?? true, trim: input.trimTransparent ?? true,
    w: 0, h: 0, px: none, border: new Int32Array(0), key: [0, 0, 0], keyRgb: [0, 0, 0],
    dist: new Float32Array(0), hist: new Uint32Array(256), tol: 0, tolSource: 'auto', softness: 0,
    alpha: new Float32Array(0), contour: [], out: none, transparent: 0, semi: 0, box: [0, 0, 0, 0], png: none,
  };
  const timings = await runSteps(PIPELINE, c);
  const { w, h, box } = c;
  return {
    png: c.png,
    width: box[2],
    height: box[3],
    originalDimensions: [w, h],
    trimmedDimensions: [box[2], box[3]],
    trimBox: box,
    removedColor: toHex(c.keyRgb),
    colorSource: c.given ? 'given' : 'auto',
    tolerance: c.tol,
    toleranceSource: c.tolSource,
    softness: c.softness,
    transparentPixels: c.transparent,
    semiTransparentPixels: c.semi,
    totalPixels: w * h,
    timings_ms: timings,
  };
}
