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
 * numbers whose syllables were lost ("1O0 1602%") becomes the flat number "100동 1602호".
 */
export async function mendDigits(img: Raster, box: Box, text: string): Promise<string> {
  const { charsetMask } = await import('./ocr.js');
  const { bestReading } = await import('./reread.js');
  digitMask ??= charsetMask((c) => /^[0-9 ]$/.test(c), 'ocrRecLatin');
  const r = await bestReading(img, box, 'ocrRecLatin', digitMask, (t) => /\d/.test(t), undefined, SURE_DIGITS);
  if (!r.valid || r.confidence < SURE_DIGITS) return text;
  const groups = r.text.split(/\s+/).filter(Boolean);
  // a line of two numbers and at most a few syllables is the flat number (its 동 / 호 may be lost or misread)
  const hangul = text.replace(/[^가-힣]/g, '');
  if (groups.length === 2 && groups[0]!.length <= 4 && groups[1]!.length <= 5 && hangul.length <= 3 && !/[층번가길로]/.test(hangul)) return `${groups[0]}동 ${groups[1]}호`;
  return replaceDigitRuns(text, groups) ?? text;
}
let digitMask: Uint8Array | undefined;

/** One line of a field as PP-OCR read it (text, mean character probability, box). */
export interface PpLine { text: string; confidence: number; box: Box; charConfidences: number[] }

/**
 * An address or issuing-authority field from its lines: each weak line (PP-OCR confidence below WEAK_LINE) also
 * read by Tesseract at three heights and voted on (voteFieldLine); the numbers of address lines mended by the
 * Latin recogniser (mendDigits). Confidence: the lines' confidences weighted by their lengths.
 */
export async function readFieldLines(img: Raster, lines: PpLine[], kind: 'address' | 'issuer', heights = LINE_HEIGHTS): Promise<{ text: string; confidence: number }> {
  const { repairIssuer, knownIssuer } = await import('./ocr-address.js');
  const out: Array<{ text: string; confidence: number }> = [];
  for (const l of lines) {
    let r: LineReading = { text: cleanLine(l.text), confidence: l.confidence };
    if (l.confidence < WEAK_LINE || (kind === 'issuer' && !knownIssuer(repairIssuer(r.text)))) {
      try {
        r = await voteFieldLine(img, l.box, r, heights);
      } catch {
        // the second reader (WebAssembly) failed to load or read: PP-OCR's reading stands
      }
    }
    if (kind === 'address') r = { ...r, text: await mendDigits(img, l.box, r.text) };
    out.push(r);
  }
  const n = out.reduce((s, r) => s + Math.max(1, r.text.length), 0);
  return {
    text: out.map((r) => r.text).join(' ').replace(/\s+/g, ' ').trim(),
    confidence: n ? out.reduce((s, r) => s + r.confidence * Math.max(1, r.text.length), 0) / n : 0,
  };
}
