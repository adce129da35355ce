// MeCab's character categories (char.bin: u32 count, count × char[32] names, then 0xFFFF u32 CharInfo for each UCS-2
// code point). CharInfo bits (low first): type:18 (a mask of the categories), default_type:8, length:4, group:1,
// invoke:1. 256 KiB, read whole.
import { readFileSync } from 'node:fs';

/** a CharInfo's fields, read from its bits (the lattice reads them per character: no object per character) */
export const typeOf = (v: number): number => v & 0x3ffff;
export const defaultTypeOf = (v: number): number => (v >>> 18) & 0xff;
export const lengthOf = (v: number): number => (v >>> 26) & 0xf;
export const groups = (v: number): boolean => ((v >>> 30) & 1) === 1;
export const invokes = (v: number): boolean => (v >>> 31) === 1;

export class CharProperty {
  readonly names: string[] = [];
  private readonly infos: Uint32Array;

  constructor(path: string) {
    const b = readFileSync(path);
    const n = b.readUInt32LE(0);
    for (let i = 0; i < n; i++) {
      const s = b.subarray(4 + i * 32, 4 + (i + 1) * 32);
      this.names.push(s.subarray(0, s.indexOf(0) < 0 ? 32 : s.indexOf(0)).toString('latin1'));
    }
    const at = 4 + n * 32;
    this.infos = new Uint32Array(0xffff);
    for (let i = 0; i < 0xffff; i++) this.infos[i] = b.readUInt32LE(at + i * 4);
  }

  /** the CharInfo bits of a character (typeOf … invokes above read them) */
  raw(code: number): number { return this.infos[code < 0xffff ? code : 0]!; }

  /** the character of code is of one of the categories of mask (CharInfo.isKindOf) */
  kindOf(mask: number, code: number): boolean { return (typeOf(this.raw(code)) & mask) !== 0; }
}
