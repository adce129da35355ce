// The index's long values (postings and title lists longer than LONG_VALUE_BYTES) kept out of LMDB, in a side file
// per generation beside the law environment (`idx-<gen>.long`), read with positioned reads.
//
// Why: the law environment is read through lmdb-js's chunked map (remapChunks): 16-page chunks are mapped as read and
// unmapped only when ≈ 8,191 are mapped, but a value longer than a chunk is mapped whole, and stays mapped (file-backed
// RSS) until that purge. The chunk size and the purge count are compile-time constants of lmdb-js's mdb.c
// (MDB_RPAGE_CHUNK, MDB_ERPAGE_SIZE, MDB_ERPAGE_MAX): nothing at run time changes them. The 1,415 postings and 16
// title lists over 16 KiB of the full corpus are 103 MB; read through the map they were up to 77 MB of the law
// server's peak RSS (bench/RESULTS.md, rss21). Read with fs.readSync into a heap buffer instead, a value costs the
// page cache (not the process's RSS) and a buffer the GC frees.
//
// Generation discipline (as the index's records): the build writes and fsyncs the file before it commits the table
// that points into it ([gen, 'long']); the file of an older generation is removed with that generation's records
// (dropGenerationsBefore), and a thread that opened it keeps reading it through its open descriptor. A generation
// without the table (a store built before the side file) reads every value from LMDB as before.
import fs from 'node:fs';
import path from 'node:path';
import { readFully, writeFully } from '../positioned-io.js';

/** a value longer than this goes to the side file: a 16 KiB chunk of 1 KiB pages less the overflow page's header */
export const LONG_VALUE_BYTES = 16 * 1024 - 64;

/** the table of a generation's side file: per posting term and per title owner, its offset and length (flat triples) */
export interface LongTable { postings: number[]; titles: number[] }

/** the side file of generation gen in dir */
export function longFile(dir: string, gen: number): string {
  return path.join(dir, `idx-${gen}.long`);
}

/** Writes one generation's side file (the build): values appended, then fsynced before the table is committed. */
export class LongWriter {
  private fd: number;
  private at = 0;
  readonly table: LongTable = { postings: [], titles: [] };

  constructor(readonly file: string) {
    // truncates the file of a build cut short before its table was committed (its generation is never recorded)
    this.fd = fs.openSync(file, 'w');
  }

  /** append a value: a posting of term t or the title list of owner o */
  put(kind: 'postings' | 'titles', key: number, value: Uint8Array): void {
    writeFully(this.fd, value, this.at);
    this.table[kind].push(key, this.at, value.length);
    this.at += value.length;
  }

  /** flush to disk and close: call before committing the table */
  finish(): void {
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
  }
}

/** Reads one generation's long values (none when the generation has no table). */
export class LongValues {
  private fd = -1;
  private postings = new Map<number, number>();
  private titles = new Map<number, number>();
  private where: number[] = [];

  /** read the values of a generation (table undefined: it has none); the previous one's file is closed */
  open(file: string, table: LongTable | undefined): void {
    this.close();
    if (!table) return;
    // opened now, not at the first read: the file of this generation may be removed (a newer build) while this thread
    // still searches it; an open descriptor keeps it readable
    this.fd = fs.openSync(file, 'r');
    this.where = [...table.postings, ...table.titles];
    for (let i = 0; i < table.postings.length; i += 3) this.postings.set(table.postings[i]!, i);
    const off = table.postings.length;
    for (let i = 0; i < table.titles.length; i += 3) this.titles.set(table.titles[i]!, off + i);
  }

  close(): void {
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.fd = -1;
    this.postings.clear();
    this.titles.clear();
    this.where = [];
  }

  /** the length of a long value (undefined: not in the side file) */
  length(kind: 'postings' | 'titles', key: number): number | undefined {
    const i = this[kind].get(key);
    return i === undefined ? undefined : this.where[i + 2]!;
  }

  /** a long value read into a fresh array of its own (undefined: not in the side file) */
  read(kind: 'postings' | 'titles', key: number): Uint8Array | undefined {
    const len = this.length(kind, key);
    if (len === undefined) return undefined;
    const out = new Uint8Array(len);
    this.readInto(kind, key, out);
    return out;
  }

  /** a long value read into out from its start (out holds at least length(kind, key) bytes; the value must exist) */
  readInto(kind: 'postings' | 'titles', key: number, out: Uint8Array): void {
    const i = this[kind].get(key)!;
    const pos = this.where[i + 1]!, len = this.where[i + 2]!;
    if (readFully(this.fd, out.subarray(0, len), pos) < len) throw new Error(`law index side file: ${len} bytes at ${pos} not there (truncated?)`);
  }
}
