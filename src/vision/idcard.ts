// Korean ID cards (perspective-corrected, nominal 1280×807): field layout per doc type, OCR → fields, validation.
import type { TextLine } from './ocr.js';
import type { Box, RgbImage } from './raster.js';

export interface FieldResult {
  text: string;
  confidence: number;
  bbox: Box;
}


import { repairAddress, repairIssuer } from './ocr-address.js';
import { LAYOUTS, fieldNames, type DocType, type Region } from './layouts.js';
export { LAYOUTS, fieldNames, type DocType, type Region };

import { CARD_READ_SWITCHES, labelClips, assignByContent, agreesWithLayout, withoutLabel, withoutHanja } from './card-fields.js';
import { uprightScore, UPRIGHT_MARKS, rotate180 } from './card-orient.js';
import { RRN, normaliseRrn, validDate, parseDate, normaliseLicence, LICENCE, VISA, normaliseVisa, LICENCE_TYPES } from './card-patterns.js';
export { normaliseRrn, validDate, parseDate, normaliseLicence, normaliseVisa };

// ------------------------------------------------------------------ validation helpers
/** Birth date from a resident number: century from the gender digit (1,2,5,6: 1900s; 3,4,7,8: 2000s; 9,0: 1800s), or guessed when masked. */
export function birthFromRrn(rrn: string, now = new Date()): { iso: string; ok: boolean } | null {
  const m = RRN.exec(rrn);
  if (!m) return null;
  const yy = Number(m[1]!.slice(0, 2)), mm = Number(m[1]!.slice(2, 4)), dd = Number(m[1]!.slice(4, 6));
  const g = m[2]!;
  let century: number;
  if (g === '*') century = yy <= now.getUTCFullYear() % 100 ? 2000 : 1900;
  else century = '1256'.includes(g) ? 1900 : '3478'.includes(g) ? 2000 : 1800;
  const y = century + yy;
  const ok = validDate(y, mm, dd) && Date.UTC(y, mm - 1, dd) <= now.getTime();
  return { iso: `${y}-${String(mm).padStart(2, '0')}-${String(dd).padStart(2, '0')}`, ok };
}

/** Check digit of an unmasked resident number (pre-2020 numbers; later ones have none, so a failure only lowers confidence). */
export function rrnChecksumOk(rrn: string): boolean {
  const d = rrn.replace('-', '');
  if (!/^\d{13}$/.test(d)) return false;
  const w = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  let s = 0;
  for (let i = 0; i < 12; i++) s += Number(d[i]) * w[i]!;
  return (11 - (s % 11)) % 10 === Number(d[12]);
}

// ------------------------------------------------------------------ extraction
export interface CardOcr {
  docType: DocType;
  fields: Record<string, FieldResult>;
  overallConfidence: number;
  /** every line read, for diagnostics (not returned to clients) */
  lines: TextLine[];
  /** the card was read turned by 180° (bbox refer to the turned image) */
  turned: 0 | 180;
}

/** A card's number line spans ≈ 0.37–0.4 of the card's width (14 glyphs at ≈ 45 px): what a re-read covers. */
const NUMBER_SPAN = 0.42;

/** The card's lines, read upright: when the lines show too few landmarks, the half-turned card is read too. */
async function uprightLines(img: RgbImage, doc: DocType): Promise<{ lines: TextLine[]; img: RgbImage; turned: 0 | 180 }> {
  const { ocrRegions } = await import('./ocr.js');
  const lines = await ocrRegions(img, { limitSide: 1280 });
  if (!CARD_READ_SWITCHES.orient) return { lines, img, turned: 0 };
  const score = uprightScore(lines, doc);
  if (score >= UPRIGHT_MARKS) return { lines, img, turned: 0 };
  const flipped = rotate180(img);
  const again = await ocrRegions(flipped, { limitSide: 1280 });
  return uprightScore(again, doc) > score ? { lines: again, img: flipped, turned: 180 } : { lines, img, turned: 0 };
}

