// Mosaic (pixelation) of rectangular regions: each region is clipped to the image and divided into
// blockSize x blockSize cells (aligned to the region's top-left; edge cells are smaller); each cell takes the
// mean colour of its pixels. Output: PNG (RGBA when the input has alpha, else RGB).
import sharp from 'sharp';
import { checkImage, decodeChecked, toBuffer, type DecodeOptions } from './lib/image-io.js';
import { badInput } from './lib/task-error.js';

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MosaicInput extends DecodeOptions {
  image: Uint8Array;
  regions: Region[];
  blockSize?: number;
}

export interface MosaicOutput {
  png: Uint8Array;
  width: number;
  height: number;
  blockSize: number;
  /** the regions after clipping to the image, in input order */
  regions: Region[];
}

export function pixelate(data: Uint8Array, w: number, ch: number, r: Region, block: number): void {
  const sums = new Float64Array(ch);
  for (let by = r.y; by < r.y + r.height; by += block) {
    const y1 = Math.min(r.y + r.height, by + block);
    for (let bx = r.x; bx < r.x + r.width; bx += block) {
      const x1 = Math.min(r.x + r.width, bx + block);
      sums.fill(0);
      for (let y = by; y < y1; y++) for (let x = bx; x < x1; x++) {
        const o = (y * w + x) * ch;
        for (let c = 0; c < ch; c++) sums[c]! += data[o + c]!;
      }
      const n = (y1 - by) * (x1 - bx);
      for (let y = by; y < y1; y++) for (let x = bx; x < x1; x++) {
        const o = (y * w + x) * ch;
        for (let c = 0; c < ch; c++) data[o + c] = Math.round(sums[c]! / n);
      }
    }
  }
}

export default async function mosaic(input: MosaicInput): Promise<MosaicOutput> {
  const block = input.blockSize ?? 16;
  if (!Number.isInteger(block) || block < 4 || block > 40) throw badInput('blockSize', `Expected an integer from 4 to 40 for blockSize but received ${block}`);
  if (!Array.isArray(input.regions) || input.regions.length === 0) throw badInput('regions', 'Expected a non-empty array of {x, y, width, height} for regions');
  const c = await checkImage(input.image, { ...input, field: input.field ?? 'imageUrl' });
  const meta = await sharp(c.buf).metadata();
  const ch: 3 | 4 = meta.hasAlpha ? 4 : 3;
  const img = await decodeChecked(c, ch);
  const { width: w, height: h } = img;
  const clipped: Region[] = input.regions.map((r, i) => {
    const x0 = Math.max(0, r.x), y0 = Math.max(0, r.y);
    const x1 = Math.min(w, r.x + r.width), y1 = Math.min(h, r.y + r.height);
    if (x1 <= x0 || y1 <= y0) throw badInput(`regions.${i}`, `Expected regions[${i}] to overlap the ${w}x${h} image but it lies outside (x ${r.x}, y ${r.y}, width ${r.width}, height ${r.height})`);
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
  });
  for (const r of clipped) pixelate(img.data, w, ch, r, block);
  const png = await sharp(toBuffer(img.data), { raw: { width: w, height: h, channels: ch } }).png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer();
  return { png, width: w, height: h, blockSize: block, regions: clipped };
}
