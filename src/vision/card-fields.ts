// Which detected text line is which field of an ID card when the printed layout differs from ours (another
// generator, another card edition): lines assigned by their content (the number's pattern, a date, the issuer's
// `…청장`, a licence number, a visa code) and by their order on the card (the name above the number, the address
// between the number and the date), the fixed regions of layouts.ts a prior: they decide whenever the lines found
// by content sit inside them. Label words before a field (성명, 주소 …) and a name's Hanja in parentheses are cut
// off the line (text, glyph positions and box).
import type { TextLine } from './ocr.js';
import type { Box } from './raster.js';
import { LAYOUTS, type DocType } from './layouts.js';
import { RRN, normaliseRrn, parseDate, validDate, LICENCE, normaliseLicence, VISA, normaliseVisa } from './card-patterns.js';

/** Measurement switches (bench/ocr-varied.ts --ab): 0 turns a step back to the reader of before (orientation and
 * inner-box check in loadCard / readCard; assignment by content, labels and Hanja cut; checks: card27's lines
 * re-read below a label above them, number chosen by its birth part, Hanja cut without Hangul read, licence type
 * mended). */
export const CARD_READ_SWITCHES = { orient: 1, content: 1, checks: 1 };

/** Label words printed before a field on real cards (Korean ID, driver licence, residence card), longest first. */
const LABELS = ['외국인등록번호', '주민등록번호', '국가/지역', '체류자격', '발급일자', '면허번호', '주민번호', '등록번호', '발급일', '성명', '이름', '주소', '종류', '국가', '국적'];

/** The line with the non-space characters [from, to) only: text, glyph probabilities and positions, box. */
export function sliceLine(l: TextLine, from: number, to: number): TextLine {
  const n = l.charX.length;
  let k = 0, text = '';
  for (const ch of l.text) {
    if (ch === ' ') { if (k > from && k < to) text += ch; continue; }
    if (k >= from && k < to) text += ch;
    k++;
  }
  // the cut halfway between glyphs, but no further than ≈ half a glyph from the kept one (a label is set apart)
  const half = (l.box[3] - l.box[1]) * 0.45;
  const mid = (i: number) => (l.charX[i - 1]! + l.charX[i]!) / 2;
  const box: Box = [from > 0 && from < n ? Math.max(mid(from), l.charX[from]! - half) : l.box[0], l.box[1], to < n && to > 0 ? Math.min(mid(to), l.charX[to - 1]! + half) : l.box[2], l.box[3]];
  return { text: text.trim(), confidence: mean(l.charConfidences.slice(from, to)), box, charConfidences: l.charConfidences.slice(from, to), charX: l.charX.slice(from, to) };
}
const mean = (a: number[]) => (a.length ? a.reduce((s, x) => s + x, 0) / a.length : 0);

/** A label word at the start of the line cut off (null when the line is the label alone). */
export function withoutLabel(l: TextLine): TextLine | null {
  const compact = l.text.replace(/\s+/g, '');
  const label = LABELS.find((w) => compact.startsWith(w));
  if (!label) return l;
  let cut = label.length;
  while (/[:：.]/.test(compact[cut] ?? '')) cut++;
  if (cut >= compact.length || l.charX.length !== compact.length) return cut >= compact.length ? null : l;
  return sliceLine(l, cut, compact.length);
}

