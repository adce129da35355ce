// Layout of a print sheet: pure geometry, no pixels. Every length is in output pixels (300 dpi at the default
// target_width 1181 = 10 cm); defaults scale with the width (s = width / 1181).
//
//   ┌──────────────────────────────┐  top_margin
//   │ top-left  top-center top-right│  header band (only when something sits there)
//   │ ┌──────────────────────────┐ │
//   │ │top-overlay-…             │ │  the AI picture (width = content width × image_scale)
//   │ │                          │ │
//   │ │bottom-overlay-…          │ │
//   │ └──────────────────────────┘ │
//   │ bottom-left bottom-center …  │  footer band (only when something sits there)
//   ├ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ─ ┤  perforation (where the ad part is torn off)
//   │        a3_top_padding        │
//   │     ┌──────────────────┐     │  A3 advertisement (width = sheet width × a3_width_ratio)
//   │     └──────────────────┘     │
//   └──────────────────────────────┘  a3_bottom_padding
//
// Several elements in one slot stack: downwards in top bands and top overlays, upwards in bottom overlays.

export const POSITIONS = [
  'top-left', 'top-center', 'top-right',
  'top-overlay-left', 'top-overlay-center', 'top-overlay-right',
  'bottom-overlay-left', 'bottom-overlay-center', 'bottom-overlay-right',
  'bottom-left', 'bottom-center', 'bottom-right',
] as const;
export type Position = (typeof POSITIONS)[number];

export type Rect = { x: number; y: number; w: number; h: number };

export interface LayoutElement {
  kind: 'header' | 'qr' | 'signature';
  position: Position;
  w: number;
  h: number;
}

export interface LayoutInput {
  width: number;
  /** AI picture size (any units: only the aspect ratio is used) */
  image: { w: number; h: number };
  image_scale: number;
  top_margin: number;
  elements: LayoutElement[];
  /** ad creative size (aspect), absent = no ad section */
  ad?: { w: number; h: number; width_ratio: number; top_padding: number; bottom_padding: number; align: 'left' | 'center' | 'right' };
  perforation: boolean;
}

export interface Layout {
  width: number;
  height: number;
  margin: number;
  gap: number;
  image: Rect;
  /** header band (top-*), zero height when unused */
  topBand: Rect;
  /** footer band (bottom-*), zero height when unused */
  bottomBand: Rect;
  elements: Array<LayoutElement & Rect>;
  /** y of the perforation line (undefined when none is drawn) */
  perforationY?: number;
  ad?: Rect;
}

export const band = (p: Position): 'top' | 'top-overlay' | 'bottom-overlay' | 'bottom' =>
  p.startsWith('top-overlay') ? 'top-overlay' : p.startsWith('bottom-overlay') ? 'bottom-overlay' : p.startsWith('top') ? 'top' : 'bottom';
export const column = (p: Position): 'left' | 'center' | 'right' => (p.endsWith('left') ? 'left' : p.endsWith('right') ? 'right' : 'center');

export function defaults(width: number): { margin: number; gap: number; inset: number; topMargin: number; fontSize: number; qrSize: number; signatureWidth: number; adTopPadding: number; adBottomPadding: number } {
  const s = width / 1181;
  return {
    margin: Math.round(40 * s),
    gap: Math.round(20 * s),
    inset: Math.round(24 * s),
    topMargin: Math.round(40 * s),
    fontSize: Math.max(8, Math.round(44 * s)),
    qrSize: Math.max(40, Math.round(260 * s)),
    signatureWidth: Math.max(20, Math.round(320 * s)),
    adTopPadding: Math.round(40 * s),
    adBottomPadding: Math.round(40 * s),
  };
}

function stackHeight(els: LayoutElement[], gap: number): number {
  return els.length ? els.reduce((a, e) => a + e.h, 0) + gap * (els.length - 1) : 0;
}

export function computeLayout(inp: LayoutInput): Layout {
  const W = inp.width;
  const d = defaults(W);
  const { margin, gap, inset } = d;
  const contentW = W - 2 * margin;
  const iw = Math.max(1, Math.round(contentW * inp.image_scale));
  const ih = Math.max(1, Math.round((iw * inp.image.h) / inp.image.w));
  const ix = Math.round((W - iw) / 2);

  const slot = new Map<Position, LayoutElement[]>();
  for (const e of inp.elements) {
    const l = slot.get(e.position) ?? [];
    l.push(e);
    slot.set(e.position, l);
  }
  const bandHeight = (b: 'top' | 'bottom'): number =>
    Math.max(0, ...(['left', 'center', 'right'] as const).map((c) => stackHeight(slot.get(`${b}-${c}` as Position) ?? [], gap)));

  const topH = bandHeight('top');
  const botH = bandHeight('bottom');
  const topY = inp.top_margin;
  const iy = topY + (topH > 0 ? topH + gap : 0);
  const botY = iy + ih + gap;
  const photoBottom = (botH > 0 ? botY + botH : iy + ih) + margin;

  const out: Layout['elements'] = [];
  const xFor = (c: 'left' | 'center' | 'right', w: number, left: number, right: number): number =>
    c === 'left' ? left : c === 'right' ? right - w : Math.round((left + right - w) / 2);
  for (const [pos, els] of slot) {
    const b = band(pos);
    const c = column(pos);
    if (b === 'top' || b === 'bottom') {
      let y = b === 'top' ? topY : botY;
      for (const e of els) {
        out.push({ ...e, x: xFor(c, e.w, margin, W - margin), y, w: e.w, h: e.h });
        y += e.h + gap;
      }
    } else if (b === 'top-overlay') {
      let y = iy + inset;
      for (const e of els) {
        out.push({ ...e, x: xFor(c, e.w, ix + inset, ix + iw - inset), y, w: e.w, h: e.h });
        y += e.h + gap;
      }
    } else {
      let y = iy + ih - inset;
      for (const e of els) {
        y -= e.h;
        out.push({ ...e, x: xFor(c, e.w, ix + inset, ix + iw - inset), y, w: e.w, h: e.h });
        y -= gap;
      }
    }
  }

  let height = photoBottom;
  let perforationY: number | undefined;
  let ad: Rect | undefined;
  if (inp.ad) {
    if (inp.perforation) perforationY = photoBottom;
    const aw = Math.max(1, Math.round(W * inp.ad.width_ratio));
    const ah = Math.max(1, Math.round((aw * inp.ad.h) / inp.ad.w));
    const ax = inp.ad.align === 'left' ? (aw >= W ? 0 : Math.min(margin, W - aw)) : inp.ad.align === 'right' ? Math.max(0, W - aw - (aw >= W ? 0 : margin)) : Math.round((W - aw) / 2);
    const ay = photoBottom + inp.ad.top_padding;
    ad = { x: ax, y: ay, w: aw, h: ah };
    height = ay + ah + inp.ad.bottom_padding;
  }
  return {
    width: W,
    height,
    margin,
    gap,
    image: { x: ix, y: iy, w: iw, h: ih },
    topBand: { x: 0, y: topY, w: W, h: topH },
    bottomBand: { x: 0, y: botY, w: W, h: botH },
    elements: out,
    perforationY,
    ad,
  };
}
