// Receipt optimisation for OCR (docs/image.md#receipt), as an ordered list of small named steps over one context
// (like chroma-key.ts), each timed (`timings_ms` in the output); the steps are in receipt-steps.ts:
//   check        header: at least 64 px on each side, aspect at most 20
//   decode       grey pixels (longer side at most 4000)
//   findPaper    analysis copy (longer side 800): blur, Otsu, largest bright component = the paper
//   skew         minimum-area rectangle of the paper's hull over -45..45°, refined by the text-line
//                projection profile (or the profile alone when no paper edge is visible)
//   deskewCrop   rotate the full image, crop to the paper (inset 1%)
//   resize       to 300-dpi width of 80 mm paper (945 px) unless the crop is narrower than half of that
//   flatten      divide by a heavily blurred background estimate (uneven lighting, shadows)
//   threshold    Sauvola (window ~ 1/24 of the width, k 0.2)
//   despeckle    remove dark specks smaller than ~ (width/500)^2 pixels
//   encode       1-bit PNG with 300 dpi
import * as S from './receipt-steps.js';
import type { ReceiptCtx, ReceiptInput } from './receipt-steps.js';
import type { Pt } from './lib/geometry.js';
import { runSteps } from './lib/steps.js';

export type { ReceiptInput } from './receipt-steps.js';
export { RECEIPT_MIN_SIDE, RECEIPT_MAX_ASPECT } from './receipt-steps.js';

export interface ReceiptOutput {
  png: Uint8Array;
  width: number;
  height: number;
  /** detected skew of the receipt in degrees (positive = rotated clockwise); the image was rotated by -angle */
  angle: number;
  angleSource: 'paper-edge+text' | 'text';
  paperFound: boolean;
  /** paper corners (TL, TR, BR, BL) in input pixels */
  paperCorners: Pt[];
  /** crop applied in the deskewed frame: [x, y, width, height] */
  cropBox: [number, number, number, number];
  threshold: { method: 'sauvola'; window: number; k: number };
  dpi: number;
  steps: string[];
  inputWidth: number;
  inputHeight: number;
  /** milliseconds per pipeline step, in order */
  timings_ms: Record<string, number>;
}

export const PIPELINE: ReadonlyArray<(c: ReceiptCtx) => void | Promise<void>> = [
  S.check,
  S.decode,
  S.findPaper,
  S.skew,
  S.deskewCrop,
  S.resize,
  S.flatten,
  S.threshold,
  S.despeckle,
  S.encode,
];

export default async function receipt(input: ReceiptInput): Promise<ReceiptOutput> {
  const c = S.newReceiptCtx(input);
  const timings = await runSteps(PIPELINE, c);
  return {
    png: c.png,
    width: c.tw,
    height: c.th,
    angle: c.angle,
    angleSource: c.angleSource,
    paperFound: c.paperFound,
    paperCorners: c.fullCorners.map(([x, y]) => [Math.round(x), Math.round(y)] as Pt),
    cropBox: c.cropBox,
    threshold: { method: 'sauvola', window: c.window, k: S.SAUVOLA_K },
    dpi: 300,
    steps: c.steps,
    inputWidth: c.W,
    inputHeight: c.H,
    timings_ms: timings,
  };
}
