// Pixel checks of the composition task (called directly, no server): every element where its position code
// says, the QR decodes from the sheet, Korean header glyphs rendered (not tofu), signature placed, perforation
// drawn, ad composed, width and 300 dpi with an sRGB profile.
import t from 'tap';
import fs from 'node:fs';
import sharp from 'sharp';
import jsQRmod from 'jsqr';
import { GlobalFonts } from '@napi-rs/canvas';
import { compose, probe, type CompositeOutput } from '../../src/tasks/composite.js';
import { POSITIONS, band, column, type Rect } from '../../src/tasks/lib/composite-layout.js';
import { aiPicture, signaturePng, solid } from './fixtures.js';

type QrHit = { data: string; location: { topLeftCorner: { x: number; y: number }; bottomRightCorner: { x: number; y: number } } };
const jsQR = ((jsQRmod as unknown as { default?: unknown }).default ?? jsQRmod) as unknown as (d: Uint8ClampedArray, w: number, h: number) => QrHit | null;

interface Px { data: Buffer; width: number; height: number }
async function pixels(out: CompositeOutput): Promise<Px> {
  const { data, info } = await sharp(Buffer.from(out.image)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
const at = (p: Px, x: number, y: number): [number, number, number] => {
  const i = (Math.round(y) * p.width + Math.round(x)) * 3;
  return [p.data[i]!, p.data[i + 1]!, p.data[i + 2]!];
};
const near = (a: number[], b: number[], tol = 12) => a.every((v, i) => Math.abs(v - b[i]!) <= tol);
function count(p: Px, r: Rect, pred: (rgb: [number, number, number]) => boolean): number {
  let n = 0;
  for (let y = Math.max(0, r.y); y < Math.min(p.height, r.y + r.h); y++) for (let x = Math.max(0, r.x); x < Math.min(p.width, r.x + r.w); x++) if (pred(at(p, x, y))) n++;
  return n;
}
function decodeQr(p: Px, r?: Rect): { data: string; cx: number; cy: number } | undefined {
  const rr = r ?? { x: 0, y: 0, w: p.width, h: p.height };
  const x0 = Math.max(0, rr.x), y0 = Math.max(0, rr.y), w = Math.min(p.width - x0, rr.w), h = Math.min(p.height - y0, rr.h);
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const [r0, g0, b0] = at(p, x0 + x, y0 + y);
    const o = (y * w + x) * 4;
    rgba[o] = r0; rgba[o + 1] = g0; rgba[o + 2] = b0; rgba[o + 3] = 255;
  }
  const q = jsQR(rgba, w, h);
  if (!q) return undefined;
  const l = q.location;
  return { data: q.data, cx: x0 + (l.topLeftCorner.x + l.bottomRightCorner.x) / 2, cy: y0 + (l.topLeftCorner.y + l.bottomRightCorner.y) / 2 };
}
const isRed = ([r, g, b]: number[]) => r! > 100 && g! < 70 && b! < 80;
const isInk = ([r, g, b]: number[]) => r! < 160 && g! < 160 && b! < 160;
const grow = (r: Rect, d: number): Rect => ({ x: r.x - d, y: r.y - d, w: r.w + 2 * d, h: r.h + 2 * d });

let AI: Buffer, SIG: Buffer, AD: Buffer;
t.before(async () => {
  AI = await aiPicture(800, 600);
  SIG = await signaturePng();
  AD = await solid(1200, 600, [250, 200, 0]);
});

const KOREAN = { event_name: '2026 세종 꿈 축제', dream_title: '우주비행사', event_date: '2026년 11월 22일', ticket_no: 'A-0042' };

t.test('full sheet at 1181 px: every element, QR decodes, 300 dpi, sRGB', async (t) => {
  const out = await compose({ ai: AI, signature: SIG, ad: AD, settings: { ...KOREAN, qr: { payload: 'https://kiosk.example/p/A-0042' } }, output: { format: 'jpeg', quality: 92 } });
  t.equal(out.width, 1181);
  t.same(out.applied, { ai_image: true, signature: true, qr_code: true, a3_ad: true, perforation: true, header: true });
  const m = await sharp(Buffer.from(out.image)).metadata();
  t.equal(m.format, 'jpeg');
  t.equal(m.width, 1181);
  t.equal(m.density, 300);
  t.ok(m.icc && m.icc.includes(Buffer.from('sRGB', 'utf16le').swap16()), 'sRGB ICC profile');
  const p = await pixels(out);
  const L = out.layout;

  // AI picture: its centre colour is the gradient's centre (not white), the band above it is white
  const ic = at(p, L.image.x + L.image.w / 2, L.image.y + L.image.h / 2);
  t.ok(near(ic, [115, 140, 200], 20), `picture centre ${ic}`);
  t.ok(near(at(p, L.image.x + 2, L.image.y + 2), [40, 90, 200], 20), 'picture top-left corner colour');
  t.ok(near(at(p, 5, L.image.y + 10), [255, 255, 255], 3), 'margin left of the picture is white');

  // ad: the creative's colour fills its rectangle, below the perforation
  const ad = L.ad!;
  t.ok(ad.y > L.perforationY!, 'ad below the perforation');
  t.ok(near(at(p, ad.x + ad.w / 2, ad.y + ad.h / 2), [250, 200, 0], 10), 'ad colour at its centre');
  t.ok(Math.abs(ad.w - Math.round(1181 * 0.92)) <= 1, 'default a3_width_ratio 0.92');
  t.ok(near(at(p, ad.x - 3, ad.y + ad.h / 2), [255, 255, 255], 4), 'white beside the ad');

  // perforation: dashes along its row (alternating ink and gaps), white rows just above and below
  const y = L.perforationY!;
  let transitions = 0, inkPx = 0;
  let prev = false;
  for (let x = 0; x < p.width; x++) {
    const ink = isInk(at(p, x, y));
    if (ink) inkPx++;
    if (x > 0 && ink !== prev) transitions++;
    prev = ink;
  }
  t.ok(transitions >= 60, `dashed line: ${transitions} ink/gap transitions`);
  t.ok(inkPx > p.width * 0.4 && inkPx < p.width * 0.8, `dash coverage ${inkPx}/${p.width}`);
  t.equal(count(p, { x: 0, y: y - 12, w: p.width, h: 3 }, isInk), 0, 'no ink just above the line');

  // QR: decodes from the whole printed sheet, found inside its bottom-right element
  const qr = L.elements.find((e) => e.kind === 'qr')!;
  t.equal(qr.position, 'bottom-right');
  const dq = decodeQr(p);
  t.equal(dq?.data, 'https://kiosk.example/p/A-0042', 'QR decodes from the sheet');
  t.ok(dq && dq.cx > qr.x && dq.cx < qr.x + qr.w && dq.cy > qr.y && dq.cy < qr.y + qr.h, 'decoded where the layout put it');
  t.ok(qr.x + qr.w <= 1181 - L.margin + 1 && qr.y >= L.image.y + L.image.h, 'bottom-right: right column, below the picture');

  // signature: its red ink inside its rectangle (bottom-left), none elsewhere
  const sg = L.elements.find((e) => e.kind === 'signature')!;
  t.equal(sg.position, 'bottom-left');
  t.equal(sg.x, L.margin);
  const inside = count(p, sg, isRed);
  t.ok(inside > 500, `signature ink inside its box: ${inside}`);
  t.equal(count(p, { x: 0, y: 0, w: p.width, h: p.height }, isRed) - inside, 0, 'no signature ink outside its box');

  // header: top-center, glyph ink in the header band, centred
  const hd = L.elements.find((e) => e.kind === 'header')!;
  t.equal(hd.position, 'top-center');
  t.ok(hd.y + hd.h <= L.image.y, 'header above the picture');
  t.ok(Math.abs(hd.x + hd.w / 2 - 1181 / 2) <= 2, 'header centred');
  const ink = count(p, L.topBand, isInk);
  t.ok(ink > 2000, `header text ink: ${ink}`);
  t.same(out.header_lines, ['2026 세종 꿈 축제', '우주비행사', '2026년 11월 22일  ·  No. A-0042']);
});

// a font without Hangul to compare against (DejaVu Sans ships with Debian's fontconfig; skipped when absent)
const NO_HANGUL = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/dejavu/DejaVuSans.ttf'].find((f) => fs.existsSync(f));

t.test('Korean header glyphs are real glyphs, not tofu', { skip: NO_HANGUL ? false : 'no font without Hangul installed to compare with' }, async (t) => {
  GlobalFonts.registerFromPath(NO_HANGUL!, 'No Hangul Test');
  const settings = { event_name: '가나다라마바사', header: { show_date: false, show_ticket: false }, qr: { show: false } };
  const good = await compose({ ai: AI, settings, output: { target_width: 800, format: 'png' } });
  const tofu = await compose({ ai: AI, settings, output: { target_width: 800, format: 'png' }, font_family: 'No Hangul Test' });
  const pg = await pixels(good);
  const pt = await pixels(tofu);
  const band = good.layout.topBand;
  // column profile of the header band: with tofu every glyph is the same box; with Noto Sans KR they differ
  function glyphs(p: Px): number[][] {
    const cols: number[] = [];
    for (let x = 0; x < p.width; x++) cols.push(count(p, { x, y: band.y, w: 1, h: band.h }, isInk));
    const cells: number[][] = [];
    let cur: number[] | undefined;
    for (const c of cols) {
      if (c > 0) (cur ??= []).push(c);
      else if (cur) {
        cells.push(cur);
        cur = undefined;
      }
    }
    return cells;
  }
  const diff = (a: number[], b: number[]) => {
    const n = Math.max(a.length, b.length);
    let d = 0;
    for (let i = 0; i < n; i++) d += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
    return d / Math.max(1, a.reduce((s, v) => s + v, 0));
  };
  const gt = glyphs(pt);
  const gg = glyphs(pg);
  t.ok(gt.length >= 7, `tofu render has ${gt.length} cells`);
  const tofuSpread = Math.max(...gt.slice(1).map((c) => diff(c, gt[0]!)));
  const goodSpread = Math.max(...gg.slice(1).map((c) => diff(c, gg[0]!)));
  t.ok(tofuSpread < 0.15, `a font without Hangul (DejaVu Sans) draws identical boxes (spread ${tofuSpread.toFixed(3)})`);
  t.ok(goodSpread > 0.3, `our header draws distinct glyphs (spread ${goodSpread.toFixed(3)})`);
  // and the two renders differ
  let changed = 0;
  for (let y = band.y; y < band.y + band.h; y++) for (let x = 0; x < pg.width; x++) if (isInk(at(pg, x, y)) !== isInk(at(pt, x, y))) changed++;
  t.ok(changed > 1000, `header differs from the tofu render in ${changed} pixels`);
});

t.test('the 12 position codes: QR, header and signature land where the code says', async (t) => {
  const W = 700;
  for (const pos of POSITIONS) {
    const out = await compose({
      ai: AI, signature: SIG,
      settings: { event_name: '세종', header: { position: pos, show_date: false, show_ticket: false }, qr: { payload: `pos:${pos}`, position: pos, size: 170 }, signature: { position: pos, width: 160 } },
      output: { target_width: W, format: 'png' },
    });
    const p = await pixels(out);
    const L = out.layout;
    const img = L.image;
    const b = band(pos), c = column(pos);
    for (const kind of ['qr', 'header', 'signature'] as const) {
      const e = L.elements.find((x) => x.kind === kind)!;
      t.equal(e.position, pos);
      // vertical: band above, overlay on the picture's top/bottom, band below
      if (b === 'top') t.ok(e.y + e.h <= img.y, `${pos} ${kind} above the picture`);
      if (b === 'bottom') t.ok(e.y >= img.y + img.h, `${pos} ${kind} below the picture`);
      // overlays: on the picture; the slot's stack starts at the picture's top (downwards) or bottom (upwards) edge
      if (b.endsWith('overlay')) t.ok(e.y >= img.y && e.y + e.h <= img.y + img.h, `${pos} ${kind} on the picture`);
      if (b === 'top-overlay' && kind === 'header') t.ok(e.y - img.y > 0 && e.y - img.y <= 30, `${pos} header at the picture's top edge`);
      if (b === 'bottom-overlay' && kind === 'header') t.ok(img.y + img.h - (e.y + e.h) > 0 && img.y + img.h - (e.y + e.h) <= 30, `${pos} header at the picture's bottom edge`);
      // horizontal
      const cx = e.x + e.w / 2;
      if (c === 'left') t.ok(cx < W / 2 && e.x <= W * 0.1, `${pos} ${kind} left`);
      if (c === 'right') t.ok(cx > W / 2 && e.x + e.w >= W * 0.9, `${pos} ${kind} right`);
      if (c === 'center') t.ok(Math.abs(cx - W / 2) <= 2, `${pos} ${kind} centred`);
    }
    const qr = L.elements.find((x) => x.kind === 'qr')!;
    const dq = decodeQr(p, grow(qr, 4));
    t.equal(dq?.data, `pos:${pos}`, `${pos}: QR decodes at its place`);
    const sg = L.elements.find((x) => x.kind === 'signature')!;
    t.ok(count(p, sg, isRed) > 100, `${pos}: signature ink in its box`);
    const hd = L.elements.find((x) => x.kind === 'header')!;
    t.ok(count(p, hd, isInk) > 100, `${pos}: header ink in its box`);
  }
});

t.test('settings: image_scale, top_margin, ad ratio/padding/align, header switches, perforation off, png', async (t) => {
  const out = await compose({
    ai: AI, ad: AD,
    settings: { ...KOREAN, image_scale: 0.5, top_margin: 100, perforation: false, ad: { a3_width_ratio: 0.5, a3_top_padding: 10, align: 'left' }, header: { show_name: false, show_title: false, font_size: 30 }, qr: { show: false } },
    output: { target_width: 900, format: 'png' },
  });
  const L = out.layout;
  t.equal(out.width, 900);
  t.equal(L.image.w, Math.round((900 - 2 * L.margin) * 0.5));
  t.equal(L.image.h, Math.round((L.image.w * 600) / 800));
  t.equal(L.topBand.y, 100);
  t.equal(L.perforationY, undefined);
  t.equal(out.applied.perforation, false);
  t.equal(L.ad!.w, 450);
  t.equal(L.ad!.x, L.margin);
  t.same(out.header_lines, ['2026년 11월 22일  ·  No. A-0042']);
  const m = await sharp(Buffer.from(out.image)).metadata();
  t.equal(m.format, 'png');
  t.equal(m.density, 300);
  const p = await pixels(out);
  t.ok(near(at(p, L.ad!.x + 10, L.ad!.y + 10), [250, 200, 0], 6));
});

t.test('bad inputs are refused with the field named', async (t) => {
  await t.rejects(compose({ ai: Buffer.from('not an image at all') }), { message: /ai_image_url/ });
  const trunc = AI.subarray(0, 2000);
  await t.rejects(compose({ ai: trunc }), { message: /ai_image_url/ });
  await t.rejects(compose({ ai: AI, signature: await solid(10, 10, [0, 0, 0], 'jpeg') }), { message: /signature_data_url/ });
  await t.rejects(compose({ ai: AI, settings: { qr: { payload: 'x'.repeat(900), size: 60 } }, output: { target_width: 600 } }), { message: /settings\.qr\.size/ });
  const big = await probe({ mode: 'probe', bytes: await solid(3000, 1000, [1, 2, 3]) });
  t.equal(big.width, 2400, 'large creatives are shrunk at upload');
  t.equal(big.height, 800);
  await t.rejects(probe({ mode: 'probe', bytes: Buffer.from('GIF89a....'), field: 'image' }), { message: /image/ });
});

if (process.env.SEJONG_PRINT_SAMPLE) {
  t.test('write a sample sheet', async () => {
    const out = await compose({ ai: AI, signature: SIG, ad: AD, settings: { ...KOREAN, qr: { payload: 'https://kiosk.example/p/A-0042' } } });
    fs.writeFileSync(process.env.SEJONG_PRINT_SAMPLE!, out.image);
  });
}
