// A text line of any length (an address line, an issuing authority) read by several readers — PP-OCRv3 Korean once,
// Tesseract at a few line heights — and decided by an aligned vote per character (ROVER-like): each reading is
// aligned to the most confident one by edit distance, and every position (a character, or nothing) goes to the
// largest summed confidence. Unlike name-vote.ts the readings may differ in length (lost or extra glyphs).
import type { Box, Raster } from './raster.js';

export interface LineReading { text: string; confidence: number }

const chars = (t: string): string[] => [...t.replace(/\s+/g, '')];

/**
 * Alignment of b onto the pivot a: for each pivot character the character of b it is aligned with ('' when b lost
 * it), and for each gap before pivot character i (index a.length: after the last) the characters b has there.
 */
export function align(a: string[], b: string[]): { sub: string[]; ins: string[][] } {
  const n = a.length, m = b.length;
  const D = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = 0; i <= n; i++) D[i]![0] = i;
  for (let j = 0; j <= m; j++) D[0]![j] = j;
  for (let i = 1; i <= n; i++) for (let j = 1; j <= m; j++) {
    D[i]![j] = Math.min(D[i - 1]![j]! + 1, D[i]![j - 1]! + 1, D[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  const sub = new Array<string>(n).fill(''), ins = Array.from({ length: n + 1 }, () => [] as string[]);
  let i = n, j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && D[i]![j] === D[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)) { sub[i - 1] = b[j - 1]!; i--; j--; }
    else if (i > 0 && D[i]![j] === D[i - 1]![j]! + 1) { sub[i - 1] = ''; i--; }
    else { ins[i]!.unshift(b[j - 1]!); j--; }
  }
  return { sub, ins };
}

/**
 * The vote. The pivot is the most confident reading; its spaces are kept where its characters survive. Each
 * position's winner needs the largest summed confidence (a reader that lost the character votes for nothing);
 * an insertion is made when the readers that have it outweigh those that do not. Confidence: the mean, over the
 * result's characters, of the winning weight's share of the total. null when no reading has text.
 */
