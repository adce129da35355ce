// Distorted QR photos of the kinds qr-hard.ts and qr-camera.ts leave out (session 18), seeded, the truth being
// the payload: a logo over the middle of a high-ECC code; a code printed on a can or bottle (a cylinder seen
// from the side: modules squeezed toward the edges, shaded); a mirrored code (seen through glass, a selfie camera);
// a code on a screen (the display's pixel grid beating with the camera's: moiré, plus glow); JPEG at low quality.
// Each is photographed turned, at mild perspective, with noise and blur, 2.2–4.5 px per module (low JPEG: 1.5–3.8 px, quality 5–16).
import sharp from 'sharp';
import { homography, applyH, type Pt } from '../../src/tasks/lib/geometry.js';
import { qrMatrix, type EcLevel } from '../../src/tasks/qr-generate.js';
import { prng } from './images.js';

export const QR_MORE_KINDS = ['logo', 'cylinder', 'mirrored', 'screen', 'low-jpeg'] as const;
export type QrMoreKind = (typeof QR_MORE_KINDS)[number];

const gauss = (r: () => number): number => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

function payload(r: () => number): string {
  let s = `https://shop.example/item/${Math.floor(r() * 1e5)}?c=`;
  const extra = 5 + Math.floor(r() * 50);
  for (let i = 0; i < extra; i++) s += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(r() * 36)];
  return s;
}

/** Symbol value (0 dark … 1 light) at module coordinates (u, v), quiet zone light; the logo box drawn over it. */
function symbolAt(m: { size: number; modules: Uint8Array }, logo: { a: number; b: number; v: number } | undefined) {
  return (u: number, v: number): number => {
    if (logo && u >= logo.a && u < logo.b && v >= logo.a && v < logo.b) {
      // a flat badge with a dark ring and a bar across it (a brand mark)
      const e = Math.min(u - logo.a, logo.b - u, v - logo.a, logo.b - v);
      return e < 0.6 ? 0.1 : Math.abs(v - (logo.a + logo.b) / 2) < (logo.b - logo.a) * 0.12 ? 0.2 : logo.v;
    }
    const i = Math.floor(v), j = Math.floor(u);
    return i < 0 || j < 0 || i >= m.size || j >= m.size ? 1 : m.modules[i * m.size + j] ? 0 : 1;
  };
}

/** One photo of the kind (deterministic for the seed): grey JPEG about 1.4× the code's side. */
export async function moreQr(kind: QrMoreKind, seed: number): Promise<{ name: string; kind: string; data: string; bytes: Buffer }> {
  const r = prng(seed * 4241 + 17 + QR_MORE_KINDS.indexOf(kind) * 101);
  const data = payload(r);
  const ec: EcLevel = kind === 'logo' ? 'H' : (['L', 'M', 'M', 'Q'] as const)[Math.floor(r() * 4)]!;
  const m = qrMatrix(data, ec), n = m.size;
  // logo: 14–28 % of the symbol's area, centred (what designers put on H codes)
  const ls = Math.sqrt(0.14 + r() * 0.14) * n;
  const at = symbolAt(m, kind === 'logo' ? { a: (n - ls) / 2, b: (n + ls) / 2, v: 0.45 + r() * 0.5 } : undefined);
  const ms = (kind === 'low-jpeg' ? 1.5 : 2.2) + r() * 2.3, side = (n + 8) * ms, W = Math.round(side * 1.45), H = W;
  // the code's square (module coordinates −4 … n + 4) onto the photo: turned, corners moved up to 8 %
  const rot = (r() * 2 - 1) * Math.PI, c = W / 2, jit = (): number => (r() * 2 - 1) * side * 0.08;
  const quad: Pt[] = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([a, b]) => {
    const X = a! * side + jit(), Y = b! * side + jit();
    return [c + X * Math.cos(rot) - Y * Math.sin(rot), c + X * Math.sin(rot) + Y * Math.cos(rot)] as Pt;
  });
  const Hinv = homography(quad, [[-4, -4], [n + 4, -4], [n + 4, n + 4], [-4, n + 4]]);
  // cylinder: the flat square's x (−½…½ of the side) is an arc on a cylinder of half-width `half` sides
  const half = 0.36 + r() * 0.3, mirror = kind === 'mirrored';
  const dark = 20 + r() * 40, light = 190 + r() * 55, noise = 2 + r() * 5;
  const period = 1.6 + r() * 1.6, ma = r() * Math.PI, depth = 0.3 + r() * 0.35; // screen moiré
  const px = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    let [u, v] = applyH(Hinv, x + 0.5, y + 0.5);
    let shade = 1;
    if (kind === 'cylinder') {
      const s = (u + 4) / (n + 8) - 0.5; // −½ … ½ as seen (a projection of the arc)
      if (Math.abs(s) >= half) { px[y * W + x] = clamp(light * 0.5 + gauss(r) * noise); continue; }
      const th = Math.asin(s / half);
      u = (th * half) * (n + 8) + (n + 8) / 2 - 4;
      shade = 0.55 + 0.45 * Math.cos(th);
    }
    if (mirror) u = n - u;
    let val = dark + (light - dark) * at(u, v);
    if (kind === 'screen') {
      const t = ((x * Math.cos(ma) + y * Math.sin(ma)) / period) * 2 * Math.PI;
      val = val * (1 - depth * (0.5 + 0.5 * Math.cos(t))) + 25;
    }
    px[y * W + x] = clamp(val * shade + gauss(r) * noise);
  }
  const q = kind === 'low-jpeg' ? 5 + Math.floor(r() * 12) : 55 + Math.floor(r() * 30);
  const bytes = await sharp(Buffer.from(px), { raw: { width: W, height: H, channels: 1 } }).blur(0.4 + r() * (kind === 'screen' ? 1.2 : 0.8)).jpeg({ quality: q }).toBuffer();
  return { name: `${kind}-${seed}`, kind, data, bytes };
}

/** n photos of each kind (seeds from base). */
export async function moreQrSet(perKind: number, base = 1): Promise<{ name: string; kind: string; data: string; bytes: Buffer }[]> {
  const out = [];
  for (const k of QR_MORE_KINDS) for (let i = 0; i < perKind; i++) out.push(await moreQr(k, base + i));
  return out;
}
