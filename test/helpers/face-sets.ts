// Face pair sets for calibration and tests: selfie-like variants of a photo (scale, light, blur, JPEG), the same
// photo printed on a synthetic ID card (small, hologram overlay, JPEG) and cut out again by the real pipeline,
// and FMR/FNMR over all pairs of per-image embeddings. Test and bench data only.
import sharp from 'sharp';
import { renderCard } from './id-cards.js';
import { prng } from './images.js';

/** A selfie-like variant: upscaled/downscaled, brighter or darker, a little blur, JPEG 60–90. Deterministic per seed. */
export async function selfieVariant(photo: Buffer, seed: number): Promise<Buffer> {
  const r = prng(seed);
  const meta = await sharp(photo).metadata();
  const w = meta.width ?? 256;
  const target = Math.round(Math.max(160, Math.min(640, w * (1.5 + r() * 2))));
  let s = sharp(photo).removeAlpha().resize(target, null, { kernel: 'lanczos3' }).modulate({ brightness: 0.7 + r() * 0.6 });
  s = s.gamma(1 + r() * 1.2);
  const blur = r() * 1.4;
  if (blur > 0.35) s = s.blur(blur);
  return s.jpeg({ quality: 60 + Math.floor(r() * 30) }).toBuffer();
}

/** Semi-transparent hologram: rainbow rings and a guilloche band over the card, as an SVG overlay. */
function hologramSvg(W: number, H: number, r: () => number): Buffer {
  const cx = W * (0.55 + r() * 0.35), cy = H * (0.3 + r() * 0.4);
  const hues = [0, 50, 120, 190, 260, 310];
  let rings = '';
  for (let i = 0; i < 14; i++) {
    const rad = 40 + i * 22;
    rings += `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${rad}" fill="none" stroke="hsl(${hues[i % 6]},90%,60%)" stroke-width="6" stroke-opacity="${(0.12 + r() * 0.12).toFixed(2)}"/>`;
  }
  let wave = '';
  for (let k = 0; k < 6; k++) {
    let d = `M0 ${H * 0.5}`;
    for (let x = 0; x <= W; x += 20) d += ` L${x} ${(H * (0.35 + k * 0.05) + Math.sin(x / 37 + k) * 18).toFixed(1)}`;
    wave += `<path d="${d}" fill="none" stroke="hsl(${hues[k]},80%,55%)" stroke-width="2" stroke-opacity="0.25"/>`;
  }
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${rings}${wave}</svg>`);
}

/** The photo printed on a synthetic ID card (jumin/driver/alien by seed), hologram overlay, shrunk to `width` px, JPEG. */
export async function cardWithPhoto(photo: Buffer, seed: number, width = 640): Promise<Buffer> {
  const r = prng(seed * 7 + 3);
  const docType = (['jumin', 'driver', 'alien'] as const)[seed % 3]!;
  const card = await renderCard(docType, { seed, photo });
  const holo = await sharp(card.image).composite([{ input: hologramSvg(card.width, card.height, r), blend: 'over' }]).png().toBuffer();
  return sharp(holo).resize(width, null, { kernel: 'lanczos3' }).blur(0.3 + r() * 0.6).jpeg({ quality: 65 + Math.floor(r() * 20) }).toBuffer();
}

export interface Embedded { id: string; src: string; kind: 'photo' | 'selfie' | 'card'; e: Float32Array }

export interface PairScores { genuine: number[]; impostor: number[]; cardGenuine: number[]; cardImpostor: number[] }

/** All pairs of embeddings: genuine = same identity and a different source photo; impostor = different identity. */
export function scorePairs(items: Embedded[], cos: (a: Float32Array, b: Float32Array) => number): PairScores {
  const out: PairScores = { genuine: [], impostor: [], cardGenuine: [], cardImpostor: [] };
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i]!, b = items[j]!;
      if (a.src === b.src) continue; // the same photo twice is not a pair
      if (a.kind === 'card' && b.kind === 'card') continue; // card ↔ card is not a use case
      const c = cos(a.e, b.e);
      const card = a.kind === 'card' || b.kind === 'card';
      if (a.id === b.id) (card ? out.cardGenuine : out.genuine).push(c);
      else (card ? out.cardImpostor : out.impostor).push(c);
    }
  }
  return out;
}

/** FMR (impostors ≥ t) and FNMR (genuine < t) at one threshold on the same scale as the scores. */
export function rates(genuine: number[], impostor: number[], t: number): { fmr: number; fnmr: number; fm: number; fnm: number } {
  const fm = impostor.filter((x) => x >= t).length, fnm = genuine.filter((x) => x < t).length;
  return { fmr: fm / Math.max(1, impostor.length), fnmr: fnm / Math.max(1, genuine.length), fm, fnm };
}

/** Smallest score s such that the share of impostors ≥ s is at most `fmr`. */
export function thresholdForFmr(impostor: number[], fmr: number): number {
  const s = [...impostor].sort((a, b) => b - a);
  const k = Math.floor(fmr * s.length); // at most k impostors may be at or above
  return k >= s.length ? -1 : s[k]! + 1e-6;
}
