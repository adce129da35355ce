// MeCab's connection costs (matrix.bin: u16 lsize, u16 rsize, then lsize × rsize i16). Joining a left node to a
// right node costs cost[left.rcAttr + lsize × right.lcAttr]: for one right node the costs of all left nodes are one
// contiguous row (lsize × 2 bytes), so rows are read once and kept in a small LRU instead of the 20 MB file.
import type { PagedFile } from './paged-file.js';
import { SlotCache } from './slot-cache.js';

export class Matrix {
  readonly lsize: number;
  readonly rsize: number;
  /** which row each slot of the slab holds */
  private readonly cache: SlotCache;
  /** the cached rows, one slab allocated once */
  private readonly slots: Int16Array[];

  constructor(private readonly file: PagedFile, maxRows = 384) {
    this.lsize = file.u16(0);
    this.rsize = file.u16(2);
    if (4 + this.lsize * this.rsize * 2 !== file.size) throw new Error('matrix.bin size does not match lsize × rsize');
    const slab = new ArrayBuffer(maxRows * this.lsize * 2);
    this.slots = Array.from({ length: maxRows }, (_, i) => new Int16Array(slab, i * this.lsize * 2, this.lsize));
    this.cache = new SlotCache(this.rsize, maxRows);
  }

  /** the costs of joining any left node (indexed by its rcAttr) to a right node of this lcAttr */
  row(lcAttr: number): Int16Array {
    let slot = this.cache.find(lcAttr);
    if (slot >= 0) return this.slots[slot]!;
    slot = this.cache.claim(lcAttr);
    const r = this.slots[slot]!;
    this.file.readInto(new Uint8Array(r.buffer, r.byteOffset, r.byteLength), 4 + lcAttr * this.lsize * 2);
    return r;
  }
}