/** Lines reaching up into a label above them (card-fields.ts labelClips) read again below it; the surer reading kept. */
async function belowLabels(img: RgbImage, lines: TextLine[]): Promise<TextLine[]> {
  const clips = CARD_READ_SWITCHES.checks ? labelClips(lines) : new Map<number, Box>();
  if (!clips.size) return lines;
  const { recognizeBoxes } = await import('./ocr.js');
  const idx = [...clips.keys()];
  const again = await recognizeBoxes(img, [...clips.values()], 4);
  return lines.map((l, i) => {
    const r = again[idx.indexOf(i)];
    return r && r.text && r.confidence > l.confidence ? r : l;
  });
}

/**
 * A Korean name printed with its Hanja, 홍길동(洪吉童), read as one line: the Korean recogniser reads the Hanja as
 * Hangul (김재준(金在俊) → 김재준쇼죠犧), the Chinese/Latin one reads the parenthesis and the Hanja right. The line
 * is cut where that one reads '(' and its Hangul part read again. Only lines of 4+ glyphs or with a non-Hangul one.
 */
async function cutHanja(img: RgbImage, f: FieldResult): Promise<FieldResult> {
  const compactName = f.text.replace(/\s+/g, '');
  if (compactName.length < 4 && /^[가-힣]+$/.test(compactName)) return f;
  const { lineProbs, decodeLine, recognizeBoxes } = await import('./ocr.js');
  const [lp] = await lineProbs(img, [f.bbox], 1, undefined, 'ocrRecLatin');
  const zh = lp ? decodeLine(lp) : null;
  const at = zh ? [...zh.text.replace(/\s+/g, '')].indexOf('(') : -1;
  // that recogniser may drop the Hangul before '(' altogether ("(智娟)"): the '(' then counts when two glyphs'
  // room lies before it (the pitch of the Hanja after it, which are as wide as Hangul)
  const pitch = zh && zh.charX.length >= 3 ? (zh.charX[zh.charX.length - 1]! - zh.charX[1]!) / Math.max(1, zh.charX.length - 2) : Infinity;
  const room = CARD_READ_SWITCHES.checks && at === 0 && zh!.charX[0] !== undefined && zh!.charX[0] - f.bbox[0] > 1.5 * pitch;
  if (!zh || (at < 1 && !room) || zh.charX[at] === undefined) return f;
  const box: Box = [f.bbox[0], f.bbox[1], Math.round(zh.charX[at]!), f.bbox[3]];
  const [again] = await recognizeBoxes(img, [box], 1);
  if (!again || !/[가-힣]{2}/.test(again.text)) return f;
  return { text: again.text, confidence: again.confidence, bbox: box };
}

/** A name's lines without its Hanja (cut off a line, or a line of Hanja alone beside the Hangul). */
function hangulName(ls: TextLine[]): TextLine[] {
  const cut = ls.map(withoutHanja);
  const hangul = cut.filter((l) => /[가-힣]/.test(l.text));
  return hangul.length ? hangul : cut;
}

const centre = (b: Box): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const union = (bs: Box[]): Box => [Math.min(...bs.map((b) => b[0])), Math.min(...bs.map((b) => b[1])), Math.max(...bs.map((b) => b[2])), Math.max(...bs.map((b) => b[3]))];
const round = (b: Box): Box => b.map((v) => Math.round(v)) as Box;

