// A small streaming reader for (gzip-compressed) ustar/GNU tar archives: yields regular files with their bytes.
import fs from 'node:fs';
import zlib from 'node:zlib';

export interface TarEntry {
  name: string;
  data: Buffer;
}

function octal(buf: Buffer, off: number, len: number): number {
  // GNU base-256 for huge sizes
  if (buf[off]! & 0x80) {
    let v = 0;
    for (let i = off + 1; i < off + len; i++) v = v * 256 + buf[i]!;
    return v;
  }
  const s = buf.toString('latin1', off, off + len).replace(/\0.*$/s, '').trim();
  return s ? parseInt(s, 8) : 0;
}

function cstr(buf: Buffer, off: number, len: number): string {
  const end = buf.indexOf(0, off);
  return buf.toString('utf8', off, end >= 0 && end < off + len ? end : off + len);
}

/** Iterate the regular files of a .tar or .tar.gz file. */
export async function* readTar(file: string): AsyncGenerator<TarEntry> {
  let src: AsyncIterable<Buffer> = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  if (/\.(t?gz)$/.test(file)) src = fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(zlib.createGunzip({ chunkSize: 1 << 20 }));
  let pending: Buffer[] = [];
  let pendingLen = 0;
  const take = (n: number): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingLen);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    pending = rest.length ? [rest] : [];
    pendingLen = rest.length;
    return out;
  };
  let longName: string | null = null;
  let paxPath: string | null = null;
  let state: { name: string; size: number; type: string } | null = null;
  for await (const chunk of src) {
    pending.push(chunk);
    pendingLen += chunk.length;
    for (;;) {
      if (!state) {
        if (pendingLen < 512) break;
        const h = Buffer.from(take(512));
        if (h.every((b) => b === 0)) continue;
        const size = octal(h, 124, 12);
        const type = String.fromCharCode(h[156] || 48);
        const prefix = h.toString('latin1', 257, 263).startsWith('ustar') ? cstr(h, 345, 155) : '';
        let name = cstr(h, 0, 100);
        if (prefix) name = prefix + '/' + name;
        state = { name, size, type };
      }
      const padded = Math.ceil(state.size / 512) * 512;
      if (pendingLen < padded) break;
      const data = Buffer.from(take(padded).subarray(0, state.size));
      const { type } = state;
      let name = state.name;
      state = null;
      if (type === 'L') { longName = data.toString('utf8').replace(/\0+$/, ''); continue; }
      if (type === 'x') {
        const m = /\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
        paxPath = m ? m[1]! : null;
        continue;
      }
      if (type === 'g') continue;
      if (longName) { name = longName; longName = null; }
      if (paxPath) { name = paxPath; paxPath = null; }
      if (type === '0' || type === '\0' || type === '7') yield { name, data };
    }
  }
}
