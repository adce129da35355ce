// Hard QR photos with known truth, seeded: perspective-distorted, blurred, low-contrast, damaged, small and
// combined codes (bench/qr-hard.ts, test/tasks/qr-hard.test.ts). Severity varies with the seed so that plain
// zxing decodes part of each kind, not all or nothing.
import sharp from 'sharp';
import { homography, warp, type Pt } from '../../src/tasks/lib/geometry.js';
import { qrMatrix, type EcLevel } from '../../src/tasks/qr-generate.js';
import { prng } from './images.js';

export const QR_KINDS = ['perspective', 'blur', 'low-contrast', 'damaged', 'small', 'combined'] as const;
export type QrKind = (typeof QR_KINDS)[number];

export interface HardQr {
  name: string;
  kind: QrKind;
  data: string;
  bytes: Buffer;
}

const gauss = (r: () => number): number => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

function payload(r: () => number): string {
  const words = ['sejong', 'receipt', 'ticket', 'pay', 'id', 'verify', '세종', '영수증', 'order', 'member'];
  let s = `https://${words[Math.floor(r() * 6)]}.example/${words[Math.floor(r() * words.length)]}?n=`;
  const extra = Math.floor(r() * 60);
  for (let i = 0; i < extra; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(r() * 36)];
  return s;
}

/** One hard QR photo of the given kind (deterministic for the seed). */
export async function hardQr(kind: QrKind, seed: number): Promise<HardQr> {
  const r = prng(seed * 131 + 7);
  const data = payload(r);
  const ec: EcLevel = kind === 'damaged' ? (r() < 0.5 ? 'Q' : 'H') : (['L', 'M', 'M', 'Q'] as const)[Math.floor(r() * 4)]!;
  const m = qrMatrix(data, ec);
  const persp = kind === 'perspective' || kind === 'combined';
  const ms = kind === 'small' ? 1.0 + r() * 0.7 : 3 + Math.floor(r() * 3); // module size (px) in the photo
  const side = (m.size + 8) * ms;
  const C = Math.round(side * (persp ? 1.5 : 1.25)); // photo size
  // the symbol at 8 px per module (quiet zone 4), damage drawn on it
  const u = 8, S = (m.size + 8) * u;
  const sym = new Uint8Array(S * S).fill(255);
  for (let y = 0; y < m.size; y++) for (let x = 0; x < m.size; x++) if (m.modules[y * m.size + x]) {
    for (let yy = 0; yy < u; yy++) sym.fill(0, (4 * u + y * u + yy) * S + 4 * u + x * u, (4 * u + y * u + yy) * S + 4 * u + x * u + u);
  }
  if (kind === 'damaged') {
    // blots (ink or white stickers), 3–10 % of the symbol area, away from the three finder patterns
    const target = (0.06 + r() * 0.1) * m.size * m.size * u * u;
    let done = 0;
    while (done < target) {
      const rad = (1.2 + r() * 2.5) * u, mx = r() * m.size, my = r() * m.size, val = r() < 0.5 ? 0 : 255;
      const nearFinder = (mx < 10 && my < 10) || (mx > m.size - 10 && my < 10) || (mx < 10 && my > m.size - 10);
      if (nearFinder) continue;
      const cx = (4 + mx) * u, cy = (4 + my) * u;
      for (let y = Math.max(0, Math.floor(cy - rad)); y < Math.min(S, cy + rad); y++) for (let x = Math.max(0, Math.floor(cx - rad)); x < Math.min(S, cx + rad); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 < rad * rad) { sym[y * S + x] = val; }
      }
      done += Math.PI * rad * rad;
    }
  }
  // place into the photo
  const c0 = (C - side) / 2;
  const j = () => (persp ? (r() * 2 - 1) * side * (0.22 + r() * 0.18) : (r() * 2 - 1) * side * 0.01);
  const dst: Pt[] = [[c0 + j(), c0 + j()], [c0 + side + j(), c0 + j()], [c0 + side + j(), c0 + side + j()], [c0 + j(), c0 + side + j()]];
  const rot = (r() * 2 - 1) * Math.PI * (kind === 'combined' ? 0.25 : 0.08);
  const cc = C / 2;
  const rd = dst.map(([x, y]) => [cc + (x - cc) * Math.cos(rot) - (y - cc) * Math.sin(rot), cc + (x - cc) * Math.sin(rot) + (y - cc) * Math.cos(rot)] as Pt);
  const out = warp({ data: sym, width: S, height: S, channels: 1 }, homography(rd, [[0, 0], [S, 0], [S, S], [0, S]]), C, C, [255]);
  const px = out.data;
  // light: contrast range and an illumination gradient
  const low = kind === 'low-contrast' || kind === 'combined';
  const dark = low ? 70 + r() * 80 : 20 + r() * 30, light = low ? dark + 14 + r() * 26 : 200 + r() * 50;
  const grad = low ? 30 + r() * 60 : r() * 30, ga = r() * Math.PI * 2;
  const noise = kind === 'combined' ? 6 + r() * 10 : low ? 3 + r() * 6 : r() * 4;
  for (let y = 0; y < C; y++) for (let x = 0; x < C; x++) {
    const i = y * C + x;
    const g = (((x - cc) * Math.cos(ga) + (y - cc) * Math.sin(ga)) / C) * grad;
    px[i] = clamp(dark + ((light - dark) * px[i]!) / 255 + g + gauss(r) * noise);
  }
  const blur = kind === 'blur' ? ms * (0.4 + r() * 0.3) : kind === 'combined' ? ms * (0.2 + r() * 0.25) : kind === 'small' ? 0.3 + r() * 0.4 : kind === 'perspective' ? 0.6 + r() * 0.9 : 0.4;
  let s = sharp(Buffer.from(px), { raw: { width: C, height: C, channels: 1 } });
  if (blur >= 0.3) s = s.blur(blur);
  const q = kind === 'small' || kind === 'combined' ? 50 + Math.floor(r() * 30) : 75 + Math.floor(r() * 20);
  return { name: `${kind}-${seed}`, kind, data, bytes: await s.jpeg({ quality: q }).toBuffer() };
}