/** Read the fields of a card image (ideally 1280×807, perspective-corrected). */
export async function readCard(img: RgbImage, doc: DocType, now = new Date()): Promise<CardOcr> {
  // (ocr.js is loaded lazily so that importing this module (layouts, validators) does not load onnxruntime)
  const read = await uprightLines(img, doc);
  img = read.img;
  const { turned } = read;
  const lines = await belowLabels(img, read.lines);
  const W = img.width, H = img.height;
  const layout = LAYOUTS[doc];
  const fields: Record<string, FieldResult> = {};
  const used = new Set<TextLine>();
  const glyphs: Record<string, { text: string; x: number[] }> = {};
  const fieldLines: Record<string, TextLine[]> = {};
  // label words cut off; the lines found by content decide when they do not sit in the fixed regions (card-fields.ts)
  const content = CARD_READ_SWITCHES.content;
  const cleaned = content ? lines.map(withoutLabel).filter((l): l is TextLine => l !== null) : lines;
  const found = content ? assignByContent(cleaned, doc) : null;
  const byContent = found && !agreesWithLayout(found, doc, W, H) ? found : null;
  const claimed = new Set(byContent ? Object.values(byContent).flat() : []);
  for (const [name, [fx, fy, fw, fh]] of Object.entries(layout.regions)) {
    let inside = byContent?.[name] ?? cleaned.filter((l) => {
      const [cx, cy] = centre(l.box);
      return l.text && !claimed.has(l) && cx >= fx * W && cx <= (fx + fw) * W && cy >= fy * H && cy <= (fy + fh) * H;
    });
    // a field moved out of its fixed region while the others stayed (a name set right of its label): the line
    // the content assignment found for it, when no other field took it
    const moved = found?.[name];
    if (!inside.length && CARD_READ_SWITCHES.checks && moved?.length && !moved.some((l) => used.has(l))) inside = moved;
    if (content && name === 'name' && doc !== 'alien') inside = hangulName(inside);
    inside.forEach((l) => used.add(l));
    fieldLines[name] = inside;
    if (!inside.length) {
      fields[name] = { text: '', confidence: 0, bbox: round([fx * W, fy * H, (fx + fw) * W, (fy + fh) * H]) };
      continue;
    }
    glyphs[name] = { text: inside.map((l) => l.text).join(''), x: inside.flatMap((l) => l.charX) };
    const chars = inside.flatMap((l) => l.charConfidences);
    fields[name] = {
      text: inside.map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim(),
      confidence: chars.length ? chars.reduce((a, b) => a + b, 0) / chars.length : 0,
      bbox: round(union(inside.map((l) => l.box))),
    };
  }
  // content fallback: a number pattern that landed outside its region
  const numberField = doc === 'alien' ? 'registration_number' : 'jumin_full';
  if (!RRN.test(normaliseRrn(fields[numberField]!.text))) {
    const alt = cleaned.find((l) => !used.has(l) && RRN.test(normaliseRrn(l.text.replace(/\s+/g, ''))));
    if (alt) fields[numberField] = { text: alt.text, confidence: alt.confidence, bbox: round(alt.box) };
  }
  if (content && doc !== 'alien' && fields.name?.text) fields.name = await cutHanja(img, fields.name);
  // weak name / number lines (small, blurred, glared captures): read prepared copies of the line, keep the best
  await rereadWeak(img, fields, doc, numberField, byContent !== null);
  await voteHangulName(img, fields, doc);
  // weak address / issuer lines: Tesseract's readings voted in, address numbers from the Latin recogniser
  const { readFieldLines } = await import('./field-vote.js');
  for (const k of ['address', 'issuer'] as const) {
    if (fieldLines[k]?.length) fields[k] = { ...(await readFieldLines(img, fieldLines[k]!, k)), bbox: fields[k]!.bbox };
  }
  // short codes lose their first glyph on some crops ("F-4" → "-4"): re-read with more context before giving up
  if (doc === 'alien' && fields.status && fields.status.text && !VISA.test(normaliseVisa(fields.status.text))) {
    const { recognizeBoxes } = await import('./ocr.js');
    for (const pad of [0.4, 0.7, 1.0]) {
      const [again] = await recognizeBoxes(img, [fields.status.bbox], 1, pad);
      if (again && VISA.test(normaliseVisa(again.text))) {
        fields.status = { text: again.text, confidence: again.confidence, bbox: fields.status.bbox };
        break;
      }
    }
  }
  validate(fields, doc, now, glyphs);
  const vals = Object.values(fields);
  const overallConfidence = vals.length ? vals.reduce((s, f) => s + f.confidence, 0) / vals.length : 0;
  return { docType: doc, fields, overallConfidence: Math.round(overallConfidence * 1000) / 1000, lines, turned };
}

