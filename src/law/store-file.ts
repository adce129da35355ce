// The store's long values of one index generation in a side file (`store-<gen>.long` beside the law environment),
// read with positioned reads, as the index's long values are (search/long-values.ts says why: lmdb-js maps a value
// longer than its 16 KiB chunk whole, and it stays in the process's RSS until the chunk purge): a copy of every table
// of contents longer than a chunk, and the catalogue record's document records (8.8 MB with the full corpus, read by
// every thread that loads the catalogue). `law.toc` keeps every list: it is what the writers (putDoc) and a store
// without the side file read. The file holds only while the documents are those of the generation: the record
// pointing into it ('store-long' in law.sys) is written with the catalogue record and removed with it by the first
// document write (LawStore.catalogueChanging).
import fs from 'node:fs';
import path from 'node:path';
import { pack, unpack } from 'msgpackr';
import { LONG_VALUE_BYTES } from './search/long-values.js';
import { readFully, writeFully } from './positioned-io.js';

/** the sys record of the side file: the generation, per document id its list's offset and length, the catalogue's,
 * the derived name tables' (search/derived-names.ts; kept in a record of their own too, see LawStore) */
export interface StoreFileRecord { gen: number; at: Record<string, [number, number]>; catalogue?: [number, number]; names?: [number, number] }

export function storeFile(dir: string, gen: number): string {
  return path.join(dir, `store-${gen}.long`);
}

/** what the writer reads of the store: the documents' ids, a stored list's length (encoded), the list */
export interface StoreFileSource { ids: string[]; bytes(id: string): number; read(id: string): unknown }

/**
 * Write the side file of generation gen from every stored table of contents whose encoded value passes a chunk (the
 * lists as JSON, appended), the catalogue's records and the derived name tables (msgpack), fsynced; answers the
 * record to commit after it.
 */
export async function writeStoreFile(dir: string, gen: number, tocs: StoreFileSource, catalogue: unknown, names?: unknown): Promise<StoreFileRecord> {
  const fd = fs.openSync(storeFile(dir, gen), 'w');
  const at: Record<string, [number, number]> = {};
  let pos = 0;
  const put = (b: Uint8Array): [number, number] => {
    writeFully(fd, b, pos);
    pos += b.length;
    return [pos - b.length, b.length];
  };
  let cat: [number, number] | undefined, nm: [number, number] | undefined;
  try {
    for (let i = 0; i < tocs.ids.length; i++) {
      // yield now and then: lmdb-js renews its read transaction between turns (as the index build does)
      if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
      const id = tocs.ids[i]!;
      if (tocs.bytes(id) <= LONG_VALUE_BYTES) continue;
      at[id] = put(Buffer.from(JSON.stringify(tocs.read(id))));
    }
    cat = put(pack(catalogue));
    if (names !== undefined) nm = put(pack(names));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { gen, at, catalogue: cat, ...(nm ? { names: nm } : {}) };
}

/** Remove the side files of the generations before gen (a thread still reading one keeps its open descriptor). */
export function dropStoreFilesBefore(dir: string, gen: number): void {
  for (const f of fs.readdirSync(dir)) {
    const m = /^store-(\d+)\.long$/.exec(f);
    if (m && Number(m[1]) < gen) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/** Reads the long tables of contents of one generation's side file. */
export class StoreFileReader {
  private constructor(private fd: number, private readonly at: Record<string, [number, number]>, private readonly cat?: [number, number], private readonly nm?: [number, number]) {}

  /** opened at once (a later rebuild may remove the file; the descriptor keeps it readable); null: no usable file */
  static open(dir: string, rec: StoreFileRecord): StoreFileReader | null {
    try {
      return new StoreFileReader(fs.openSync(storeFile(dir, rec.gen), 'r'), rec.at, rec.catalogue, rec.names);
    } catch {
      return null; // the file is gone (removed after a newer build): the lists are read from law.toc
    }
  }

  /** a document's list, or undefined when it is not in the file */
  read<T>(id: string): T | undefined {
    const b = this.bytes(this.at[id]);
    return b ? JSON.parse(b.toString('utf8')) as T : undefined;
  }

  /** the catalogue record's document records, or undefined when the file has none */
  catalogue<T>(): T | undefined {
    const b = this.bytes(this.cat);
    return b ? unpack(b) as T : undefined;
  }

  /** the derived name tables, or undefined when the file has none */
  names<T>(): T | undefined {
    const b = this.bytes(this.nm);
    return b ? unpack(b) as T : undefined;
  }

  private bytes(w: [number, number] | undefined): Buffer | undefined {
    if (!w || this.fd < 0) return undefined;
    const [pos, len] = w, b = Buffer.allocUnsafe(len);
    return readFully(this.fd, b, pos) === len ? b : undefined;
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
  }
}
