// Synthetic test images with known truth: a shape on a green screen (true alpha), an ID card at a known
// perspective on a textured table (true corners), a receipt rotated by a known angle under uneven light,
// QR codes under distortions. Deterministic (seeded).
import sharp from 'sharp';
import { createCanvas } from '@napi-rs/canvas';
import { homography, warp, type Pt } from '../../src/tasks/lib/geometry.js';
import { ensureFonts, FONT_FAMILY } from '../../src/tasks/lib/fonts.js';
import { renderQrGrey } from '../../src/tasks/qr-generate.js';
import type { Raw } from '../../src/tasks/lib/image-io.js';

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gauss = (rnd: () => number): number => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

export const rawToPng = (r: Raw): Promise<Buffer> => sharp(Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), { raw: { width: r.width, height: r.height, channels: r.channels } }).png().toBuffer();
export const rawToJpeg = (r: Raw, q = 90): Promise<Buffer> => sharp(Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength), { raw: { width: r.width, height: r.height, channels: r.channels } }).jpeg({ quality: q }).toBuffer();

export async function decodeRgba(buf: Uint8Array): Promise<Raw> {
  const { data, info } = await sharp(Buffer.from(buf)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}

// ---------------------------------------------------------------- green screen

export interface GreenScreen {
  png: Buffer;
  width: number;
  height: number;
  /** true alpha of the foreground, 0..1 */
  alpha: Float32Array;
  key: [number, number, number];
}

/**
 * A foreground (an ellipse "head" over a rounded "body", warm and dark colours, with texture) composited with
 * a soft edge (feather px) over an unevenly lit, noisy green screen, with green spill on the edge.
 */
export async function greenScreen(opts: { width?: number; height?: number; feather?: number; seed?: number; key?: [number, number, number]; body?: [number, number, number] } = {}): Promise<GreenScreen> {
  const body = opts.body ?? [40, 50, 120];
  const w = opts.width ?? 640, h = opts.height ?? 480, f = opts.feather ?? 2.5;
  const key = opts.key ?? [30, 175, 70];
  const rnd = prng(opts.seed ?? 1);
  const alpha = new Float32Array(w * h);
  const data = new Uint8Array(w * h * 3);
  const cx = w / 2, cy = h * 0.38, rx = w * 0.14, ry = h * 0.2;
  const bx0 = w * 0.28, bx1 = w * 0.72, by0 = h * 0.55, br = w * 0.08;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // signed distance (approx.) to the ellipse and to the rounded rectangle reaching the bottom
      const ex = (x + 0.5 - cx) / rx, ey = (y + 0.5 - cy) / ry;
      const dE = (Math.sqrt(ex * ex + ey * ey) - 1) * Math.min(rx, ry);
      const qx = Math.max(bx0 + br - (x + 0.5), (x + 0.5) - (bx1 - br), 0);
      const qy = Math.max(by0 + br - (y + 0.5), 0);
      const dB = Math.hypot(qx, qy) - br;
      const d = Math.min(dE, dB);
      const a = Math.max(0, Math.min(1, 0.5 - d / f));
      alpha[y * w + x] = a;
      // foreground colour: skin-like head, dark blue body with stripes
      let fr: number, fg: number, fb: number;
      if (dE < dB) {
        fr = 215 + 20 * Math.sin(x / 9); fg = 160 + 15 * Math.sin(y / 7); fb = 130;
      } else {
        const stripe = Math.sin((x + y) / 6) > 0.6 ? 1 : 0;
        fr = body[0] + 160 * stripe; fg = body[1] + 20 * stripe; fb = body[2] - 60 * stripe;
      }
      // green screen with a lighting gradient and noise
      const light = 0.8 + 0.35 * (x / w) - 0.15 * (y / h);
      const n = gauss(rnd) * 4;
      const kr = key[0] * light + n, kg = key[1] * light + n, kb = key[2] * light + n;
      // spill: background light leaking onto the foreground near the edge
      const spill = a > 0 && a < 1 ? 0.25 * (1 - a) : 0;
      const o = (y * w + x) * 3;
      data[o] = clamp(a * fr + (1 - a) * kr);
      data[o + 1] = clamp(a * (fg + spill * 120) + (1 - a) * kg);
      data[o + 2] = clamp(a * fb + (1 - a) * kb);
    }
  }
  return { png: await rawToPng({ data, width: w, height: h, channels: 3 }), width: w, height: h, alpha, key };
}

