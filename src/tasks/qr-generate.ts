// QR code generation: module matrix (qrcode), drawn crisply at an integer module size, optional centre text
// (Hangul via Noto Sans KR) on a white plate, error correction H when text covers modules, 1-bit PNG out.
// Named exports let other tasks reuse it: qrMatrix() for the modules, drawQr() to paint on a canvas.
import QRCode from 'qrcode';
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { badInput } from './lib/task-error.js';
import { encodePng1 } from './lib/png1.js';
import { ensureFonts, FONT_FAMILY } from './lib/fonts.js';

export type EcLevel = 'L' | 'M' | 'Q' | 'H';

export interface QrMatrix {
  /** modules per side (without quiet zone) */
  size: number;
  /** size*size, 1 = dark */
  modules: Uint8Array;
  version: number;
  ecLevel: EcLevel;
}

export interface QrGenerateInput {
  data: string;
  width?: number;
  height?: number;
  centerText?: string;
  /** default M, or H when centerText is set */
  ecLevel?: EcLevel;
  /** quiet zone in modules (default 4) */
  margin?: number;
}

export interface QrGenerateOutput {
  png: Uint8Array;
  width: number;
  height: number;
  version: number;
  ecLevel: EcLevel;
  modules: number;
  moduleSize: number;
  centerText?: { text: string; fontSize: number; box: [number, number, number, number] };
}

export function qrMatrix(data: string, ecLevel: EcLevel = 'M', field = 'data'): QrMatrix {
  if (typeof data !== 'string' || data.length === 0) throw badInput(field, `Expected a non-empty string for ${field}`);
  let q: ReturnType<typeof QRCode.create>;
  try {
    q = QRCode.create(data, { errorCorrectionLevel: ecLevel });
  } catch (e) {
    throw badInput(field, `${field} cannot be encoded as a QR code at error-correction level ${ecLevel}: ${(e as Error).message}`);
  }
  const size = q.modules.size;
  const modules = new Uint8Array(size * size);
  for (let i = 0; i < modules.length; i++) modules[i] = q.modules.data[i] ? 1 : 0;
  return { size, modules, version: q.version, ecLevel };
}

export interface QrLayout {
  moduleSize: number;
  /** top-left of the first module (quiet zone excluded) */
  x: number;
  y: number;
  /** side of the symbol in pixels (modules only) */
  side: number;
}

/** Largest integer module size so that symbol + quiet zone fit in w x h, centred. */
export function layoutQr(m: QrMatrix, w: number, h: number, margin = 4, field = 'size'): QrLayout {
  const total = m.size + 2 * margin;
  const moduleSize = Math.floor(Math.min(w, h) / total);
  if (moduleSize < 1) throw badInput(field, `Expected a ${field} of at least ${total}x${total} pixels for this QR code (version ${m.version}, ${m.size} modules plus a ${margin}-module quiet zone)`);
  const side = moduleSize * m.size;
  return { moduleSize, x: Math.floor((w - side) / 2), y: Math.floor((h - side) / 2), side };
}

/** Plate for the centre text: at most 40% of the symbol side wide and 18% high (≈7% of the modules). */
export function centerBox(l: QrLayout, m: QrMatrix): [number, number, number, number] {
  const bw = Math.floor(m.size * 0.4) * l.moduleSize;
  const bh = Math.max(1, Math.floor(m.size * 0.18)) * l.moduleSize;
  return [l.x + Math.floor((l.side - bw) / 2 / l.moduleSize) * l.moduleSize, l.y + Math.floor((l.side - bh) / 2 / l.moduleSize) * l.moduleSize, bw, bh];
}

function fitText(ctx: SKRSContext2D, text: string, bw: number, bh: number): { text: string; fontSize: number } {
  let size = Math.floor(bh * 0.72);
  const min = 6;
  for (; size >= min; size--) {
    ctx.font = `bold ${size}px "${FONT_FAMILY}"`;
    if (ctx.measureText(text).width <= bw * 0.92) return { text, fontSize: size };
  }
  // still too wide at the smallest size: shorten with an ellipsis
  ctx.font = `bold ${min}px "${FONT_FAMILY}"`;
  let t = text;
  while (t.length > 1 && ctx.measureText(t + '…').width > bw * 0.92) t = t.slice(0, -1);
  return { text: t + '…', fontSize: min };
}

