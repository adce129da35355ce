// Task: read the fields of a Korean ID card (jumin / driver / alien). Input image ideally 1280×807, perspective-corrected.
import sharp from 'sharp';
import { checkImage, openSharp, decodeFailure, capSize, checkAspect, decodeChecked, toBuffer, CARD_MAX_ASPECT, type Checked, type Raw } from './lib/image-io.js';
import { detectCard, warpQuad, ID1_RATIO } from './perspective.js';
import type { Pt } from './lib/geometry.js';
import { readCard, fieldNames, type DocType, type FieldResult } from '../vision/idcard.js';
import { OCR_MODELS, type RgbImage } from '../vision/index.js';
import { CARD_READ_SWITCHES } from '../vision/card-fields.js';
import { skewAngle, turnBack, unturnPoint } from '../vision/card-skew.js';
import type { Box } from '../vision/raster.js';

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
export { CARD_MAX_ASPECT };
/** The card frame never exceeds this many pixels (1280 wide at 1:4 would be 6.6 MP). */
const CARD_MAX_PIXELS = 4_000_000;
/** longer side of the copy the card outline is searched on (as the perspective-crop endpoint) */
const DETECT_SIDE = 800;
/** height / width above which a crop is taken for a card turned a quarter (a card is 1.59 : 1 the other way) */
const PORTRAIT = 1.15;
/** below this share of a card-shaped frame an ID-1 outline is a box printed on the card (its photo: 0.12–0.2) */
const INNER_BOX = 0.3;

/**
 * Bring the card to the nominal 1280×807 frame (stretch when the aspect is within 12 %, else fit width). A photo
 * of a card at an angle on a background (the card outline found inside the frame, ID-1 aspect) is rectified first.
 */
export interface LoadedCard {
  img: RgbImage;
  sx: number;
  sy: number;
  width: number;
  height: number;
  /** the card was upright after turning the image this many degrees clockwise (bbox: see toSource) */
  turn: 0 | 90;
  /** the crop's text lines fell by this many degrees (clockwise) and img was turned back by it (card-skew.ts) */
  skew?: number;
}

