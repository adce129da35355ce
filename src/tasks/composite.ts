// Print-sheet composition (runs in the worker pool): AI picture, Korean header, QR (the project's own generator,
// src/tasks/qr-generate.ts), signature, perforation line and the A3 advertisement, drawn with @napi-rs/canvas,
// encoded by sharp with 300-dpi density and an sRGB ICC profile.
// The work is a list of steps read top to bottom (imgproxy style), sharing one context.
// Mode 'probe' checks an ad creative at upload (format, size) and shrinks very large ones.
import sharp, { type Sharp } from 'sharp';
import { createCanvas, type SKRSContext2D, type Canvas } from '@napi-rs/canvas';
import { badInput } from './lib/task-error.js';
import { checkImage, checkAspect, openSharp, decodeFailure, sniffFormat, type Checked } from './lib/image-io.js';
import { computeLayout, defaults, band, column, type Layout, type LayoutElement, type Position } from './lib/composite-layout.js';
import { ensurePrintFont } from './lib/composite-fonts.js';
import { qrMatrix, layoutQr, drawQr, type QrMatrix } from './qr-generate.js';
import { runSteps } from './lib/steps.js';

export interface PrintSettings {
  event_name?: string;
  event_date?: string;
  ticket_no?: string;
  dream_title?: string;
  qr?: { payload?: string; position?: Position; size?: number; show?: boolean };
  signature?: { position?: Position; width?: number };
  perforation?: boolean;
  ad?: { a3_width_ratio?: number; a3_top_padding?: number; a3_bottom_padding?: number; align?: 'left' | 'center' | 'right'; show?: boolean };
  header?: { show_name?: boolean; show_date?: boolean; show_ticket?: boolean; show_title?: boolean; position?: Position; font_size?: number; color?: string };
  image_scale?: number;
  top_margin?: number;
}

export interface CompositeInput {
  mode?: 'compose';
  ai: Uint8Array;
  signature?: Uint8Array;
  ad?: Uint8Array;
  settings?: PrintSettings;
  output?: { format?: 'jpeg' | 'png'; quality?: number; target_width?: number };
  /** QR content when settings.qr.payload is absent (the API passes the sheet's own image URL) */
  qr_default_payload?: string;
  maxPixels?: number;
  /** tests only: draw the header with another font family (to compare with a font lacking Hangul) */
  font_family?: string;
}

export interface ProbeInput {
  mode: 'probe';
  bytes: Uint8Array;
  field?: string;
  maxPixels?: number;
  /** shrink creatives wider than this (default 2400) */
  maxWidth?: number;
}

export interface CompositeOutput {
  image: Uint8Array;
  width: number;
  height: number;
  format: 'jpeg' | 'png';
  layout: Layout;
  applied: { ai_image: boolean; signature: boolean; qr_code: boolean; a3_ad: boolean; perforation: boolean; header: boolean };
  header_lines: string[];
  qr?: { payload: string; version: number; modules: number; module_size: number };
  /** milliseconds per pipeline step */
  timings_ms?: Record<string, number>;
}

export interface ProbeOutput {
  bytes: Uint8Array;
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
}

type Line = { text: string; size: number; bold: boolean };

interface Ctx {
  in: CompositeInput;
  s: PrintSettings;
  width: number;
  font: string;
  ai?: Checked;
  adChecked?: Checked;
  sig?: { raw: Buffer; w: number; h: number };
  sigSize?: { w: number; h: number };
  qr?: { matrix: QrMatrix; payload: string; side: number; position: Position };
  header?: { lines: Line[]; position: Position; w: number; h: number; scale: number; plate: number; color: string };
  layout?: Layout;
  canvas?: Canvas;
  g?: SKRSContext2D;
  out?: CompositeOutput;
}

const measureCanvas = createCanvas(8, 8);

function fontSpec(l: Line, family: string): string {
  return `${l.bold ? 'bold ' : ''}${l.size}px "${family}"`;
}

async function rgba(s: Sharp, c: Pick<Checked, 'field' | 'format'>): Promise<{ data: Buffer; w: number; h: number }> {
  try {
    const { data, info } = await s.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, w: info.width, h: info.height };
  } catch (e) {
    throw decodeFailure(c, e);
  }
}

function put(g: SKRSContext2D, px: { data: Buffer; w: number; h: number }, x: number, y: number): void {
  const id = g.createImageData(px.w, px.h);
  id.data.set(px.data);
  g.putImageData(id, x, y);
}

// ------------------------------------------------------------------ steps