/**
 * Draw a QR code on a canvas context at (x, y) in a side x side square (quiet zone included).
 * Returns the layout used. Colours default to black on white.
 */
export function drawQr(ctx: SKRSContext2D, data: string | QrMatrix, x: number, y: number, side: number, opts: { centerText?: string; ecLevel?: EcLevel; margin?: number; fg?: string; bg?: string } = {}): QrLayout {
  const m = typeof data === 'string' ? qrMatrix(data, opts.ecLevel ?? (opts.centerText ? 'H' : 'M')) : data;
  const l = layoutQr(m, side, side, opts.margin ?? 4);
  ctx.save();
  ctx.fillStyle = opts.bg ?? '#ffffff';
  ctx.fillRect(x, y, side, side);
  ctx.fillStyle = opts.fg ?? '#000000';
  for (let r = 0; r < m.size; r++) for (let c = 0; c < m.size; c++) if (m.modules[r * m.size + c]) ctx.fillRect(x + l.x + c * l.moduleSize, y + l.y + r * l.moduleSize, l.moduleSize, l.moduleSize);
  if (opts.centerText) {
    ensureFonts();
    const [bx, by, bw, bh] = centerBox(l, m);
    ctx.fillStyle = opts.bg ?? '#ffffff';
    ctx.fillRect(x + bx, y + by, bw, bh);
    const t = fitText(ctx, opts.centerText, bw, bh);
    ctx.font = `bold ${t.fontSize}px "${FONT_FAMILY}"`;
    ctx.fillStyle = opts.fg ?? '#000000';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(t.text, x + bx + bw / 2, y + by + bh / 2);
  }
  ctx.restore();
  return { ...l, x: x + l.x, y: y + l.y };
}

/** Render to an 8-bit grey buffer (0 black, 255 white). */
export function renderQrGrey(input: QrGenerateInput): { grey: Uint8Array; width: number; height: number; matrix: QrMatrix; layout: QrLayout; centerText?: QrGenerateOutput['centerText'] } {
  const width = input.width ?? 512;
  const height = input.height ?? 512;
  const ec = input.ecLevel ?? (input.centerText ? 'H' : 'M');
  const m = qrMatrix(input.data, ec);
  const l = layoutQr(m, width, height, input.margin ?? 4);
  const grey = new Uint8Array(width * height).fill(255);
  for (let r = 0; r < m.size; r++) {
    for (let c = 0; c < m.size; c++) {
      if (!m.modules[r * m.size + c]) continue;
      const x0 = l.x + c * l.moduleSize, y0 = l.y + r * l.moduleSize;
      for (let y = y0; y < y0 + l.moduleSize; y++) grey.fill(0, y * width + x0, y * width + x0 + l.moduleSize);
    }
  }
  let ct: QrGenerateOutput['centerText'];
  if (input.centerText) {
    ensureFonts();
    const [bx, by, bw, bh] = centerBox(l, m);
    const cv = createCanvas(bw, bh);
    const ctx = cv.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, bw, bh);
    const t = fitText(ctx, input.centerText, bw, bh);
    ctx.font = `bold ${t.fontSize}px "${FONT_FAMILY}"`;
    ctx.fillStyle = '#000000';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(t.text, bw / 2, bh / 2);
    const px = ctx.getImageData(0, 0, bw, bh).data;
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) grey[(by + y) * width + bx + x] = px[(y * bw + x) * 4]!;
    ct = { text: t.text, fontSize: t.fontSize, box: [bx, by, bw, bh] };
  }
  return { grey, width, height, matrix: m, layout: l, centerText: ct };
}

export default function qrGenerate(input: QrGenerateInput): QrGenerateOutput {
  const r = renderQrGrey(input);
  const png = encodePng1(r.width, r.height, r.grey, { threshold: 128 });
  return { png, width: r.width, height: r.height, version: r.matrix.version, ecLevel: r.matrix.ecLevel, modules: r.matrix.size, moduleSize: r.layout.moduleSize, centerText: r.centerText };
}
