// The tiling plan of the enhancement: overlapping tiles that cover the image, each read with a halo so that local
// filters see the same neighbourhood as on the whole image, and the feathering weights used to blend the overlaps.
// Pure arithmetic (no pixels): used by the orchestrator on the main thread and by the tasks in the workers.

export interface TileOptions {
  /** largest side of a tile including its overlap with neighbours (px); tiles are shrunk so overlaps stay near `overlap` */
  tile: number;
  /** minimum overlap between neighbouring tiles (px); the overlaps are blended */
  overlap: number;
  /** extra context read around each tile and thrown away after filtering (px); >= the filter chain's reach */
  halo: number;
}

export const TILE_DEFAULTS: TileOptions = { tile: 320, overlap: 32, halo: 8 };

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Tile extends Rect {
  index: number;
  row: number;
  col: number;
  /** the rectangle actually read: the tile plus the halo, clipped to the image */
  read: Rect;
  /** overlap (px) with the neighbour on each side; 0 at the image border */
  feather: { left: number; right: number; top: number; bottom: number };
}

export interface TilePlan {
  width: number;
  height: number;
  cols: number;
  rows: number;
  options: TileOptions;
  tiles: Tile[];
}

/** Start positions of n segments of length len spread evenly over size (first at 0, last flush with the end). */
function starts(size: number, len: number, n: number): number[] {
  if (n <= 1) return [0];
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.round((i * (size - len)) / (n - 1)));
  return out;
}

function axis(size: number, o: TileOptions): Array<{ start: number; len: number }> {
  if (o.tile >= size) return [{ start: 0, len: size }];
  const n = Math.ceil((size - o.overlap) / (o.tile - o.overlap));
  // the smallest length (<= tile) at which n tiles cover the axis with the overlap: no work wasted on wider overlaps
  const len = Math.min(o.tile, Math.ceil((size + (n - 1) * o.overlap) / n) + 1);
  return starts(size, len, n).map((start) => ({ start, len }));
}

export function planTiles(width: number, height: number, options: Partial<TileOptions> = {}): TilePlan {
  const o: TileOptions = { ...TILE_DEFAULTS, ...options };
  if (!(o.tile > 2 * o.overlap)) throw new Error(`tile (${o.tile}) must be larger than twice the overlap (${o.overlap})`);
  if (width < 1 || height < 1) throw new Error(`image size ${width}x${height} is empty`);
  const xs = axis(width, o);
  const ys = axis(height, o);
  const tiles: Tile[] = [];
  for (let r = 0; r < ys.length; r++) {
    for (let c = 0; c < xs.length; c++) {
      const x = xs[c]!.start, w = xs[c]!.len, y = ys[r]!.start, h = ys[r]!.len;
      const rx = Math.max(0, x - o.halo), ry = Math.max(0, y - o.halo);
      const read = { x: rx, y: ry, w: Math.min(width, x + w + o.halo) - rx, h: Math.min(height, y + h + o.halo) - ry };
      const feather = {
        left: c > 0 ? xs[c - 1]!.start + xs[c - 1]!.len - x : 0,
        right: c < xs.length - 1 ? x + w - xs[c + 1]!.start : 0,
        top: r > 0 ? ys[r - 1]!.start + ys[r - 1]!.len - y : 0,
        bottom: r < ys.length - 1 ? y + h - ys[r + 1]!.start : 0,
      };
      tiles.push({ index: tiles.length, row: r, col: c, x, y, w, h, read, feather });
    }
  }
  return { width, height, cols: xs.length, rows: ys.length, options: o, tiles };
}

/**
 * Feathering weight of a pixel at (dx, dy) inside a tile: a linear ramp across each overlap with a neighbour
 * (0→1 over the overlap), 1 elsewhere. Across an overlap the two ramps sum to 1, so blending is a partition of unity.
 */
export function weightAt(t: Tile, dx: number, dy: number): number {
  return axisWeight(dx, t.w, t.feather.left, t.feather.right) * axisWeight(dy, t.h, t.feather.top, t.feather.bottom);
}

/** One axis of weightAt: position d in a tile of length len with overlaps before and after (0 = image border). */
export function axisWeight(d: number, len: number, before: number, after: number): number {
  let w = 1;
  if (before > 0 && d < before) w = Math.min(w, (d + 0.5) / before);
  if (after > 0 && d >= len - after) w = Math.min(w, (len - d - 0.5) / after);
  return w;
}

/** A privacy region as fractions of the image. */
export interface PrivacyRegion {
  field: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Pixel rectangle covering a fractional region (rounded outwards, clipped to the image). */
export function regionRect(r: PrivacyRegion, width: number, height: number): Rect {
  const e = 1e-9;
  const x0 = Math.max(0, Math.floor(r.x * width + e));
  const y0 = Math.max(0, Math.floor(r.y * height + e));
  const x1 = Math.min(width, Math.ceil((r.x + r.w) * width - e));
  const y1 = Math.min(height, Math.ceil((r.y + r.h) * height - e));
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}