async function checkInputs(c: Ctx): Promise<void> {
  c.ai = await checkImage(c.in.ai, { field: 'ai_image_url', maxPixels: c.in.maxPixels });
  if (c.in.ad) c.adChecked = await checkImage(c.in.ad, { field: 'ad creative', maxPixels: c.in.maxPixels });
}

async function prepareSignature(c: Ctx): Promise<void> {
  if (!c.in.signature) return;
  const chk = await checkImage(c.in.signature, { field: 'signature_data_url', maxPixels: c.in.maxPixels, types: ['png'] });
  let raw = await rgba(openSharp(chk), chk);
  // trim to the ink (alpha > 0 and not near-white) so that pad margins do not shrink the strokes
  let x0 = raw.w, y0 = raw.h, x1 = -1, y1 = -1;
  for (let y = 0; y < raw.h; y++) {
    for (let x = 0; x < raw.w; x++) {
      const i = (y * raw.w + x) * 4;
      const a = raw.data[i + 3]!;
      if (a < 16) continue;
      if (raw.data[i]! > 235 && raw.data[i + 1]! > 235 && raw.data[i + 2]! > 235) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return; // an empty signature: nothing to place
  if (x0 > 0 || y0 > 0 || x1 < raw.w - 1 || y1 < raw.h - 1) {
    const w = x1 - x0 + 1, h = y1 - y0 + 1;
    const data = Buffer.alloc(w * h * 4);
    for (let y = 0; y < h; y++) raw.data.copy(data, y * w * 4, ((y0 + y) * raw.w + x0) * 4, ((y0 + y) * raw.w + x0 + w) * 4);
    raw = { data, w, h };
  }
  c.sig = { raw: raw.data, w: raw.w, h: raw.h };
  const d = defaults(c.width);
  let w = c.s.signature?.width ?? d.signatureWidth;
  let h = Math.max(1, Math.round((w * raw.h) / raw.w));
  const maxH = Math.round(w * 0.6);
  if (h > maxH) {
    w = Math.max(1, Math.round((w * maxH) / h));
    h = maxH;
  }
  c.sigSize = { w, h };
}

function prepareQr(c: Ctx): void {
  const q = c.s.qr ?? {};
  const payload = q.payload ?? c.in.qr_default_payload;
  if (q.show === false || !payload) return;
  const side = q.size ?? defaults(c.width).qrSize;
  const matrix = qrMatrix(payload, 'M', 'settings.qr.payload');
  layoutQr(matrix, side, side, 4, 'settings.qr.size'); // throws INVALID_REQUEST when the modules do not fit
  c.qr = { matrix, payload, side, position: q.position ?? 'bottom-right' };
}

function prepareHeader(c: Ctx): void {
  const h = c.s.header ?? {};
  const s = c.s;
  const fs = h.font_size ?? defaults(c.width).fontSize;
  const lines: Line[] = [];
  if (h.show_name !== false && s.event_name) lines.push({ text: s.event_name, size: fs, bold: true });
  if (h.show_title !== false && s.dream_title) lines.push({ text: s.dream_title, size: Math.max(6, Math.round(fs * 0.8)), bold: false });
  const meta: string[] = [];
  if (h.show_date !== false && s.event_date) meta.push(s.event_date);
  if (h.show_ticket !== false && s.ticket_no) meta.push(`No. ${s.ticket_no}`);
  if (meta.length) lines.push({ text: meta.join('  ·  '), size: Math.max(6, Math.round(fs * 0.62)), bold: false });
  if (!lines.length) return;
  const position = h.position ?? 'top-center';
  const overlay = band(position).includes('overlay');
  const d = defaults(c.width);
  // the widest line must fit the band (or the picture, for overlays): shrink every line by one factor
  const avail = overlay ? Math.round((c.width - 2 * d.margin) * (c.s.image_scale ?? 1)) - 2 * d.inset : c.width - 2 * d.margin;
  const g = measureCanvas.getContext('2d');
  const measure = (): number => Math.max(...lines.map((l) => { g.font = fontSpec(l, c.font); return Math.ceil(g.measureText(l.text).width); }));
  let w = measure();
  const plate = overlay ? Math.round(fs * 0.3) : 0;
  let scale = 1;
  if (w + 2 * plate > avail) {
    scale = Math.max(0.05, (avail - 2 * plate) / w);
    for (const l of lines) l.size = Math.max(6, Math.floor(l.size * scale));
    w = Math.min(measure(), avail - 2 * plate);
  }
  const hgt = lines.reduce((a, l) => a + Math.round(l.size * 1.4), 0);
  c.header = { lines, position, w: w + 2 * plate, h: hgt + 2 * plate, scale, plate, color: h.color ?? '#111111' };
}

function layout(c: Ctx): void {
  const d = defaults(c.width);
  const els: LayoutElement[] = [];
  if (c.header) els.push({ kind: 'header', position: c.header.position, w: c.header.w, h: c.header.h });
  if (c.qr) els.push({ kind: 'qr', position: c.qr.position, w: c.qr.side, h: c.qr.side });
  if (c.sig && c.sigSize) els.push({ kind: 'signature', position: c.s.signature?.position ?? 'bottom-left', w: c.sigSize.w, h: c.sigSize.h });
  const a = c.s.ad ?? {};
  c.layout = computeLayout({
    width: c.width,
    image: { w: c.ai!.width, h: c.ai!.height },
    image_scale: c.s.image_scale ?? 1,
    top_margin: c.s.top_margin ?? d.topMargin,
    elements: els,
    perforation: c.s.perforation !== false,
    ad: c.adChecked
      ? { w: c.adChecked.width, h: c.adChecked.height, width_ratio: a.a3_width_ratio ?? 0.92, top_padding: a.a3_top_padding ?? d.adTopPadding, bottom_padding: a.a3_bottom_padding ?? d.adBottomPadding, align: a.align ?? 'center' }
      : undefined,
  });
  const px = c.layout.width * c.layout.height;
  // JPEG cannot encode a side beyond 65,535 pixels
  const maxSide = 65_000;
  if (px > 60_000_000 || c.layout.height > maxSide || c.layout.width > maxSide) {
    throw badInput('output.target_width', `The sheet would be ${c.layout.width}x${c.layout.height} pixels (at most 60 megapixels and ${maxSide} pixels a side); lower output.target_width or settings.ad.a3_width_ratio`);
  }
}

function canvas(c: Ctx): void {
  const L = c.layout!;
  c.canvas = createCanvas(L.width, L.height);
  c.g = c.canvas.getContext('2d');
  c.g.fillStyle = '#ffffff';
  c.g.fillRect(0, 0, L.width, L.height);
}

async function paintImage(c: Ctx): Promise<void> {
  const r = c.layout!.image;
  const px = await rgba(openSharp(c.ai!).resize({ width: r.w, height: r.h, fit: 'fill', kernel: 'lanczos3' }).flatten({ background: '#ffffff' }).toColourspace('srgb'), c.ai!);
  put(c.g!, px, r.x, r.y);
}

async function paintAd(c: Ctx): Promise<void> {
  const r = c.layout!.ad;
  if (!r || !c.adChecked) return;
  const px = await rgba(openSharp(c.adChecked).resize({ width: r.w, height: r.h, fit: 'fill', kernel: 'lanczos3' }).flatten({ background: '#ffffff' }).toColourspace('srgb'), c.adChecked);
  put(c.g!, px, r.x, r.y);
}

function paintPerforation(c: Ctx): void {
  const y = c.layout!.perforationY;
  if (y === undefined) return;
  const g = c.g!;
  const s = c.width / 1181;
  g.save();
  g.strokeStyle = '#6e6e6e';
  g.lineWidth = Math.max(2, Math.round(3 * s));
  g.setLineDash([Math.max(4, Math.round(18 * s)), Math.max(3, Math.round(12 * s))]);
  g.beginPath();
  g.moveTo(0, y + 0.5);
  g.lineTo(c.width, y + 0.5);
  g.stroke();
  g.restore();
}

function element(c: Ctx, kind: LayoutElement['kind']): (LayoutElement & { x: number; y: number }) | undefined {
  return c.layout!.elements.find((e) => e.kind === kind);
}

function paintHeader(c: Ctx): void {
  const h = c.header;
  const e = element(c, 'header');
  if (!h || !e) return;
  const g = c.g!;
  g.save();
  if (h.plate) {
    g.fillStyle = 'rgba(255,255,255,0.82)';
    g.fillRect(e.x, e.y, e.w, e.h);
  }
  const col = column(e.position);
  g.fillStyle = h.color;
  g.textBaseline = 'alphabetic';
  g.textAlign = col === 'left' ? 'left' : col === 'right' ? 'right' : 'center';
  const x = col === 'left' ? e.x + h.plate : col === 'right' ? e.x + e.w - h.plate : e.x + e.w / 2;
  let y = e.y + h.plate;
  for (const l of h.lines) {
    const lh = Math.round(l.size * 1.4);
    g.font = fontSpec(l, c.font);
    g.fillText(l.text, x, y + Math.round(lh * 0.78), h.w - 2 * h.plate + 1);
    y += lh;
  }
  g.restore();
}

function paintQr(c: Ctx): void {
  const e = element(c, 'qr');
  if (!c.qr || !e) return;
  drawQr(c.g!, c.qr.matrix, e.x, e.y, c.qr.side, { margin: 4 });
}

async function paintSignature(c: Ctx): Promise<void> {
  const e = element(c, 'signature');
  if (!c.sig || !e) return;
  const { data } = await sharp(c.sig.raw, { raw: { width: c.sig.w, height: c.sig.h, channels: 4 } })
    .resize({ width: e.w, height: e.h, fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const tmp = createCanvas(e.w, e.h);
  put(tmp.getContext('2d'), { data, w: e.w, h: e.h }, 0, 0);
  c.g!.drawImage(tmp, e.x, e.y);
}

async function encode(c: Ctx): Promise<void> {
  const L = c.layout!;
  const o = c.in.output ?? {};
  const format = o.format ?? 'jpeg';
  const pixels = c.g!.getImageData(0, 0, L.width, L.height).data;
  let s = sharp(Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength), { raw: { width: L.width, height: L.height, channels: 4 } })
    .removeAlpha()
    .withIccProfile('srgb')
    .withDensity(300);
  s = format === 'png' ? s.png({ compressionLevel: 6, adaptiveFiltering: false }) : s.jpeg({ quality: o.quality ?? 92, chromaSubsampling: (o.quality ?? 92) >= 95 ? '4:4:4' : '4:2:0' });
  const { data, info } = await s.toBuffer({ resolveWithObject: true });
  c.out = {
    image: data,
    width: info.width,
    height: info.height,
    format,
    layout: L,
    applied: {
      ai_image: true,
      signature: Boolean(element(c, 'signature')),
      qr_code: Boolean(element(c, 'qr')),
      a3_ad: Boolean(L.ad),
      perforation: L.perforationY !== undefined,
      header: Boolean(element(c, 'header')),
    },
    header_lines: c.header?.lines.map((l) => l.text) ?? [],
    qr: c.qr ? { payload: c.qr.payload, version: c.qr.matrix.version, modules: c.qr.matrix.size, module_size: layoutQr(c.qr.matrix, c.qr.side, c.qr.side, 4).moduleSize } : undefined,
  };
}

const PIPELINE: Array<(c: Ctx) => void | Promise<void>> = [
  checkInputs,
  prepareSignature,
  prepareQr,
  prepareHeader,
  layout,
  canvas,
  paintImage,
  paintAd,
  paintPerforation,
  paintHeader,
  paintQr,
  paintSignature,
  encode,
];

export async function compose(input: CompositeInput): Promise<CompositeOutput> {
  const family = ensurePrintFont();
  const width = input.output?.target_width ?? 1181;
  const c: Ctx = { in: input, s: input.settings ?? {}, width, font: input.font_family ?? family };
  const timings = await runSteps(PIPELINE, c);
  c.out!.timings_ms = timings;
  return c.out!;
}

/** ad creatives further from square than this are refused at upload (a 1x300 strip would break every sheet it lands on) */
export const CREATIVE_MAX_ASPECT = 12;

export async function probe(input: ProbeInput): Promise<ProbeOutput> {
  const field = input.field ?? 'image';
  const chk = await checkImage(input.bytes, { field, maxPixels: input.maxPixels });
  checkAspect(chk, CREATIVE_MAX_ASPECT, 'an ad creative');
  const maxW = input.maxWidth ?? 2400;
  const fmt = sniffFormat(chk.buf) as ProbeOutput['format'];
  if (chk.width <= maxW) {
    // decode once fully so that a truncated file is refused at upload, not at print time
    try {
      await openSharp(chk).raw().toBuffer();
    } catch (e) {
      throw decodeFailure(chk, e);
    }
    return { bytes: chk.buf, format: fmt, width: chk.width, height: chk.height };
  }
  try {
    const s = openSharp(chk).resize({ width: maxW, kernel: 'lanczos3' });
    const { data, info } = await (fmt === 'png' ? s.png() : s.jpeg({ quality: 92 })).toBuffer({ resolveWithObject: true });
    return { bytes: data, format: fmt === 'png' ? 'png' : 'jpeg', width: info.width, height: info.height };
  } catch (e) {
    throw decodeFailure(chk, e);
  }
}

/** The print sheet (the probe of an ad creative is its own task, ./composite-probe.ts). */
export default async function composite(input: CompositeInput): Promise<CompositeOutput> {
  return compose(input);
}