// ---------------------------------------------------------------- ID card on a table

export const CARD_W = 856, CARD_H = 540;

/** A flat ID-1 card (856x540) with rounded corners, title, text lines and a photo box; RGBA. */
export function cardImage(): Raw {
  ensureFonts();
  const cv = createCanvas(CARD_W, CARD_H);
  const ctx = cv.getContext('2d');
  ctx.clearRect(0, 0, CARD_W, CARD_H);
  const r = 32;
  ctx.beginPath();
  ctx.moveTo(r, 0);
  ctx.arcTo(CARD_W, 0, CARD_W, CARD_H, r);
  ctx.arcTo(CARD_W, CARD_H, 0, CARD_H, r);
  ctx.arcTo(0, CARD_H, 0, 0, r);
  ctx.arcTo(0, 0, CARD_W, 0, r);
  ctx.closePath();
  const grad = ctx.createLinearGradient(0, 0, CARD_W, CARD_H);
  grad.addColorStop(0, '#eef3f8');
  grad.addColorStop(1, '#dfe9f2');
  ctx.fillStyle = grad;
  ctx.fill();
  ctx.fillStyle = '#1d2b4a';
  ctx.font = `bold 56px "${FONT_FAMILY}"`;
  ctx.fillText('주민등록증', 60, 100);
  ctx.font = `40px "${FONT_FAMILY}"`;
  ctx.fillText('홍길동 (洪吉東)', 60, 190);
  ctx.fillText('900101-1******', 60, 250);
  ctx.font = `28px "${FONT_FAMILY}"`;
  ctx.fillText('서울특별시 종로구 세종대로 1', 60, 330);
  ctx.fillText('2020. 1. 1.  종로구청장', 60, 460);
  ctx.fillStyle = '#9aa7b5';
  ctx.fillRect(590, 140, 200, 250);
  ctx.fillStyle = '#6b7785';
  ctx.beginPath();
  ctx.arc(690, 230, 55, 0, Math.PI * 2);
  ctx.fill();
  const img = ctx.getImageData(0, 0, CARD_W, CARD_H);
  return { data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), width: CARD_W, height: CARD_H, channels: 4 };
}

/** Wood-like table texture (RGB). */
export function tableTexture(w: number, h: number, seed = 7): Raw {
  const rnd = prng(seed);
  const data = new Uint8Array(w * h * 3);
  const phase = rnd() * 10;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const grain = Math.sin(y / 6 + 3 * Math.sin(x / 90 + phase)) * 0.5 + 0.5;
      const n = gauss(rnd) * 6;
      const o = (y * w + x) * 3;
      data[o] = clamp(120 + 35 * grain + n);
      data[o + 1] = clamp(80 + 22 * grain + n);
      data[o + 2] = clamp(50 + 12 * grain + n);
    }
  }
  return { data, width: w, height: h, channels: 3 };
}

/** A plain surface with uniform noise (RGB). */
export function plainTexture(w: number, h: number, rgb: [number, number, number], noise: number, seed = 7): Raw {
  const rnd = prng(seed);
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const n = (rnd() - 0.5) * 2 * noise;
    for (let c = 0; c < 3; c++) data[i * 3 + c] = clamp(rgb[c]! + n);
  }
  return { data, width: w, height: h, channels: 3 };
}

/** Composite RGBA `over` onto RGB `base` in place. */
function over(base: Raw, top: Raw): void {
  const n = base.width * base.height;
  for (let i = 0; i < n; i++) {
    const a = top.data[i * 4 + 3]! / 255;
    if (a === 0) continue;
    for (let c = 0; c < 3; c++) base.data[i * 3 + c] = clamp(a * top.data[i * 4 + c]! + (1 - a) * base.data[i * 3 + c]!);
  }
}

export interface CardScene {
  jpeg: Buffer;
  width: number;
  height: number;
  /** true corners TL, TR, BR, BL of the card (sharp-corner rectangle) in scene pixels */
  corners: [Pt, Pt, Pt, Pt];
}

