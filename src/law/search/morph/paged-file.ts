// Positioned reads of a large read-only file through a small LRU of 4 KiB pages. The MeCab dictionary is 100 MB and
// the law server's RSS is near its budget (issue #15: < 600 MB), so the analyser never reads the files whole: the
// kernel's page cache holds them (not the process's RSS), this cache keeps only the pages the queries touch.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;

export class PagedFile {
  readonly size: number;
  private readonly fd: number;
  private readonly pages = new Map<number, Buffer>();
  private lastNo = -1;
  private last: Buffer = Buffer.alloc(0);
  /** pages read from the file (cache misses), for the bench */
  reads = 0;

  constructor(path: string, private readonly maxPages = 512) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
  }

  private page(no: number): Buffer {
    if (no === this.lastNo) return this.last;
    let p = this.pages.get(no);
    if (p) { this.pages.delete(no); this.pages.set(no, p); } // most recent last
    else {
      p = Buffer.allocUnsafe(PAGE);
      readSync(this.fd, p, 0, PAGE, no * PAGE);
      this.reads++;
      this.pages.set(no, p);
      if (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value!);
    }
    this.lastNo = no;
    this.last = p;
    return p;
  }

  /** little-endian reads at aligned offsets (the dictionary's records never cross a page) */
  i32(off: number): number { return this.page(off >>> PAGE_BITS).readInt32LE(off & (PAGE - 1)); }
  u32(off: number): number { return this.page(off >>> PAGE_BITS).readUInt32LE(off & (PAGE - 1)); }
  u16(off: number): number { return this.page(off >>> PAGE_BITS).readUInt16LE(off & (PAGE - 1)); }
  i16(off: number): number { return this.page(off >>> PAGE_BITS).readInt16LE(off & (PAGE - 1)); }

  /** len bytes at off (a matrix row), read directly into a fresh buffer: not cached here */
  bytes(off: number, len: number): Buffer {
    const b = Buffer.allocUnsafe(len);
    readSync(this.fd, b, 0, len, off);
    this.reads++;
    return b;
  }

  /** the NUL-terminated UTF-8 string at off */
  cstring(off: number): string {
    const parts: Buffer[] = [];
    for (;;) {
      const p = this.page(off >>> PAGE_BITS);
      const at = off & (PAGE - 1);
      const end = p.indexOf(0, at);
      if (end >= 0) { parts.push(p.subarray(at, end)); break; }
      parts.push(Buffer.from(p.subarray(at)));
      off += PAGE - at;
    }
    return Buffer.concat(parts).toString('utf8');
  }

  close(): void { closeSync(this.fd); this.pages.clear(); }
}