/** n codes of each kind (seeds from base). */
export async function hardQrSet(perKind: number, base = 1): Promise<HardQr[]> {
  const out: HardQr[] = [];
  for (const k of QR_KINDS) for (let i = 0; i < perKind; i++) out.push(await hardQr(k, base + i));
  return out;
}

// Photo-like effects on top of the kinds above (issue 18 item 4, step 1): an inverted code, a hard shadow plus a
// glare spot, and a small code placed in a large cluttered scene. Kept separate so the floors on QR_KINDS hold.
export const QR_PHOTO_KINDS = ['inverted', 'shadow-glare', 'in-scene', 'scene-small'] as const;
export type QrPhotoKind = (typeof QR_PHOTO_KINDS)[number];

export async function photoQr(kind: QrPhotoKind, seed: number): Promise<{ name: string; kind: string; data: string; bytes: Buffer }> {
  const r = prng(seed * 977 + 3);
  if (kind === 'scene-small') return sceneSmallQr(seed);
  const base = await hardQr(r() < 0.5 ? 'perspective' : 'blur', seed);
  const { data: g, info } = await sharp(base.bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  const W = info.width, H = info.height;
  if (kind === 'inverted') {
    const out = await sharp(g, { raw: { width: W, height: H, channels: 1 } }).negate().jpeg({ quality: 80 }).toBuffer();
    return { name: `${kind}-${seed}`, kind, data: base.data, bytes: out };
  }
  if (kind === 'shadow-glare') {
    // a straight shadow edge across the code (half dims to 35–60 %) and a bright elliptic glare spot
    const a = r() * Math.PI, off = (r() - 0.5) * W * 0.4, dim = 0.35 + r() * 0.25;
    const gx = W * (0.3 + r() * 0.4), gy = H * (0.3 + r() * 0.4), gr = W * (0.05 + r() * 0.07), gain = 90 + r() * 80;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const i = y * W + x;
      let v = g[i]!;
      if ((x - W / 2) * Math.cos(a) + (y - H / 2) * Math.sin(a) > off) v *= dim;
      const d2 = ((x - gx) ** 2 + (y - gy) ** 2) / (gr * gr);
      v += gain * Math.exp(-d2);
      g[i] = clamp(v);
    }
    return { name: `${kind}-${seed}`, kind, data: base.data, bytes: await sharp(g, { raw: { width: W, height: H, channels: 1 } }).jpeg({ quality: 75 }).toBuffer() };
  }
  // in-scene: 1600×1200 clutter (random boxes and stripes), the code scaled to 0.5–1× at a random place
  const SW = 1600, SH = 1200, scene = new Uint8Array(SW * SH);
  for (let i = 0; i < scene.length; i++) scene[i] = 120;
  for (let k = 0; k < 60; k++) {
    const x0 = Math.floor(r() * SW), y0 = Math.floor(r() * SH), w = 20 + Math.floor(r() * 200), h = 20 + Math.floor(r() * 200), v = Math.floor(r() * 255);
    const stripe = r() < 0.3 ? 2 + Math.floor(r() * 8) : 0;
    for (let y = y0; y < Math.min(SH, y0 + h); y++) for (let x = x0; x < Math.min(SW, x0 + w); x++) {
      scene[y * SW + x] = stripe && Math.floor(x / stripe) % 2 ? 255 - v : v;
    }
  }
  const sc = 0.5 + r() * 0.5, cw = Math.max(40, Math.round(W * sc)), ch = Math.max(40, Math.round(H * sc));
  // sharp returns 3 channels from a resized 1-channel raw image unless told otherwise: keep one
  const code = await sharp(g, { raw: { width: W, height: H, channels: 1 } }).resize(cw, ch).toColourspace('b-w').raw().toBuffer();
  if (code.length !== cw * ch) throw new Error(`in-scene code: expected ${cw * ch} bytes, got ${code.length}`);
  const px = Math.floor(r() * (SW - cw)), py = Math.floor(r() * (SH - ch));
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) scene[(py + y) * SW + px + x] = code[y * cw + x]!;
  const bytes = await sharp(Buffer.from(scene), { raw: { width: SW, height: SH, channels: 1 } }).jpeg({ quality: 70 }).toBuffer();
  return { name: `${kind}-${seed}`, kind, data: base.data, bytes };
}