export async function cardScene(opts: { width?: number; height?: number; corners?: [Pt, Pt, Pt, Pt]; seed?: number; blur?: number; plainTable?: { rgb: [number, number, number]; noise: number } } = {}): Promise<CardScene> {
  const w = opts.width ?? 1200, h = opts.height ?? 900;
  const corners = opts.corners ?? [[260, 210], [930, 170], [990, 640], [210, 690]];
  const table = opts.plainTable ? plainTexture(w, h, opts.plainTable.rgb, opts.plainTable.noise, opts.seed ?? 7) : tableTexture(w, h, opts.seed ?? 7);
  const card = cardImage();
  const Hinv = homography(corners, [[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]]);
  const warped = warp(card, Hinv, w, h, [0, 0, 0, 0]);
  over(table, warped);
  let s = sharp(Buffer.from(table.data), { raw: { width: w, height: h, channels: 3 } });
  if (opts.blur) s = s.blur(opts.blur);
  return { jpeg: await s.jpeg({ quality: 90 }).toBuffer(), width: w, height: h, corners };
}

// ---------------------------------------------------------------- receipt

export interface ReceiptScene {
  jpeg: Buffer;
  width: number;
  height: number;
  /** rotation applied to the paper, degrees (positive = clockwise) */
  angle: number;
}

