// Positioned reads of a large read-only file through a small LRU of 4 KiB pages. The MeCab dictionary is 100 MB and
// the law server's RSS is near its budget (issue #15: < 600 MB), so the analyser never reads the files whole: the
// kernel's page cache holds them (not the process's RSS), this cache keeps only the pages the queries touch.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SlotCache } from './slot-cache.js';

const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;

export class PagedFile {
  readonly size: number;
  private readonly fd: number;
  /** which page each slot of the slab holds */
  private readonly cache: SlotCache;
  /** the cached pages, one slab allocated once (no allocation per miss, nothing for the GC) */
  private readonly slots: Buffer[];
  private lastNo = -1;
  private last: Buffer = Buffer.alloc(0);
  /** pages read from the file (cache misses), for the bench */
  reads = 0;

  constructor(path: string, maxPages = 512) {
    this.fd = openSync(path, 'r');
    this.size = fstatSync(this.fd).size;
    const slab = new ArrayBuffer(maxPages * PAGE);
    this.slots = Array.from({ length: maxPages }, (_, i) => Buffer.from(slab, i * PAGE, PAGE));
    this.cache = new SlotCache(Math.ceil(this.size / PAGE), maxPages);
  }

  private page(no: number): Buffer {
    if (no === this.lastNo) return this.last;
    let slot = this.cache.find(no);
    if (slot < 0) {
      slot = this.cache.claim(no);
      readSync(this.fd, this.slots[slot]!, 0, PAGE, no * PAGE);
      this.reads++;
    }
    this.lastNo = no;
    this.last = this.slots[slot]!;
    return this.last;
  }

  /** little-endian reads at aligned offsets (the dictionary's records never cross a page) */
  i32(off: number): number { return this.page(off >>> PAGE_BITS).readInt32LE(off & (PAGE - 1)); }
  u32(off: number): number { return this.page(off >>> PAGE_BITS).readUInt32LE(off & (PAGE - 1)); }
  u16(off: number): number { return this.page(off >>> PAGE_BITS).readUInt16LE(off & (PAGE - 1)); }
  i16(off: number): number { return this.page(off >>> PAGE_BITS).readInt16LE(off & (PAGE - 1)); }

  /** len bytes at off into buf (a matrix row): not cached here */
  readInto(buf: Uint8Array, off: number): void {
    readSync(this.fd, buf, 0, buf.byteLength, off);
    this.reads++;
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

  close(): void { closeSync(this.fd); }
}
