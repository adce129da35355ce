// Shared helpers of the studio tests: a local image server, decoding, and portrait paths.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { shared } from '../helpers/shared.js';

export const FACES = shared('faces', 'public-domain');
export const PORTRAITS = {
  grace: path.join(FACES, 'grace_hopper_512x512.jpg'),
  astronaut: path.join(FACES, 'astronaut.png'),
  coffee: path.join(FACES, 'coffee.png'),
  /** several faces of different sizes, one cut by the image edge (MIT test material, ../shared/faces/README.md) */
  group: path.resolve(FACES, '../groups/bbt2.jpg'),
};

/** Serves files (name → bytes) on 127.0.0.1; returns the base URL and a close function. */
export async function imageServer(files: Record<string, Buffer>): Promise<{ url: string; close: () => Promise<void> }> {
  const srv = http.createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').slice(1));
    const body = files[name];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const type = name.endsWith('.png') ? 'image/png' : name.endsWith('.jpg') ? 'image/jpeg' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => srv.close(() => r())) };
}

export interface Decoded {
  data: Uint8Array;
  width: number;
  height: number;
}

export async function decode(bytes: Buffer | Uint8Array): Promise<Decoded> {
  const { data, info } = await sharp(Buffer.from(bytes)).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

export const readFile = (p: string): Buffer => fs.readFileSync(p);

/** Number of pixels that differ, counted only where keep(x, y) is true. */
export function changedWhere(a: Decoded, b: Decoded, keep: (x: number, y: number) => boolean): { changed: number; counted: number } {
  let changed = 0, counted = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!keep(x, y)) continue;
      counted++;
      const i = (y * a.width + x) * 3;
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) changed++;
    }
  }
  return { changed, counted };
}
