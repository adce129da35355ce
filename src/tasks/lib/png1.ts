// A 1-bit greyscale PNG encoder (colour type 0, bit depth 1): QR codes, edge maps, thresholded receipts.
import zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bufs: Buffer[]): number {
  let c = 0xffffffff;
  for (const b of bufs) for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const t = Buffer.from(type, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32([t, data]));
  return Buffer.concat([len, t, data, crc]);
}

/**
 * Encode a 1-bit image. `isWhite(i)` decides pixel i (row-major); or pass a grey buffer and a threshold
 * (>= threshold → white). `dpi` adds a pHYs chunk. `level`: zlib's (default 9, the smallest file).
 */
export function encodePng1(width: number, height: number, grey: Uint8Array, opts: { threshold?: number; dpi?: number; level?: number } = {}): Buffer {
  const thr = opts.threshold ?? 128;
  const stride = Math.ceil(width / 8);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const o = y * (stride + 1);
    raw[o] = 0; // filter: none
    const row = y * width;
    for (let x = 0; x < width; x++) if (grey[row + x]! >= thr) raw[o + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (opts.dpi) {
    const p = Buffer.alloc(9);
    const ppm = Math.round(opts.dpi / 0.0254);
    p.writeUInt32BE(ppm, 0);
    p.writeUInt32BE(ppm, 4);
    p[8] = 1;
    parts.push(chunk('pHYs', p));
  }
  parts.push(chunk('IDAT', zlib.deflateSync(raw, { level: opts.level ?? 9 })), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** Bit depth and colour type of a PNG (for tests and checks). */
export function pngHeader(b: Uint8Array): { width: number; height: number; bitDepth: number; colourType: number } {
  const v = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return { width: v.readUInt32BE(16), height: v.readUInt32BE(20), bitDepth: v[24]!, colourType: v[25]! };
}
