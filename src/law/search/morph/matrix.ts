// MeCab's connection costs (matrix.bin: u16 lsize, u16 rsize, then lsize × rsize i16). Joining a left node to a
// right node costs cost[left.rcAttr + lsize × right.lcAttr]: for one right node the costs of all left nodes are one
// contiguous row (lsize × 2 bytes), so rows are read once and kept in a small LRU instead of the 20 MB file.
import { PagedFile } from './paged-file.js';

export class Matrix {
  readonly lsize: number;
  readonly rsize: number;
  private readonly rows = new Map<number, Int16Array>();

  constructor(private readonly file: PagedFile, private readonly maxRows = 384) {
    this.lsize = file.u16(0);
    this.rsize = file.u16(2);
    if (4 + this.lsize * this.rsize * 2 !== file.size) throw new Error('matrix.bin size does not match lsize × rsize');
  }

  /** the costs of joining any left node (indexed by its rcAttr) to a right node of this lcAttr */
  row(lcAttr: number): Int16Array {
    let r = this.rows.get(lcAttr);
    if (r) { this.rows.delete(lcAttr); this.rows.set(lcAttr, r); return r; }
    const b = this.file.bytes(4 + lcAttr * this.lsize * 2, this.lsize * 2);
    r = new Int16Array(b.buffer, b.byteOffset, this.lsize);
    this.rows.set(lcAttr, r);
    if (this.rows.size > this.maxRows) this.rows.delete(this.rows.keys().next().value!);
    return r;
  }
}