export async function loadCard(bytes: Uint8Array, field: string, maxPixels?: number): Promise<LoadedCard> {
  const c = await checkImage(bytes, { field, maxPixels });
  checkAspect(c, CARD_MAX_ASPECT, 'an ID card image');
  const rect = await rectified(c);
  if (rect) return rect;
  // a portrait crop is a card turned a quarter: turned upright here (clockwise; a card turned the other way is
  // then upside down, which readCard decides by reading)
  const turn = CARD_READ_SWITCHES.orient && c.height > c.width * PORTRAIT ? 90 : 0;
  const aspect = turn ? c.height / c.width : c.width / c.height;
  const near = Math.abs(aspect / (CARD_W / CARD_H) - 1) < 0.12;
  const { width: tw, height: th } = capSize(CARD_W, near ? CARD_H : CARD_W / aspect, CARD_MAX_PIXELS);
  try {
    const { data, info } = await (turn ? openSharp(c).rotate(turn) : openSharp(c)).resize(tw, th, { fit: 'fill', kernel: 'lanczos3' }).flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const [sw, sh] = turn ? [c.height, c.width] : [c.width, c.height];
    let img: RgbImage = { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height, channels: 3 };
    // a card a few degrees off straight whose edge was not found (on white paper): turned back by its text's angle
    const skew = CARD_READ_SWITCHES.checks ? skewAngle(img) : 0;
    if (skew) img = turnBack(img, skew);
    return { img, sx: sw / info.width, sy: sh / info.height, width: c.width, height: c.height, turn, skew };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}
void sharp;

/** When the image is a photo with the card inside it (not a crop), the card warped to 1280×807; else null. */
async function rectified(c: Checked): Promise<LoadedCard | null> {
  let full: Raw;
  try {
    full = await decodeChecked(c, 3);
  } catch (e) {
    throw decodeFailure(c, e);
  }
  const scale = Math.min(1, DETECT_SIDE / Math.max(full.width, full.height));
  let small: Raw = full;
  if (scale < 1) {
    const sw = Math.max(1, Math.round(full.width * scale)), sh = Math.max(1, Math.round(full.height * scale));
    const data = await sharp(toBuffer(full.data), { raw: { width: full.width, height: full.height, channels: 3 } }).resize({ width: sw, height: sh, fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
    small = { data, width: sw, height: sh, channels: 3 };
  }
  const det = detectCard(small);
  // a crop (the card fills the frame) or no clear ID-1 outline: read the image as it is
  if (!det.found || det.areaFraction > 0.9 || Math.abs(det.aspect / ID1_RATIO - 1) > 0.2) return null;
  // a crop of the card whose photo frame (or another box printed on it) has the card's proportions: a quad small
  // in a frame that is itself card-shaped (either way up) is a box on the card, not the card in a photo
  if (CARD_READ_SWITCHES.orient && det.areaFraction < INNER_BOX && Math.abs(Math.max(c.width, c.height) / Math.min(c.width, c.height) / (CARD_W / CARD_H) - 1) < 0.12) return null;
  let corners = det.corners.map(([x, y]) => [x / scale, y / scale]) as [Pt, Pt, Pt, Pt];
  // a card turned a quarter in the photo (its top edge the shorter): its top-left corner is the photo's top-right
  const edge = (a: Pt, b: Pt) => Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (CARD_READ_SWITCHES.orient && edge(corners[0], corners[1]) * PORTRAIT < edge(corners[0], corners[3])) corners = [corners[1], corners[2], corners[3], corners[0]];
  const w = (Math.hypot(corners[1][0] - corners[0][0], corners[1][1] - corners[0][1]) + Math.hypot(corners[2][0] - corners[3][0], corners[2][1] - corners[3][1])) / 2;
  // small cards: warp at their own size, then enlarge with lanczos (a bilinear warp straight to 1280 is softer)
  const ow = Math.min(CARD_W, Math.max(64, Math.round(w))), oh = Math.round((ow * CARD_H) / CARD_W);
  const out = warpQuad(full, corners, ow, oh);
  let data: Uint8Array = out.data;
  if (ow !== CARD_W) data = await sharp(toBuffer(out.data), { raw: { width: ow, height: oh, channels: 3 } }).resize(CARD_W, CARD_H, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
  // bbox of the answer: in the rectified card's pixels scaled back to the card's size in the photo
  return { img: { data, width: CARD_W, height: CARD_H, channels: 3 }, sx: ow / CARD_W, sy: oh / CARD_H, width: c.width, height: c.height, turn: 0 };
}

export default async function ekycOcr(input: EkycOcrInput): Promise<EkycOcrOutput> {
  const card = await loadCard(input.image, input.field ?? 'image', input.maxPixels);
  const { width, height } = card;
  const res = await readCard(card.img, input.docType);
  const wanted = input.fields?.length ? input.fields : fieldNames(input.docType);
  const fields: Record<string, FieldResult> = {};
  for (const k of wanted) {
    const f = res.fields[k];
    if (!f) continue;
    fields[k] = { text: f.text, confidence: f.confidence, bbox: toSource(f.bbox, card, res.turned) };
  }
  const vals = Object.values(fields);
  const overall = vals.length ? vals.reduce((s, f) => s + f.confidence, 0) / vals.length : 0;
  return { docType: input.docType, fields, overallConfidence: Math.round(overall * 1000) / 1000, engine: OCR_MODELS, width, height };
}

/**
 * A box of the card as read back in the submitted image's pixels: undo readCard's half turn, scale, undo the
 * quarter turn of loadCard. (For a rectified photo: the rectified card's pixels at its size in the photo.)
 */
export function toSource(b: Box, card: LoadedCard, turned: 0 | 180): Box {
  const { img, sx, sy } = card;
  let [x1, y1, x2, y2] = turned ? [img.width - b[2], img.height - b[3], img.width - b[0], img.height - b[1]] : b;
  if (card.skew) {
    const ps = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]].map(([x, y]) => unturnPoint(x!, y!, card.skew!, img.width, img.height));
    [x1, y1, x2, y2] = [Math.min(...ps.map((p) => p[0])), Math.min(...ps.map((p) => p[1])), Math.max(...ps.map((p) => p[0])), Math.max(...ps.map((p) => p[1]))];
  }
  [x1, y1, x2, y2] = [x1 * sx, y1 * sy, x2 * sx, y2 * sy];
  // turned 90° clockwise to read: the upright point (x, y) was at (y, H − x) of the submitted image (H its height)
  if (card.turn) [x1, y1, x2, y2] = [y1, card.height - x2, y2, card.height - x1];
  return [Math.round(x1), Math.round(y1), Math.round(x2), Math.round(y2)];
}
