// The tables of contents longer than a chunk of the LMDB map, copied at each index build into a side file of that
// generation (`toc-<gen>.long` beside the law environment) and read from it with positioned reads, as the index's
// long values are (search/long-values.ts says why: lmdb-js maps a value longer than its 16 KiB chunk whole, and it
// stays in the process's RSS until the chunk purge). `law.toc` keeps every list: it is what the writers (putDoc) and
// a store without the side file read. The copy holds only while the documents are those of the generation: the
// record pointing into it ('toc-long' in law.sys) is written with the catalogue record and removed with it by the
// first document write (LawStore.catalogueChanging).
import fs from 'node:fs';
import path from 'node:path';
import { LONG_VALUE_BYTES } from './search/long-values.js';

/** the sys record of the side file: the generation and, per document id, its list's offset and length */
export interface TocLongRecord { gen: number; at: Record<string, [number, number]> }

export function tocFile(dir: string, gen: number): string {
  return path.join(dir, `toc-${gen}.long`);
}

/** what the writer reads of the store: the documents' ids, a stored list's length (encoded), the list */
export interface TocSource { ids: string[]; bytes(id: string): number; read(id: string): unknown }

/**
 * Write the side file of generation gen from every stored table of contents whose encoded value passes a chunk (the
 * lists as JSON, appended), fsynced; answers the record to commit after it.
 */
export async function writeTocFile(dir: string, gen: number, tocs: TocSource): Promise<TocLongRecord> {
  const fd = fs.openSync(tocFile(dir, gen), 'w');
  const at: Record<string, [number, number]> = {};
  let pos = 0;
  try {
    for (let i = 0; i < tocs.ids.length; i++) {
      // yield now and then: lmdb-js renews its read transaction between turns (as the index build does)
      if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
      const id = tocs.ids[i]!;
      if (tocs.bytes(id) <= LONG_VALUE_BYTES) continue;
      const b = Buffer.from(JSON.stringify(tocs.read(id)));
      for (let done = 0; done < b.length;) done += fs.writeSync(fd, b, done, b.length - done, pos + done);
      at[id] = [pos, b.length];
      pos += b.length;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { gen, at };
}

/** Remove the side files of the generations before gen (a thread still reading one keeps its open descriptor). */
export function dropTocFilesBefore(dir: string, gen: number): void {
  for (const f of fs.readdirSync(dir)) {
    const m = /^toc-(\d+)\.long$/.exec(f);
    if (m && Number(m[1]) < gen) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/** Reads the long tables of contents of one generation's side file. */
export class TocReader {
  private constructor(private fd: number, private readonly at: Record<string, [number, number]>) {}

  /** opened at once (a later rebuild may remove the file; the descriptor keeps it readable); null: no usable file */
  static open(dir: string, rec: TocLongRecord): TocReader | null {
    try {
      return new TocReader(fs.openSync(tocFile(dir, rec.gen), 'r'), rec.at);
    } catch {
      return null; // the file is gone (removed after a newer build): the lists are read from law.toc
    }
  }

  /** a document's list, or undefined when it is not in the file */
  read<T>(id: string): T | undefined {
    const w = this.at[id];
    if (!w || this.fd < 0) return undefined;
    const [pos, len] = w, b = Buffer.allocUnsafe(len);
    for (let done = 0; done < len;) {
      const n = fs.readSync(this.fd, b, done, len - done, pos + done);
      if (n === 0) return undefined;
      done += n;
    }
    return JSON.parse(b.toString('utf8')) as T;
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }
}