const nameOk = (doc: DocType, t: string): boolean => (doc === 'alien' ? /^[A-Z][A-Z']+( [A-Z']+)+$/.test(t.toUpperCase().trim()) : /^[가-힣]{2,5}$/.test(t.replace(/\s+/g, '')));
const numberOk = (t: string): boolean => RRN.test(normaliseRrn(t));
/** Below this mean character probability a valid-looking name or number is read again. */
const REREAD_CONF = 0.9;

/**
 * Fields printed in Latin letters and digits (numbers, alien name, nationality, status, licence number) are read
 * again with the PP-OCRv4 recogniser restricted to the field's alphabet: the Korean model confuses small or blurred
 * Latin capitals with lower case and Hangul, and `*` with Hanja. Alphabets: [class test, validity]. (Hangul names
 * stay with the Korean model here — crop jitter, re-scaling and a Hangul-only alphabet did not help — and are
 * then voted on with Tesseract's readings, voteHangulName.)
 */
const LATIN_FIELDS: Record<string, [RegExp, (t: string, doc: DocType) => boolean]> = {
  number: [/^[0-9*-]$/, (t) => numberOk(t)],
  name: [/^[A-Z' -]$/, (t, doc) => nameOk(doc, t)],
  nationality: [/^[A-Z .'-]$/, (t) => /^[A-Z][A-Z .'-]{1,40}$/.test(t)],
  status: [/^[A-Z0-9-]$/, (t) => VISA.test(normaliseVisa(t))],
  license_number: [/^[0-9-]$/, (t) => LICENCE.test(normaliseLicence(t))],
  // the Korean dictionary has no '.', the Latin one has: "2012. 1. 16." keeps its separators
  issue_date: [/^[0-9. ]$/, (t) => parseDate(t) !== null],
};
const masks = new Map<string, Uint8Array>();

async function rereadWeak(img: RgbImage, fields: Record<string, FieldResult>, doc: DocType, numberField: string, moved = false): Promise<void> {
  const { recognizeBoxes, charsetMask } = await import('./ocr.js');
  const { lineVariants, bestReading, widestInkGap } = await import('./reread.js');
  const latin = [numberField, 'issue_date', ...(doc === 'alien' ? ['name', 'nationality', 'status'] : []), ...(doc === 'driver' ? ['license_number'] : [])];
  for (const k of latin) {
    const f = fields[k];
    if (!f) continue;
    const kind = k === numberField ? 'number' : k;
    const [cls, valid] = LATIN_FIELDS[kind]!;
    if (!masks.has(kind)) masks.set(kind, charsetMask((c) => cls.test(c), 'ocrRecLatin'));
    const box = k === numberField ? numberBox(f.bbox, doc, img.width, moved) : f.bbox;
    const gap = kind === 'name' ? widestInkGap(img, box) : null;
    const repair = kind === 'name' ? (t: string, x: number[]) => (t.includes(' ') ? t : spaceAt(t, x, gap)) : undefined;
    const r = await bestReading(img, box, 'ocrRecLatin', masks.get(kind), (t) => valid(t, doc), repair);
    if (!r.text || (!r.valid && valid(f.text, doc))) continue;
    fields[k] = { text: r.text, confidence: r.confidence, bbox: f.bbox };
  }
  if (doc === 'alien') return;
  const f = fields.name;
  if (!f || (nameOk(doc, f.text) && f.confidence >= REREAD_CONF)) return;
  let best = { text: f.text, confidence: f.confidence, valid: nameOk(doc, f.text) };
  for (const v of lineVariants(img, f.bbox)) {
    const [r] = await recognizeBoxes(v.img, [v.box], 1);
    if (!r || !r.text) continue;
    const valid = nameOk(doc, r.text);
    if ((valid && !best.valid) || (valid === best.valid && r.confidence > best.confidence)) best = { text: r.text, confidence: r.confidence, valid };
  }
  if (best.text !== f.text) fields.name = { text: best.text, confidence: best.confidence, bbox: f.bbox };
}

/** A Hangul name is also read by Tesseract at three line heights; the four readings vote per syllable (name-vote.ts). */
async function voteHangulName(img: RgbImage, fields: Record<string, FieldResult>, doc: DocType): Promise<void> {
  const f = fields.name;
  if (doc === 'alien' || !f || !f.text) return;
  const { voteName } = await import('./name-vote.js');
  let v: { text: string; confidence: number };
  try {
    v = await voteName(img, f.bbox, f);
  } catch {
    return; // the second reader (WebAssembly) failed to load or read: PP-OCR's reading stands, as before the vote
  }
  fields.name = { text: v.text, confidence: v.confidence, bbox: f.bbox };
}

/** The number line across its whole layout region: the masked digits are often a separate (or missed) text box. */
function numberBox(b: Box, doc: DocType, W: number, moved = false): Box {
  // fields placed elsewhere than our layout: the line's own start, and room for 14 glyphs after it
  if (moved) return [b[0], b[1], Math.max(b[2], Math.min(W, b[0] + NUMBER_SPAN * W)), b[3]];
  const [fx, , fw] = LAYOUTS[doc].regions[doc === 'alien' ? 'registration_number' : 'jumin_full']!;
  return [Math.min(b[0], fx * W), b[1], Math.max(b[2], (fx + fw) * W), b[3]];
}

/** A two-word Latin name read without its space: the space goes where the line's widest ink-free gap is. */
export function spaceAt(text: string, x: number[], gapX: number | null): string {
  const ch = [...text];
  if (gapX === null || ch.length < 4 || x.length !== ch.length) return text;
  const at = x.findIndex((v) => v > gapX);
  if (at < 2 || at > ch.length - 2) return text; // each word at least two letters
  return `${ch.slice(0, at).join('')} ${ch.slice(at).join('')}`;
}

/** Normalise and check each field; what fails keeps its text but has its confidence lowered. */
/** A date whose separators were lost: split the digits after the year at the widest gap between glyphs. */
export function dateFromGlyphs(g: { text: string; x: number[] }): string | null {
  const ch = [...g.text.replace(/\s+/g, '')];
  const digits: Array<{ d: string; x: number }> = [];
  ch.forEach((c, i) => { if (/\d/.test(c) && g.x[i] !== undefined) digits.push({ d: c, x: g.x[i]! }); });
  if (digits.length < 6 || digits.length > 8) return null;
  const y = digits.slice(0, 4).map((d) => d.d).join('');
  const rest = digits.slice(4);
  let best = -1, gap = -1;
  for (let i = 1; i < rest.length; i++) {
    const gp = rest[i]!.x - rest[i - 1]!.x;
    if (gp > gap) { gap = gp; best = i; }
  }
  if (best < 0) return null;
  const mo = rest.slice(0, best).map((d) => d.d).join(''), d = rest.slice(best).map((d) => d.d).join('');
  if (!validDate(Number(y), Number(mo), Number(d))) return null;
  return `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`;
}

function validate(f: Record<string, FieldResult>, doc: DocType, now: Date, glyphs: Record<string, { text: string; x: number[] }>): void {
  const penal = (k: string, factor = 0.4) => { if (f[k]) f[k]!.confidence *= factor; };
  const numberField = doc === 'alien' ? 'registration_number' : 'jumin_full';
  const num = f[numberField]!;
  num.text = normaliseRrn(num.text);
  const birth = birthFromRrn(num.text, now);
  if (!birth) penal(numberField);
  else {
    if (!birth.ok) penal(numberField, 0.6);
    const m = RRN.exec(num.text)!;
    if (/^\d{7}$/.test(m[2]! + m[3]!.replace(/\*/g, '')) && !num.text.includes('*') && !rrnChecksumOk(num.text)) penal(numberField, 0.9);
    if (doc === 'alien' && m[2] !== '*' && !'5678'.includes(m[2]!)) penal(numberField, 0.7);
  }
  if (doc === 'alien') f.jumin_full = { ...num };
  f.birth_date = birth
    ? { text: birth.iso, confidence: num.confidence * (birth.ok ? 1 : 0.4), bbox: num.bbox }
    : { text: '', confidence: 0, bbox: num.bbox };

  const iss = f.issue_date!;
  const iso = parseDate(iss.text) ?? (glyphs.issue_date ? dateFromGlyphs(glyphs.issue_date) : null);
  if (iso) {
    iss.text = iso;
    if (Date.parse(iso) > now.getTime() || (birth?.ok && iso < birth.iso)) penal('issue_date', 0.5);
  } else penal('issue_date');

  const name = f.name!;
  if (doc === 'alien') {
    name.text = name.text.toUpperCase().replace(/[!|1]/g, 'I').replace(/0/g, 'O');
    if (!/^[A-Z][A-Z' -]{1,60}$/.test(name.text)) penal('name');
  } else {
    name.text = name.text.replace(/\s+/g, '');
    // a Korean name is Hangul only: a stray mark read beside it ("'임지성") is dropped when 2–5 syllables remain
    const hangul = name.text.replace(/[^가-힣]/g, '');
    if (hangul !== name.text && /^[가-힣]{2,5}$/.test(hangul)) name.text = hangul;
    if (!/^[가-힣]{2,5}$/.test(name.text)) penal('name');
  }
  if (f.address) f.address.text = f.address.text.replace(/(\d)이(?=\s|$)/g, '$10'); // CTC confusion '0' → '이' after digits
  // province and city/district names mended against the administrative lexicon (ocr-address.ts)
  if (f.address?.text) f.address.text = repairAddress(f.address.text);
  if (f.issuer?.text) f.issuer.text = repairIssuer(f.issuer.text);
  if (!/[가-힣]/.test(f.address?.text ?? '')) penal('address');
  if (!/(청장|시장|군수|구청장|경찰청장|도지사)$/.test(f.issuer?.text.replace(/\s+/g, '') ?? '')) penal('issuer', 0.6);

  if (doc === 'driver') {
    const ln = f.license_number!;
    ln.text = normaliseLicence(ln.text);
    if (!LICENCE.test(ln.text)) penal('license_number');
    const lt = f.license_type!;
    const compact = lt.text.replace(/\s+/g, '');
    // a lost class digit ("종대형"): the one type that ends so (1종 대형; "종보통" stays unknown)
    const ends = LICENCE_TYPES.filter((t) => CARD_READ_SWITCHES.checks && compact.length >= 3 && t.replace(' ', '').endsWith(compact));
    const known = LICENCE_TYPES.find((t) => t.replace(' ', '') === compact) ?? (ends.length === 1 ? ends[0] : undefined);
    if (known) lt.text = known;
    else penal('license_type');
  }
  if (doc === 'alien') {
    const st = f.status!;
    st.text = normaliseVisa(st.text);
    if (!VISA.test(st.text)) penal('status');
    const nat = f.nationality!;
    nat.text = nat.text.toUpperCase();
    if (!/^[A-Z][A-Z .'-]{1,40}$/.test(nat.text)) penal('nationality');
  }
  for (const v of Object.values(f)) v.confidence = Math.round(v.confidence * 1000) / 1000;
}
