// Is the card upside down? Decided by reading: the lines of an upright card hold its number, a date, the issuer's
// title or the card's title; read upside down (PP-OCR recognises upright text only) they hold none of them.
import type { TextLine } from './ocr.js';
import type { RgbImage } from './raster.js';
import { LAYOUTS, type DocType } from './layouts.js';
import { RRN, normaliseRrn, parseDate } from './card-patterns.js';

/** How many of the card's landmarks its lines show (number, a date, `…청장`, the title), plus the mean confidence. */
export function uprightScore(lines: TextLine[], doc: DocType): number {
  const texts = lines.map((l) => l.text.replace(/\s+/g, ''));
  const title = LAYOUTS[doc].title;
  const marks = [
    texts.some((t) => RRN.test(normaliseRrn(t)) || RRN.test(normaliseRrn(t.replace(/^[^\d]+/, '')))),
    texts.some((t) => parseDate(t) !== null),
    texts.some((t) => /청장$/.test(t)),
    texts.some((t) => [...title].filter((ch) => t.includes(ch)).length >= Math.min(4, title.length - 1)),
  ].filter(Boolean).length;
  const mean = lines.length ? lines.reduce((s, l) => s + l.confidence, 0) / lines.length : 0;
  return marks + mean;
}

/** An upright card shows at least two landmarks: below that, the half turn is read too and the better kept. */
export const UPRIGHT_MARKS = 2;

/** The image turned by 180°. */
export function rotate180(img: RgbImage): RgbImage {
  const n = img.width * img.height, c = img.channels, out = new Uint8Array(img.data.length);
  for (let i = 0; i < n; i++) {
    const j = (n - 1 - i) * c;
    for (let k = 0; k < c; k++) out[j + k] = img.data[i * c + k]!;
  }
  return { ...img, data: out };
}
