// Pool task: which Korean ID card is this (jumin / driver / alien)? Reads the title band of a perspective-corrected
// card with the OCR runtime of src/vision and matches the printed titles (LAYOUTS[doc].title) and their keywords.
import { loadCard } from './ekyc-ocr.js';
import { recognizeText, type RgbImage } from '../vision/index.js';
import { CARD_READ_SWITCHES } from '../vision/card-fields.js';
import { rotate180 } from '../vision/card-orient.js';
import { LAYOUTS, type DocType } from '../vision/idcard.js';

export interface DocTypeInput {
  image: Uint8Array;
  maxPixels?: number;
  field?: string;
}

export interface DocTypeOutput {
  docType: DocType | null;
  /** 0..1: share of the best title's characters found in the title band */
  confidence: number;
  title: string;
}

const KEYWORDS: Record<DocType, string[]> = { jumin: ['주민등록'], driver: ['운전', '면허'], alien: ['외국인', 'RESIDENCE'] };

/** Share of the characters of want found in order in got (longest common subsequence / |want|). */
function lcsShare(want: string, got: string): number {
  const a = [...want], b = [...got];
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return a.length ? prev[b.length] / a.length : 0;
}

export default async function enhanceDocType(input: DocTypeInput): Promise<DocTypeOutput> {
  const { img } = await loadCard(input.image, input.field ?? 'image', input.maxPixels);
  // the titles sit in the top fifth of every layout
  const bandH = Math.max(1, Math.round(img.height * 0.2));
  const band = { data: img.data.subarray(0, bandH * img.width * 3), width: img.width, height: bandH, channels: 3 as const };
  const top = await titleOf(band);
  // nothing known there: the card may be upside down (loadCard turns quarter turns only), its title at the bottom
  if (top.docType || !CARD_READ_SWITCHES.orient) return top;
  const bottom = { data: img.data.subarray((img.height - bandH) * img.width * 3), width: img.width, height: bandH, channels: 3 as const };
  const turned = await titleOf(rotate180(bottom));
  return turned.docType ? turned : top;
}

async function titleOf(band: RgbImage): Promise<DocTypeOutput> {
  const { text } = await recognizeText(band, { limitSide: 1280 });
  const flat = text.replace(/\s+/g, '');
  let best: DocType | null = null, bestScore = 0;
  for (const d of Object.keys(LAYOUTS) as DocType[]) {
    let score = lcsShare(LAYOUTS[d].title, flat);
    if (KEYWORDS[d].some((k) => flat.toUpperCase().includes(k))) score = Math.max(score, 0.8);
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return { docType: bestScore >= 0.5 ? best : null, confidence: Math.round(bestScore * 1000) / 1000, title: text.slice(0, 60) };
}