/** A receipt (paper with text lines) rotated by `angle` on a dark table, with a lighting gradient. */
export async function receiptScene(opts: { angle?: number; seed?: number; shading?: number; table?: number } = {}): Promise<ReceiptScene> {
  ensureFonts();
  const pw = 480, ph = 900;
  const cv = createCanvas(pw, ph);
  const ctx = cv.getContext('2d');
  ctx.fillStyle = '#f7f5ef';
  ctx.fillRect(0, 0, pw, ph);
  ctx.fillStyle = '#202020';
  ctx.font = `bold 34px "${FONT_FAMILY}"`;
  ctx.fillText('세종 마트 영수증', 90, 70);
  ctx.font = `22px "${FONT_FAMILY}"`;
  const items = ['우유 1L', '식빵', '계란 10구', '사과 3kg', '커피 원두', '물 2L x6', '라면 5입', '두부', '김치 1kg', '바나나'];
  let y = 140;
  for (let i = 0; i < items.length; i++) {
    ctx.fillText(items[i]!, 40, y);
    ctx.fillText(`${((i * 3719) % 9000 + 1000).toLocaleString('en-US')}원`, 320, y);
    y += 44;
  }
  ctx.fillText('--------------------------------', 40, y);
  y += 50;
  ctx.font = `bold 28px "${FONT_FAMILY}"`;
  ctx.fillText('합계   54,320원', 40, y);
  y += 60;
  ctx.font = `20px "${FONT_FAMILY}"`;
  ctx.fillText('카드 승인 12345678  2026-11-22 09:15', 40, y);
  y += 40;
  ctx.fillText('감사합니다. 또 오세요!', 40, y);
  const paper = ctx.getImageData(0, 0, pw, ph);
  const paperPng = await sharp(Buffer.from(paper.data.buffer), { raw: { width: pw, height: ph, channels: 4 } }).png().toBuffer();
  const angle = opts.angle ?? 12;
  const rotated = await sharp(paperPng).rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
  const meta = await sharp(rotated).metadata();
  const W = Math.max(900, (meta.width ?? 0) + 160), H = Math.max(1100, (meta.height ?? 0) + 160);
  // dark table with a lighting gradient
  const rnd = prng(opts.seed ?? 3);
  const bg = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const v = (opts.table ?? 55) + gauss(rnd) * 5;
    bg[i * 3] = clamp(v);
    bg[i * 3 + 1] = clamp(v * 0.95);
    bg[i * 3 + 2] = clamp(v * 0.9);
  }
  const composed = await sharp(Buffer.from(bg), { raw: { width: W, height: H, channels: 3 } })
    .composite([{ input: rotated, left: Math.round((W - (meta.width ?? 0)) / 2), top: Math.round((H - (meta.height ?? 0)) / 2) }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // shading: multiply by a gradient from 1 (top-left) to 1 - shading (bottom-right)
  const sh = opts.shading ?? 0.45;
  const px = composed.data;
  for (let yy = 0; yy < H; yy++) {
    for (let xx = 0; xx < W; xx++) {
      const f = 1 - sh * (0.6 * (xx / W) + 0.4 * (yy / H));
      const o = (yy * W + xx) * 3;
      for (let c = 0; c < 3; c++) px[o + c] = clamp(px[o + c]! * f);
    }
  }
  const jpeg = await sharp(px, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
  return { jpeg, width: W, height: H, angle };
}

// ---------------------------------------------------------------- QR codes under distortion

export interface QrSample {
  name: string;
  bytes: Buffer;
  data: string;
}

/** A QR code (module size ~8 px) and distorted copies: rotated, blurred, noisy, low contrast, perspective-warped. */
export async function qrSamples(data = 'https://sejong.example/receipt/20261122?id=42&lang=ko'): Promise<QrSample[]> {
  const q = renderQrGrey({ data, width: 480, height: 480 });
  const base = sharp(Buffer.from(q.grey), { raw: { width: q.width, height: q.height, channels: 1 } });
  const png = await base.clone().png().toBuffer();
  const out: QrSample[] = [{ name: 'clean', bytes: png, data }];
  out.push({ name: 'rotated-30', bytes: await sharp(png).rotate(30, { background: '#ffffff' }).png().toBuffer(), data });
  out.push({ name: 'blurred', bytes: await sharp(png).blur(3.2).jpeg({ quality: 85 }).toBuffer(), data });
  // noise
  const rnd = prng(11);
  const noisy = Buffer.from(q.grey);
  for (let i = 0; i < noisy.length; i++) noisy[i] = clamp(noisy[i]! + gauss(rnd) * 70);
  out.push({ name: 'noisy', bytes: await sharp(noisy, { raw: { width: q.width, height: q.height, channels: 1 } }).png().toBuffer(), data });
  // low contrast: 110..150 with a gradient
  const low = Buffer.alloc(q.grey.length);
  for (let i = 0; i < low.length; i++) {
    const x = i % q.width;
    low[i] = clamp((q.grey[i]! ? 150 : 118) + (x / q.width) * 40 - 20);
  }
  out.push({ name: 'low-contrast', bytes: await sharp(low, { raw: { width: q.width, height: q.height, channels: 1 } }).jpeg({ quality: 90 }).toBuffer(), data });
  // perspective
  const rgb: Raw = { data: q.grey, width: q.width, height: q.height, channels: 1 };
  const Hinv = homography([[90, 60], [430, 120], [400, 440], [60, 400]], [[0, 0], [480, 0], [480, 480], [0, 480]]);
  const pw = warp(rgb, Hinv, 480, 480, [255]);
  out.push({ name: 'perspective', bytes: await sharp(Buffer.from(pw.data), { raw: { width: 480, height: 480, channels: 1 } }).png().toBuffer(), data });
  // combined: small, blurred, noisy, rotated
  const comb = await sharp(png).resize(240, 240).rotate(17, { background: '#ffffff' }).blur(1.2).raw().toBuffer({ resolveWithObject: true });
  const cd = Buffer.from(comb.data);
  const rnd2 = prng(5);
  for (let i = 0; i < cd.length; i++) cd[i] = clamp(cd[i]! * 0.6 + 60 + gauss(rnd2) * 25);
  out.push({ name: 'combined', bytes: await sharp(cd, { raw: { width: comb.info.width, height: comb.info.height, channels: comb.info.channels } }).jpeg({ quality: 70 }).toBuffer(), data });
  return out;
}

// ---------------------------------------------------------------- bad input

/** A PNG whose header claims width x height (a decompression bomb: tiny file, huge dimensions). */
export async function bombPng(width = 30000, height = 30000): Promise<Buffer> {
  // a real 1x1 PNG, with IHDR rewritten (CRC fixed) so that decoders see the huge size
  const small = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const b = Buffer.from(small);
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  const { crc32 } = await import('node:zlib');
  b.writeUInt32BE(crc32(b.subarray(12, 29)) >>> 0, 29);
  return b;
}

export async function truncatedJpeg(): Promise<Buffer> {
  const j = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3080c0' } }).jpeg().toBuffer();
  return j.subarray(0, Math.floor(j.length / 2));
}