export function voteLine(readings: LineReading[]): LineReading | null {
  const rs = readings.filter((r) => r.text.trim()).map((r) => ({ text: r.text.trim(), c: Math.max(0.01, r.confidence) }));
  if (!rs.length) return null;
  const pivot = rs.reduce((a, b) => (b.c > a.c ? b : a));
  const p = chars(pivot.text);
  const total = rs.reduce((s, r) => s + r.c, 0);
  const subs = p.map(() => new Map<string, number>());
  const gaps = Array.from({ length: p.length + 1 }, () => new Map<string, number>());
  for (const r of rs) {
    const { sub, ins } = align(p, chars(r.text));
    sub.forEach((ch, i) => subs[i]!.set(ch, (subs[i]!.get(ch) ?? 0) + r.c));
    ins.forEach((cs, i) => { if (cs.length) gaps[i]!.set(cs.join(''), (gaps[i]!.get(cs.join('')) ?? 0) + r.c); });
  }
  const win = (m: Map<string, number>): [string, number] => [...m.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  // where the pivot has a space: before its k-th non-space character
  const spaceBefore = new Set<number>();
  let k = 0;
  for (const ch of pivot.text) { if (/\s/.test(ch)) spaceBefore.add(k); else k++; }
  let text = '', share = 0, n = 0;
  for (let i = 0; i <= p.length; i++) {
    const [g, gw] = win(gaps[i]!);
    if (g && gw > total / 2) { text += g; share += gw / total; n += [...g].length; }
    if (i === p.length) break;
    if (spaceBefore.has(i) && text && !text.endsWith(' ')) text += ' ';
    const [ch, w] = win(subs[i]!);
    if (ch) { text += ch; share += w / total; n++; }
  }
  return { text: text.trim(), confidence: n ? share / n : 0 };
}

/** An address or authority line without what never appears in one: lone jamo (ㅎ, ㅋ), Hanja, stray marks. */
export const cleanLine = (t: string): string => t.replace(/[\u3131-\u318e\u4e00-\u9fff「」『』|:;=、。~!?"'`※*#%_<>{}\[\]\\^]/g, '').replace(/(?<!\d)-+|-+(?!\d)/g, '').replace(/\s+/g, ' ').trim();

/** Line heights Tesseract reads a field line at (as for names: its errors move with the scale). */
export const LINE_HEIGHTS = [64, 96, 128];

/** A field line read by Tesseract at each height, voted with the PP-OCR reading pp. */
export async function voteFieldLine(img: Raster, box: Box, pp: LineReading, heights = LINE_HEIGHTS): Promise<LineReading & { readings: LineReading[] }> {
  const { tesseractLine } = await import('./ocr-tesseract.js');
  const readings: LineReading[] = [pp];
  for (const h of heights) { const t = await tesseractLine(img, box, h); readings.push({ ...t, text: cleanLine(t.text) }); }
  const v = voteLine(readings);
  return { ...(v ?? pp), readings };
}

/** Below this mean character probability an address or issuer line is also read by Tesseract and voted on. */
export const WEAK_LINE = 0.9;
/** The Latin recogniser's digit reading replaces the line's numbers from this mean probability on. */
const SURE_DIGITS = 0.85;

/** The digit groups of runs (a line's numbers) replaced in order by groups, when there are as many of each. */
export function replaceDigitRuns(text: string, groups: string[]): string | null {
  const runs = text.match(/\d+/g) ?? [];
  if (!groups.length || runs.length !== groups.length) return null;
  let k = 0;
  return text.replace(/\d+/g, () => groups[k++]!);
}

/**
 * The numbers of an address line mended by the PP-OCRv4 Chinese/Latin recogniser decoded within digits and
 * space (it reads blurred digits that the Korean model and Tesseract confuse: 1 → 3, 0 → 9; bench/RESULTS.md
 * ocr21): its groups replace the line's digit runs when there are as many and it is sure. A short line of two
 * numbers whose syllables were lost ("1O0 1602%") becomes the flat number "100동 1602호". prepared: also read the
 * prepared copies of the line when the plain line gives no sure reading (three more recogniser passes: on a long
 * line of mostly Hangul the digit reading is rarely sure, so this is most of the cost).
 */
export async function mendDigits(img: Raster, box: Box, text: string, prepared = true): Promise<string> {
  const { charsetMask } = await import('./ocr.js');
  const { bestReading } = await import('./reread.js');
  digitMask ??= charsetMask((c) => /^[0-9 ]$/.test(c), 'ocrRecLatin');
  const r = await bestReading(img, box, 'ocrRecLatin', digitMask, (t) => /\d/.test(t), undefined, SURE_DIGITS, prepared);
  if (!r.valid || r.confidence < SURE_DIGITS) return text;
  const groups = r.text.split(/\s+/).filter(Boolean);
  // a line of two numbers and at most a few syllables is the flat number (its 동 / 호 may be lost or misread)
  const hangul = text.replace(/[^가-힣]/g, '');
  if (groups.length === 2 && groups[0]!.length <= 4 && groups[1]!.length <= 5 && hangul.length <= 3 && !/[층번가길로]/.test(hangul)) return `${groups[0]}동 ${groups[1]}호`;
  return replaceDigitRuns(text, groups) ?? text;
}
let digitMask: Uint8Array | undefined;

/** One line of a field as PP-OCR read it (text, mean character probability, box, each glyph's probability and x centre). */
export interface PpLine { text: string; confidence: number; box: Box; charConfidences: number[]; charX: number[] }

/**
 * Measurement switches (bench/ocr-poor.ts --set k=v; the defaults are the service's behaviour): mendAll 1 = every
 * address line's digits read again with the prepared copies (ocr21); checkConfident 0 = a confident line is never
 * voted on (ocr21).
 */
export const FIELD_VOTE_SWITCHES = { mendAll: 0, checkConfident: 1 };

/** A Hangul syllable read below this probability makes a confident address line doubtful (doubtfulSyllable). */
export const DOUBTFUL_SYLLABLE = 0.85;
/** A digit read below this probability puts the line's numbers in doubt (digitsInDoubt). */
export const DOUBTFUL_DIGIT = 0.9;

/** The line's non-space characters, each with its probability and x centre (PP-OCR gives one per glyph). */
const glyphsOf = (l: PpLine) => [...l.text.replace(/\s+/g, '')].map((ch, i) => ({ ch, p: l.charConfidences[i] ?? 0, x: l.charX[i] ?? NaN }));

/**
 * A confident line (mean ≥ WEAK_LINE) with one Hangul syllable PP-OCR was not sure of (< DOUBTFUL_SYLLABLE): the
 * mean hides a single wrong syllable (an enhanced card's 달구벌대로 read 달구별대로 in a 0.998 line; 월드컵로 →
 * 월드컴로, 컴 at 0.81, in a 0.965 line). The syllable right after a number (the flat number's 동 / 호) is left
 * out: the lexicon mends it (repairAddress) and the vote would put Tesseract's weaker digits in play.
 */
export function doubtfulSyllable(l: PpLine): boolean {
  const g = glyphsOf(l);
  return g.some((c, i) => /[가-힣]/.test(c.ch) && c.p < DOUBTFUL_SYLLABLE && !/\d/.test(g[i - 1]?.ch ?? ''));
}

/**
 * Whether a line's numbers need the digit reader's prepared copies: a digit read below DOUBTFUL_DIGIT, or room
 * for a lost digit — two neighbouring digits more than 0.9 line heights apart (digits are ≈ 0.5–0.6 apart), a
 * number starting more than 1.6 line heights after the glyph before it (a word space is ≤ 1.35), or more than
 * 0.8 line heights of box after a final digit (≤ 0.4 when nothing is lost). PP-OCR can drop a digit at high
 * confidence (무등로 241 → 무등로24) while the box still holds it.
 */
export function digitsInDoubt(l: PpLine): boolean {
  const g = glyphsOf(l), lh = Math.max(4, l.box[3] - l.box[1]);
  const digit = (i: number) => /\d/.test(g[i]?.ch ?? '');
  for (let i = 0; i < g.length; i++) {
    if (!digit(i)) continue;
    if (g[i]!.p < DOUBTFUL_DIGIT) return true;
    if (i > 0 && (g[i]!.x - g[i - 1]!.x) / lh > (digit(i - 1) ? 0.9 : 1.6)) return true;
  }
  return g.length > 0 && digit(g.length - 1) && (l.box[2] - g[g.length - 1]!.x) / lh > 0.8;
}

/**
 * A doubtful line after its vote: only the syllables PP-OCR was unsure of (< DOUBTFUL_SYLLABLE) take the vote's
 * syllable aligned with them; every other glyph stays PP-OCR's. On a confident line the second reader must not
 * out-vote what PP-OCR read surely: under a glare spot Tesseract reads nothing where PP-OCR read 수구 세종대 at
 * ≥ 0.9, its three empty readings would delete them (the full vote does that to weak glared lines: 인천광역시
 * 연수구 세종대로 → 인천광역시 연 로, seed 9502 under glare, ocr21 and ocr22 alike).
 */
export function mendDoubtful(l: PpLine, voted: string): string {
  const g = glyphsOf(l);
  const { sub } = align(g.map((c) => c.ch), chars(voted));
  let k = 0, out = '';
  for (const ch of l.text) {
    if (/\s/.test(ch)) { out += ch; continue; }
    const c = g[k]!, v = sub[k] ?? '';
    k++;
    out += c.p < DOUBTFUL_SYLLABLE && /[가-힣]/.test(c.ch) && /^[가-힣]$/.test(v) ? v : c.ch;
  }
  return cleanLine(out);
}

const digitRuns = (t: string): string => (t.match(/\d+/g) ?? []).join(' ');

/**
 * An address or issuing-authority field from its lines: each weak line (PP-OCR confidence below WEAK_LINE) also
 * read by Tesseract at three heights and voted on (voteFieldLine); the numbers of address lines mended by the
 * Latin recogniser (mendDigits). Confidence: the lines' confidences weighted by their lengths.
 */
export async function readFieldLines(img: Raster, lines: PpLine[], kind: 'address' | 'issuer', heights = LINE_HEIGHTS): Promise<{ text: string; confidence: number }> {
  const { repairIssuer, knownIssuer } = await import('./ocr-address.js');
  const out: Array<{ text: string; confidence: number }> = [];
  for (const l of lines) {
    const pp: LineReading = { text: cleanLine(l.text), confidence: l.confidence };
    let r = pp;
    const weak = l.confidence < WEAK_LINE || (kind === 'issuer' && !knownIssuer(repairIssuer(r.text)));
    const doubtful = !weak && kind === 'address' && FIELD_VOTE_SWITCHES.checkConfident > 0 && doubtfulSyllable(l);
    if (weak || doubtful) {
      try {
        const v = await voteFieldLine(img, l.box, r, heights);
        r = weak ? v : { text: mendDoubtful(l, v.text), confidence: pp.confidence };
      } catch {
        // the second reader (WebAssembly) failed to load or read: PP-OCR's reading stands
      }
    }
    if (kind === 'address') {
      // every line gets the plain digit read (one recogniser pass); the prepared copies only where the numbers are
      // in doubt: a weak line (Tesseract's digits were voted in), digits PP-OCR was unsure of or that left room for
      // a lost one, or a doubtful line whose vote changed its numbers
      const thorough = FIELD_VOTE_SWITCHES.mendAll > 0 || weak || digitsInDoubt(l) || digitRuns(r.text) !== digitRuns(pp.text);
      r = { ...r, text: await mendDigits(img, l.box, r.text, thorough) };
    }
    out.push(r);
  }
  const n = out.reduce((s, r) => s + Math.max(1, r.text.length), 0);
  return {
    text: out.map((r) => r.text).join(' ').replace(/\s+/g, ' ').trim(),
    confidence: n ? out.reduce((s, r) => s + r.confidence * Math.max(1, r.text.length), 0) / n : 0,
  };
}
