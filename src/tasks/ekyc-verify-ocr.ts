// Task (part of /ekyc/verify): read name and birth date from the masked ID (resident card, driver licence) or the
// passport MRZ (ICAO 9303 check digits), with plain-words suggestions when something is weak.
import { loadCard } from './ekyc-ocr.js';
import { readCard } from '../vision/idcard.js';
import { detectTextBoxes, recognizeBoxes, OCR_MODELS, type Box } from '../vision/index.js';
import { parseTd3, cleanMrzLine } from '../vision/mrz.js';
import { checkImage, decodeChecked } from './lib/image-io.js';

export type IdCardType = 'resident_registration' | 'driver_license' | 'passport';

export interface VerifyOcrInput {
  image: Uint8Array;
  idCardType: IdCardType;
  maxPixels?: number;
  field?: string;
}
export interface VerifyOcrOutput {
  name: string;
  birth_date: string;
  confidence: number;
  suggestions: string[];
  /** masked identity number as read (never unmasked); stored masked by the API */
  idNumber: string;
  mrzValid?: boolean;
  engine: typeof OCR_MODELS;
}

const MIN_CONF = 0.75;

export default async function verifyOcr(input: VerifyOcrInput): Promise<VerifyOcrOutput> {
  const field = input.field ?? 'masked_id_image';
  if (input.idCardType === 'passport') return passport(input.image, field, input.maxPixels);
  const doc = input.idCardType === 'driver_license' ? 'driver' : 'jumin';
  const { img } = await loadCard(input.image, field, input.maxPixels);
  const card = await readCard(img, doc);
  const name = card.fields.name!, birth = card.fields.birth_date!, num = card.fields.jumin_full!;
  const suggestions: string[] = [];
  if (!name.text) suggestions.push('The name could not be read: retake the ID photo flat, in focus and without glare.');
  else if (name.confidence < MIN_CONF) suggestions.push('The name was read with low confidence: check it against the card.');
  if (!birth.text) suggestions.push('The resident registration number (birth date part) could not be read.');
  else if (birth.confidence < MIN_CONF) suggestions.push('The birth date was read with low confidence: check it against the card.');
  if (num.text && !num.text.includes('*')) suggestions.push('The identity number is not masked: mask the last six digits before upload.');
  if (card.overallConfidence < 0.6) suggestions.push('Overall text quality is low: use a sharper, evenly lit photo of the whole card.');
  const confidence = Math.round(((name.confidence + birth.confidence) / 2) * 1000) / 1000;
  return { name: name.text, birth_date: birth.text, confidence, suggestions, idNumber: num.text, engine: OCR_MODELS };
}

async function passport(bytes: Uint8Array, field: string, maxPixels?: number): Promise<VerifyOcrOutput> {
  const c = await checkImage(bytes, { field, maxPixels });
  const raw = await decodeChecked(c, 3, 1600);
  const img = { data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength), width: raw.width, height: raw.height, channels: 3 as const };
  // the MRZ is the bottom band of the data page: group the detected pieces into rows, and read each row as one
  // full-width line (long runs of < split the detector's boxes)
  const boxes = (await detectTextBoxes(img, { limitSide: 1280 })).map((b) => b.box).filter((b: Box) => (b[1] + b[3]) / 2 > img.height * 0.5);
  const rows: Box[] = [];
  for (const b of [...boxes].sort((a, c) => (a[1] + a[3]) / 2 - (c[1] + c[3]) / 2)) {
    const cy = (b[1] + b[3]) / 2;
    const row = rows.find((r) => cy > r[1] && cy < r[3]);
    if (row) { row[0] = Math.min(row[0], b[0]); row[1] = Math.min(row[1], b[1]); row[2] = Math.max(row[2], b[2]); row[3] = Math.max(row[3], b[3]); }
    else rows.push([...b] as Box);
  }
  const wideRows = rows.filter((r) => r[2] - r[0] > img.width * 0.45);
  if (wideRows.length) {
    const x1 = Math.min(...wideRows.map((r) => r[0])), x2 = Math.max(...wideRows.map((r) => r[2]));
    for (const r of wideRows) { r[0] = x1; r[2] = x2; }
  }
  const lines = wideRows.length ? await recognizeBoxes(img, wideRows) : [];
  const cand = lines.map((l) => ({ ...l, clean: cleanMrzLine(l.text) })).filter((l) => l.clean.length >= 30);
  const suggestions: string[] = [];
  let best: ReturnType<typeof parseTd3> = null, conf = 0;
  for (let i = 0; i + 1 < cand.length; i++) {
    const r = parseTd3(cand[i]!.text, fixLine2(cand[i + 1]!.clean));
    if (r && (!best || (r.valid && !best.valid))) { best = r; conf = (cand[i]!.confidence + cand[i + 1]!.confidence) / 2; }
  }
  if (!best) {
    suggestions.push('The machine-readable zone (two lines of letters, digits and < at the bottom of the passport page) could not be read: photograph the whole data page, flat and sharp.');
    return { name: '', birth_date: '', confidence: 0, suggestions, idNumber: '', mrzValid: false, engine: OCR_MODELS };
  }
  if (!best.valid) {
    const bad = Object.entries(best.checks).filter(([, ok]) => !ok).map(([k]) => k);
    suggestions.push(`The machine-readable zone failed its check digits (${bad.join(', ')}): the reading is unreliable or the document is altered.`);
    conf *= 0.4;
  }
  return {
    name: `${best.surname} ${best.givenNames}`.trim(),
    birth_date: best.birthDate ?? '',
    confidence: Math.round(conf * 1000) / 1000,
    suggestions,
    idNumber: best.documentNumber,
    mrzValid: best.valid,
    engine: OCR_MODELS,
  };
}

/** Line 2 of a TD3 MRZ with a misread number of filler characters: rebuild it around the fixed-position fields. */
export function fixLine2(l2: string): string {
  let s = l2;
  // digits-only positions: O → 0
  const digitPos = [9, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 27];
  const fix = (str: string) => [...str].map((c, i) => (digitPos.includes(i) && c === 'O' ? '0' : c)).join('');
  if (s.length === 44) return fix(s);
  // personal number empty (all <): head (28) + fillers + composite check digit
  const head = s.slice(0, 28), tail = s.slice(28);
  if (/^<+[0-9O]$/.test(tail)) s = head + '<'.repeat(15) + tail.slice(-1).replace('O', '0');
  return fix(s);
}
