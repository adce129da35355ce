// How a rendered card is photographed (bench and tests only): glare and a shadow across it, laid on a busy
// background (wood-like stripes, boxes, printed Latin words), turned a few degrees (not quite straight).
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';

export interface PhotoOptions {
  /** degrees the card is turned (clockwise), a small angle: 2–8 */
  tilt?: number;
  /** a margin of background around the card, as a fraction of its width */
  margin?: number;
  /** the background: flat brown-grey, or busy (stripes, boxes, words), or pale (white paper: no clear card edge) */
  busy?: boolean;
  pale?: boolean;
}

const FLAT = '#6b6259', PALE = '#f1efe9';

/** A bright glare spot over a random field band and a soft shadow over one side, drawn on the card itself. */
export function glareAndShadow(ctx: SKRSContext2D, W: number, H: number, r: () => number): void {
  const gx = W * (0.2 + r() * 0.5), gy = H * (0.3 + r() * 0.4), gr = W * (0.12 + r() * 0.08);
  const g = ctx.createRadialGradient(gx, gy, 0, gx, gy, gr);
  g.addColorStop(0, 'rgba(255,255,255,0.78)');
  g.addColorStop(0.5, 'rgba(255,255,255,0.45)');
  g.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  const fromLeft = r() < 0.5;
  const s = ctx.createLinearGradient(fromLeft ? 0 : W, 0, fromLeft ? W * 0.45 : W * 0.55, 0);
  s.addColorStop(0, 'rgba(20,15,10,0.42)');
  s.addColorStop(1, 'rgba(20,15,10,0)');
  ctx.fillStyle = s;
  ctx.fillRect(0, 0, W, H);
}

function busyBackground(ctx: SKRSContext2D, w: number, h: number, r: () => number): void {
  ctx.fillStyle = '#8a6a4a';
  ctx.fillRect(0, 0, w, h);
  for (let y = 0; y < h; y += 6 + r() * 10) {
    ctx.strokeStyle = `rgba(${60 + r() * 60},${40 + r() * 40},${20 + r() * 30},0.5)`;
    ctx.lineWidth = 1 + r() * 3;
    ctx.beginPath(); ctx.moveTo(0, y); ctx.bezierCurveTo(w / 3, y + r() * 20 - 10, (2 * w) / 3, y + r() * 20 - 10, w, y); ctx.stroke();
  }
  for (let i = 0; i < 14; i++) {
    ctx.fillStyle = `rgba(${r() * 255},${r() * 255},${r() * 255},0.55)`;
    ctx.fillRect(r() * w, r() * h, 40 + r() * 220, 20 + r() * 120);
  }
  const words = ['RECEIPT', 'TOTAL 12,500', 'COFFEE', 'No. 0421', 'SALE', 'KEYS'];
  for (let i = 0; i < 10; i++) {
    ctx.fillStyle = `rgba(${r() * 80},${r() * 80},${r() * 80},0.8)`;
    ctx.font = `${18 + Math.round(r() * 30)}px sans-serif`;
    ctx.fillText(words[i % words.length]!, r() * w, r() * h);
  }
}

/** The card (PNG of W×H) photographed: on its background with a margin, then turned by the tilt. */
export async function photograph(png: Buffer, W: number, H: number, o: PhotoOptions, r: () => number): Promise<{ png: Buffer; width: number; height: number }> {
  const m = Math.round((o.margin ?? (o.tilt || o.busy || o.pale ? 0.06 : 0)) * W);
  if (!m && !o.tilt) return { png, width: W, height: H };
  let w = W + 2 * m, h = H + 2 * m;
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  if (o.busy) busyBackground(ctx, w, h, r);
  else { ctx.fillStyle = o.pale ? PALE : FLAT; ctx.fillRect(0, 0, w, h); }
  ctx.drawImage(await loadImage(png), m, m);
  let out = canvas.toBuffer('image/png');
  if (o.tilt) {
    // the corners the turn opens: the background's colour (a photo shows more of the table there)
    const t = await sharp(out).rotate(o.tilt, { background: o.busy ? '#8a6a4a' : o.pale ? PALE : FLAT }).removeAlpha().png().toBuffer({ resolveWithObject: true });
    out = t.data; w = t.info.width; h = t.info.height;
  }
  return { png: out, width: w, height: h };
}
