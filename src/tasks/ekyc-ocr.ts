// Task: read the fields of a Korean ID card (jumin / driver / alien). Input image ideally 1280×807, perspective-corrected.
import sharp from 'sharp';
import { checkImage, openSharp, decodeFailure, capSize, checkAspect } from './lib/image-io.js';
import { readCard, fieldNames, type DocType, type FieldResult } from '../vision/idcard.js';
import { OCR_MODELS, type RgbImage } from '../vision/index.js';

export interface EkycOcrInput {
  image: Uint8Array;
  docType: DocType;
  /** only these fields (default all of the doc type) */
  fields?: string[];
  maxPixels?: number;
  field?: string;
}
export interface EkycOcrOutput {
  docType: DocType;
  fields: Record<string, FieldResult>;
  overallConfidence: number;
  engine: typeof OCR_MODELS;
  /** the size the card was read at (bbox coordinates refer to the submitted image) */
  width: number;
  height: number;
}

const CARD_W = 1280, CARD_H = 807;
/** An ID card is 1.58:1; photos may be portrait or loosely cropped: sides may differ by at most 4× (docs/ekyc.md). */
export const CARD_MAX_ASPECT = 4;
/** The card frame never exceeds this many pixels (1280 wide at 1:4 would be 6.6 MP). */
const CARD_MAX_PIXELS = 4_000_000;

/** Bring the card to the nominal 1280×807 frame (stretch when the aspect is within 12 %, else fit width). */
export async function loadCard(bytes: Uint8Array, field: string, maxPixels?: number): Promise<{ img: RgbImage; sx: number; sy: number; width: number; height: number }> {
  const c = await checkImage(bytes, { field, maxPixels });
  checkAspect(c, CARD_MAX_ASPECT, 'an ID card image');
  const aspect = c.width / c.height;
  const near = Math.abs(aspect / (CARD_W / CARD_H) - 1) < 0.12;
  const { width: tw, height: th } = capSize(CARD_W, near ? CARD_H : CARD_W / aspect, CARD_MAX_PIXELS);
  try {
    const { data, info } = await openSharp(c).resize(tw, th, { fit: 'fill', kernel: 'lanczos3' }).flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { img: { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 3 }, sx: c.width / info.width, sy: c.height / info.height, width: c.width, height: c.height };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}
void sharp;

export default async function ekycOcr(input: EkycOcrInput): Promise<EkycOcrOutput> {
  const { img, sx, sy, width, height } = await loadCard(input.image, input.field ?? 'image', input.maxPixels);
  const res = await readCard(img, input.docType);
  const wanted = input.fields?.length ? input.fields : fieldNames(input.docType);
  const fields: Record<string, FieldResult> = {};
  for (const k of wanted) {
    const f = res.fields[k];
    if (!f) continue;
    fields[k] = { text: f.text, confidence: f.confidence, bbox: [Math.round(f.bbox[0] * sx), Math.round(f.bbox[1] * sy), Math.round(f.bbox[2] * sx), Math.round(f.bbox[3] * sy)] };
  }
  const vals = Object.values(fields);
  const overall = vals.length ? vals.reduce((s, f) => s + f.confidence, 0) / vals.length : 0;
  return { docType: input.docType, fields, overallConfidence: Math.round(overall * 1000) / 1000, engine: OCR_MODELS, width, height };
}