/** n photo-like codes of each photo kind (seeds from base). */
export async function photoQrSet(perKind: number, base = 1): Promise<{ name: string; kind: string; data: string; bytes: Buffer }[]> {
  const out = [];
  for (const k of QR_PHOTO_KINDS) for (let i = 0; i < perKind; i++) out.push(await photoQr(k, base + i));
  return out;
}

/**
 * A printed code small in a large textured scene (issue 18 item 4, step 2): 1600×1200 or 2000×1500, a lit
 * gradient, boxes, stripes and text-like rows, sensor noise; the code (module 1.1–3 px, turned up to ±45°, mild
 * perspective) at a random place; slight blur, JPEG 70–85. Hard because it is small and surrounded, not damaged.
 */
export async function sceneSmallQr(seed: number): Promise<{ name: string; kind: string; data: string; bytes: Buffer }> {
  const r = prng(seed * 7919 + 11);
  const data = payload(r);
  const m = qrMatrix(data, (['L', 'M', 'Q'] as const)[Math.floor(r() * 3)]!);
  const big = r() < 0.5;
  const SW = big ? 2000 : 1600, SH = big ? 1500 : 1200;
  const scene = new Uint8Array(SW * SH);
  const g0 = 90 + r() * 60, gx = (r() - 0.5) * 80, gy = (r() - 0.5) * 80;
  for (let y = 0; y < SH; y++) for (let x = 0; x < SW; x++) scene[y * SW + x] = clamp(g0 + (gx * x) / SW + (gy * y) / SH);
  for (let k = 0; k < 90; k++) {
    const x0 = Math.floor(r() * SW), y0 = Math.floor(r() * SH), w = 15 + Math.floor(r() * 260), h = 15 + Math.floor(r() * 260), v = Math.floor(r() * 255);
    const style = r(); // plain, stripes, or text-like rows of short dark dashes
    const stripe = 2 + Math.floor(r() * 8);
    for (let y = y0; y < Math.min(SH, y0 + h); y++) for (let x = x0; x < Math.min(SW, x0 + w); x++) {
      let p = v;
      if (style < 0.25) p = Math.floor(x / stripe) % 2 ? 255 - v : v;
      else if (style < 0.5) p = (y - y0) % 14 < 7 && ((x * 7) ^ (y - y0 - ((y - y0) % 14))) % 11 < 6 ? 30 : 225;
      scene[y * SW + x] = p;
    }
  }
  // the code: symbol at 8 px per module with a quiet zone of 4, warped onto the scene with a mask
  const ms = 1.1 + r() * 1.9, u = 8, S = (m.size + 8) * u, side = (m.size + 8) * ms;
  const sym = new Uint8Array(S * S).fill(255);
  for (let y = 0; y < m.size; y++) for (let x = 0; x < m.size; x++) if (m.modules[y * m.size + x]) {
    for (let yy = 0; yy < u; yy++) sym.fill(0, (4 * u + y * u + yy) * S + 4 * u + x * u, (4 * u + y * u + yy) * S + 4 * u + x * u + u);
  }
  const rot = (r() * 2 - 1) * Math.PI / 4, j = () => (r() * 2 - 1) * side * 0.08;
  const cx = side + r() * (SW - 2 * side), cy = side + r() * (SH - 2 * side);
  const corners: Pt[] = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([a, b]) => {
    const X = a! * side + j(), Y = b! * side + j();
    return [cx + X * Math.cos(rot) - Y * Math.sin(rot), cy + X * Math.sin(rot) + Y * Math.cos(rot)] as Pt;
  });
  const Hm = homography(corners, [[0, 0], [S, 0], [S, S], [0, S]]);
  const code = warp({ data: sym, width: S, height: S, channels: 1 }, Hm, SW, SH, [255]).data;
  const mask = warp({ data: new Uint8Array(S * S).fill(255), width: S, height: S, channels: 1 }, Hm, SW, SH, [0]).data;
  const dark = 25 + r() * 40, light = 185 + r() * 55, noise = 2 + r() * 5;
  for (let i = 0; i < scene.length; i++) {
    const a = mask[i]! / 255, c = dark + ((light - dark) * code[i]!) / 255;
    scene[i] = clamp(a * c + (1 - a) * scene[i]! + gauss(r) * noise);
  }
  const bytes = await sharp(Buffer.from(scene), { raw: { width: SW, height: SH, channels: 1 } }).blur(0.4 + r() * 0.5).jpeg({ quality: 70 + Math.floor(r() * 16) }).toBuffer();
  return { name: `scene-small-${seed}`, kind: 'scene-small', data, bytes };
}