/** A Hangul name followed by its Hanja (in parentheses, or a run of two or more Hanja): the Hangul part only. */
export function withoutHanja(l: TextLine): TextLine {
  const compact = l.text.replace(/\s+/g, '');
  const m = /^([가-힣]{2,5})(\(|[\u4e00-\u9fff]{2,}|[\u4e00-\u9fff]*\()/.exec(compact);
  if (!m || l.charX.length !== compact.length) return l;
  return sliceLine(l, 0, m[1]!.length);
}

/**
 * Lines whose detected box reaches up into a label word printed above them (성명 over the name, a label-above
 * layout): index → the box below that label's bottom. The taller box takes the label's strokes into the reading.
 */
export function labelClips(lines: TextLine[]): Map<number, Box> {
  const labels = lines.filter((l) => l.text && withoutLabel(l) === null);
  const out = new Map<number, Box>();
  lines.forEach((l, i) => {
    if (!l.text || labels.includes(l)) return;
    const [x0, y0, x1, y1] = l.box, h = y1 - y0;
    const lab = labels.find((a) => a.box[1] < y0 && a.box[3] > y0 + h * 0.08 && a.box[3] < y1 - h * 0.5 && a.box[0] < x1 && a.box[2] > x0);
    if (lab) out.set(i, [x0, lab.box[3], x1, y1]);
  });
  return out;
}

const cy = (b: Box) => (b[1] + b[3]) / 2;
const cx = (b: Box) => (b[0] + b[2]) / 2;
const height = (b: Box) => b[3] - b[1];
const compact = (l: TextLine) => l.text.replace(/\s+/g, '');
const isNumber = (l: TextLine) => RRN.test(normaliseRrn(compact(l)));
/** Seven digits and dots only, a year 1900–2099 first: a date whose month or day split is not known from the
 *  digits alone ("2025111": 1.11 or 11.1; the glyph gaps decide later, idcard.ts dateFromGlyphs). */
const dateRun = (t: string) => { const c = t.replace(/[^\d]/g, ''); return /^[\d.\s]+$/.test(t) && c.length === 7 && Number(c.slice(0, 4)) >= 1900 && Number(c.slice(0, 4)) < 2100; };
const isDate = (l: TextLine) => parseDate(l.text) !== null || (CARD_READ_SWITCHES.checks === 1 && dateRun(l.text));
/** A number line's birth part (YYMMDD) is a calendar date (a leap year's 29 February allowed). */
const validBirth = (l: TextLine) => {
  const m = RRN.exec(normaliseRrn(compact(l)));
  return m !== null && validDate(2000, Number(m[1]!.slice(2, 4)), Number(m[1]!.slice(4, 6)));
};
/** Which of the lines taken for a number is the card's: a valid birth part, no date (an issue date read without
 *  its dots, "2010521", passes for a number that lost its mask: 201052-1), then the recogniser's confidence. */
const numberRank = (l: TextLine) => (validBirth(l) ? 2 : 0) + (isDate(l) ? 0 : 1) + l.confidence;
const isIssuer = (l: TextLine) => /(청장|경찰청|출입국|외국인청)/.test(compact(l));
const isTitle = (l: TextLine, doc: DocType) => {
  const t = compact(l), title = LAYOUTS[doc].title;
  return [...title].filter((ch) => t.includes(ch)).length >= Math.ceil(title.length * 0.6) || /RESIDENCE|CARD/i.test(t);
};

/**
 * Lines → fields by content and order; null when the card's number or issue date is not found (then the fixed
 * regions decide). Lines are the card's lines with labels cut off.
 */
export function assignByContent(all: TextLine[], doc: DocType): Record<string, TextLine[]> | null {
  const lines = all.filter((l) => l.text && !isTitle(l, doc));
  const numField = doc === 'alien' ? 'registration_number' : 'jumin_full';
  const rank = CARD_READ_SWITCHES.checks ? numberRank : (l: TextLine) => l.confidence;
  const num = lines.filter(isNumber).sort((a, b) => rank(b) - rank(a))[0];
  if (!num) return null;
  const below = (l: TextLine, ref: TextLine) => cy(l.box) > cy(ref.box) + height(ref.box) * 0.5;
  const sameRow = (l: TextLine, ref: TextLine) => Math.abs(cy(l.box) - cy(ref.box)) < Math.max(height(ref.box), height(l.box)) * 0.6;
  const dates = lines.filter((l) => l !== num && isDate(l) && below(l, num));
  const issuer = lines.filter((l) => isIssuer(l) && below(l, num)).sort((a, b) => cy(b.box) - cy(a.box))[0];
  const date = dates.sort((a, b) => cy(b.box) - cy(a.box)).find((l) => !issuer || cy(l.box) < cy(issuer.box));
  if (!date) return null;
  const out: Record<string, TextLine[]> = {};
  const used = new Set<TextLine>([num, date]);
  out[numField] = [num, ...lines.filter((l) => l !== num && sameRow(l, num) && l.box[0] > num.box[0] && /^[*\d-]+$/.test(compact(l)))];
  out[numField].forEach((l) => used.add(l));
  out.issue_date = [date];
  if (issuer) { out.issuer = [issuer]; used.add(issuer); }
  const free = () => lines.filter((l) => !used.has(l));
  const take = (k: string, ls: TextLine[]) => { out[k] = ls; ls.forEach((l) => used.add(l)); };
  // the row under the number and above the address (alien: nationality and status)
  let addressTop = num;
  if (doc === 'driver') {
    const ln = free().find((l) => LICENCE.test(normaliseLicence(l.text)));
    if (ln) take('license_number', [ln]);
    const lt = free().find((l) => /^[12]종/.test(compact(l)) && !below(l, num));
    if (lt) take('license_type', [lt]);
  }
  if (doc === 'alien') {
    const st = free().find((l) => below(l, num) && VISA.test(normaliseVisa(l.text)));
    if (st) take('status', [st]);
    const latin = (l: TextLine) => /^[A-Za-z .'-]{2,}$/.test(l.text.trim());
    const name = free().filter((l) => below(l, num) && latin(l) && (!st || cy(l.box) < cy(st.box) - height(st.box) * 0.5)).sort((a, b) => cy(a.box) - cy(b.box))[0];
    if (name) take('name', [name]);
    const nat = free().filter((l) => latin(l) && (st ? sameRow(l, st) : name ? below(l, name) : below(l, num))).sort((a, b) => cy(a.box) - cy(b.box))[0];
    if (nat) take('nationality', [nat]);
    // the row under the name (nationality, status) even when neither was recognised
    const row = st ?? nat ?? (name ? free().filter((l) => below(l, name)).sort((a, b) => cy(a.box) - cy(b.box))[0] : undefined);
    if (row) addressTop = row;
  } else {
    // the name: the nearest line above the number holding Hangul, not the licence row
    const name = free().filter((l) => cy(l.box) < cy(num.box) - height(num.box) * 0.5 && /[가-힣]{2}/.test(l.text)).sort((a, b) => cy(b.box) - cy(a.box))[0];
    if (name) { take('name', [withoutHanja(name)]); used.add(name); }
  }
  // the address: the lines between the row above it and the date, in reading order
  const rowBottom = Math.max(...lines.filter((l) => sameRow(l, addressTop)).map((l) => cy(l.box)), cy(addressTop.box));
  const addr = free().filter((l) => below(l, addressTop) && cy(l.box) > rowBottom && cy(l.box) < cy(date.box) - height(date.box) * 0.5 && /[가-힣\d]/.test(l.text));
  if (addr.length) take('address', addr.sort((a, b) => (sameRow(a, b) ? cx(a.box) - cx(b.box) : cy(a.box) - cy(b.box))));
  return out;
}

/** Fields found by their own pattern (not by their place among the others): only these judge the layout. */
const BY_PATTERN = ['jumin_full', 'registration_number', 'issue_date', 'issuer', 'license_number', 'license_type', 'status'];

/**
 * True when every line found by its pattern sits in its field's fixed region (the fixed reading is then kept: on a
 * poor capture of our own layout a misread nationality or status row must not move the address).
 */
export function agreesWithLayout(byContent: Record<string, TextLine[]>, doc: DocType, W: number, H: number): boolean {
  const regions = LAYOUTS[doc].regions;
  return Object.entries(byContent).every(([k, ls]) => {
    const r = regions[k];
    if (!r || !BY_PATTERN.includes(k)) return true;
    const [fx, fy, fw, fh] = r;
    return ls.every((l) => cx(l.box) >= fx * W && cx(l.box) <= (fx + fw) * W && cy(l.box) >= fy * H && cy(l.box) <= (fy + fh) * H);
  });
}
