// A Hangul name read by several readers (PP-OCRv3 Korean once, Tesseract at a few line heights), decided by a
// vote per syllable: the readers fail on different syllables, and each one's wrong guesses are rarely shared.
import type { Box, Raster } from './raster.js';

export interface NameReading { text: string; confidence: number }

/** A Korean name as printed: 2–5 Hangul syllables (spaces and stray marks dropped first). */
export const hangulName = (t: string): string | null => {
  const h = t.replace(/[^가-힣]/g, '');
  return /^[가-힣]{2,5}$/.test(h) ? h : null;
};

/**
 * The vote: readings that are names of the most common length (ties: the larger summed confidence) vote on each
 * syllable with their confidence; null when no reading is a name. The result's confidence is the mean, over the
 * syllables, of the winning votes divided by the number of voters (a dissenting reader counts as zero).
 */
export function voteSyllables(readings: NameReading[]): NameReading | null {
  const names = readings.flatMap((r) => { const t = hangulName(r.text); return t ? [{ t: [...t], c: Math.max(0.01, r.confidence) }] : []; });
  if (!names.length) return null;
  const byLen = new Map<number, { n: number; c: number }>();
  for (const r of names) { const e = byLen.get(r.t.length) ?? { n: 0, c: 0 }; e.n++; e.c += r.c; byLen.set(r.t.length, e); }
  const len = [...byLen.entries()].sort((a, b) => b[1].n - a[1].n || b[1].c - a[1].c)[0]![0];
  const same = names.filter((r) => r.t.length === len);
  let text = '', share = 0;
  for (let i = 0; i < len; i++) {
    const votes = new Map<string, number>();
    for (const r of same) votes.set(r.t[i]!, (votes.get(r.t[i]!) ?? 0) + r.c);
    const [syl, v] = [...votes.entries()].sort((a, b) => b[1] - a[1])[0]!;
    text += syl;
    share += v / same.length;
  }
  return { text, confidence: share / len };
}

/** Line heights Tesseract reads the name at (its errors move with the scale; three reads out-vote one). */
export const TESSERACT_HEIGHTS = [64, 96, 128];

/** The name line read by Tesseract at each height, then the vote with the PP-OCR reading pp. */
export async function voteName(img: Raster, box: Box, pp: NameReading): Promise<NameReading & { readings: NameReading[] }> {
  const { tesseractLine } = await import('./ocr-tesseract.js');
  const readings: NameReading[] = [pp];
  for (const h of TESSERACT_HEIGHTS) readings.push(await tesseractLine(img, box, h));
  const v = voteSyllables(readings);
  return { ...(v ?? pp), readings };
}
