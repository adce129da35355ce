// MeCab's connection costs (matrix.bin: u16 lsize, u16 rsize, then lsize × rsize i16). Joining a left node to a
// right node costs cost[left.rcAttr + lsize × right.lcAttr]: for one right node the costs of all left nodes are one
// contiguous row (lsize × 2 bytes), so rows are read once and kept in a small LRU instead of the 20 MB file.
import { PagedFile } from './paged-file.js';

export class Matrix {
  readonly lsize: number;
  readonly rsize: number;
  /** lcAttr → slot; the Map's order is the LRU order (least recent first) */
  private readonly slotOf = new Map<number, number>();
  /** the cached rows, one slab allocated once */
  private readonly slots: Int16Array[];

  constructor(private readonly file: PagedFile, private readonly maxRows = 384) {
    this.lsize = file.u16(0);
    this.rsize = file.u16(2);
    if (4 + this.lsize * this.rsize * 2 !== file.size) throw new Error('matrix.bin size does not match lsize × rsize');
    const slab = new ArrayBuffer(maxRows * this.lsize * 2);
    this.slots = Array.from({ length: maxRows }, (_, i) => new Int16Array(slab, i * this.lsize * 2, this.lsize));
  }

  /** the costs of joining any left node (indexed by its rcAttr) to a right node of this lcAttr */
  row(lcAttr: number): Int16Array {
    let slot = this.slotOf.get(lcAttr);
    if (slot !== undefined) { this.slotOf.delete(lcAttr); this.slotOf.set(lcAttr, slot); return this.slots[slot]!; }
    if (this.slotOf.size < this.maxRows) slot = this.slotOf.size;
    else { const [old, s] = this.slotOf.entries().next().value!; this.slotOf.delete(old); slot = s; }
    const r = this.slots[slot]!;
    this.file.readInto(new Uint8Array(r.buffer, r.byteOffset, r.byteLength), 4 + lcAttr * this.lsize * 2);
    this.slotOf.set(lcAttr, slot);
    return r;
  }
}
