// A QR code as a phone camera sees it (session 11): every degradation of test/helpers/qr-hard.ts's kinds at
// once and at moderate strength, plus what those kinds leave out — the code anywhere in a larger frame, turned
// to any angle, printed on bent paper (a cylindrical bow), lit unevenly (a vignette and a gradient that multiply,
// as light does, rather than add), defocus or a short motion smear, sensor noise and JPEG. The kinds in
// qr-hard.ts apply one degradation each at full strength (and "combined" a perspective that folds the code to a
// third of its size on one side, rarely seen in a photo someone takes to be read); this kind is the ordinary
// bad photo. Seeded; the truth is the payload.
import sharp from 'sharp';
import { homography, applyH, type Pt } from '../../src/tasks/lib/geometry.js';
import { qrMatrix } from '../../src/tasks/qr-generate.js';
import { prng } from './images.js';

const gauss = (r: () => number): number => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

function payload(r: () => number): string {
  let s = `https://pay.example/r/${Math.floor(r() * 1e6)}?k=`;
  const extra = 10 + Math.floor(r() * 50);
  for (let i = 0; i < extra; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(r() * 36)];
  return s;
}

/** One camera-like QR photo (deterministic for the seed): 640×480 or 800×600, grey JPEG. */
export async function cameraQr(seed: number): Promise<{ name: string; kind: string; data: string; bytes: Buffer }> {
  const r = prng(seed * 6151 + 29);
  const data = payload(r);
  const m = qrMatrix(data, (['L', 'M', 'M', 'Q'] as const)[Math.floor(r() * 4)]!);
  const big = r() < 0.5, W = big ? 800 : 640, H = big ? 600 : 480;
  const ms = 2.2 + r() * 2.3, side = (m.size + 8) * ms; // module px, symbol side with its quiet zone
  // the symbol square: centre anywhere it fits, any rotation, each corner moved up to 12 % of the side
  const cx = side * 0.6 + r() * Math.max(1, W - 1.2 * side), cy = side * 0.6 + r() * Math.max(1, H - 1.2 * side);
  const rot = r() * 2 * Math.PI, j = (): number => (r() * 2 - 1) * side * 0.12;
  const quad: Pt[] = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([a, b]) => {
    const X = a! * side + j(), Y = b! * side + j();
    return [cx + X * Math.cos(rot) - Y * Math.sin(rot), cy + X * Math.sin(rot) + Y * Math.cos(rot)] as Pt;
  });
  const toSym = homography(quad, [[0, 0], [1, 0], [1, 1], [0, 1]]); // photo px → unit symbol square
  const bow = (r() * 2 - 1) * 0.06; // bent paper: the symbol's rows bow by up to 6 % of its side
  const N = m.size + 8, dark = 20 + r() * 50, light = 170 + r() * 70, paper = light * (0.8 + r() * 0.2);
  const bg = 60 + r() * 120, ga = r() * 2 * Math.PI, gs = 0.25 + r() * 0.45, vig = 0.2 + r() * 0.35;
  const noise = 2 + r() * 5, px = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const [u, v0] = applyH(toSym, x + 0.5, y + 0.5);
    const v = v0 + bow * Math.sin(Math.PI * u);
    let val: number;
    if (u >= 0 && u < 1 && v >= 0 && v < 1) {
      const mx = Math.floor(u * N) - 4, my = Math.floor(v * N) - 4;
      const on = mx >= 0 && my >= 0 && mx < m.size && my < m.size && m.modules[my * m.size + mx];
      val = on ? dark : light;
    } else val = u > -0.15 && u < 1.15 && v > -0.15 && v < 1.15 ? paper : bg + 25 * Math.sin(x / 37) * Math.cos(y / 53);
    // light multiplies: a gradient across the frame and a vignette
    const dx = (x - W / 2) / W, dy = (y - H / 2) / H;
    const lamp = (1 - gs / 2 + gs * (0.5 + dx * Math.cos(ga) + dy * Math.sin(ga))) * (1 - vig * (dx * dx + dy * dy) * 2);
    px[y * W + x] = clamp(val * lamp + gauss(r) * noise);
  }
  let s = sharp(Buffer.from(px), { raw: { width: W, height: H, channels: 1 } });
  if (r() < 0.35) {
    // a short motion smear (3–5 px along a random direction) instead of defocus
    const len = 3 + Math.floor(r() * 3), a = r() * Math.PI, k = 5, kernel = new Array(k * k).fill(0);
    for (let t = 0; t < len; t++) {
      const o = t - (len - 1) / 2;
      kernel[Math.round(2 + o * Math.sin(a)) * k + Math.round(2 + o * Math.cos(a))] += 1;
    }
    s = s.convolve({ width: k, height: k, kernel, scale: len });
  } else s = s.blur(0.5 + r() * Math.min(1.2, ms * 0.35));
  return { name: `camera-${seed}`, kind: 'camera', data, bytes: await s.jpeg({ quality: 60 + Math.floor(r() * 25) }).toBuffer() };
}

/** n camera-like codes (seeds from base). */
export async function cameraQrSet(n: number, base = 1): Promise<{ name: string; kind: string; data: string; bytes: Buffer }[]> {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await cameraQr(base + i));
  return out;
}
