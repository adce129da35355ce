// Image formats by their magic bytes: the one sniffer for request file parts (server/body.ts) and tasks
// (lib/image-io.ts). No dependencies, so the HTTP server can use it without loading the image libraries.
export type SniffedFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'unknown';

const ascii = (b: Uint8Array, from: number, to: number): string => String.fromCharCode(...b.subarray(from, to));

export function sniffFormat(b: Uint8Array): SniffedFormat {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 6 && /^GIF8[79]a$/.test(ascii(b, 0, 6))) return 'gif';
  return 'unknown';
}
