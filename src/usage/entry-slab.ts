// Request-log entries of one key, written into one growing byte buffer the moment they are added.
//
// Why by hand: a buffered entry as a JavaScript object (with its request id and path strings) lives until the next
// flush, so the young-generation GC copied every one of them at each scavenge — about 0.9 MB per scavenge at 15k
// requests a second, nine tenths of everything it copied, and the main cause of its pauses under load. Bytes in a
// Buffer sit outside the JavaScript heap and cost the GC nothing. No codec library writes into a caller's growing
// buffer without building an object first; the format is five fields.
//
// Layout: 0xc1 (a byte msgpack never uses, so a slab is told apart from the batches older versions stored as
// msgpack) and a version byte, then per entry: time f64, ms f64, status u16, then method, path, requestId and code
// as u16 byte length + UTF-8 (code: length 0xffff when absent). Little-endian. Version 2 (written now; version 1
// slabs are still read): method, path and code may instead be the length 0xfffe, "the same as this field of the
// entry before": a poller's entries repeat them, and a string compared costs less than a string encoded (the log
// entry was the largest part of a keyed status poll's JavaScript, bench/front-path.ts).
import type { RequestLogEntry } from './request-log-entry.js';

const MAGIC = 0xc1;
const VERSION = 2;
const ABSENT = 0xffff;
/** a field's length meaning "as in the entry before" (version 2) */
const SAME = 0xfffe;
/** the longest string kept (a path longer than this is cut; the log is a diagnostic record) */
const MAX_STRING = 4096;

export class EntrySlab {
  private buf: Buffer;
  private len = 2;
  /** entries in the slab */
  count = 0;
  /** time of the newest entry */
  lastTime = 0;
  /** the smallest and largest entry time (a clock stepped back makes them differ from the first and last) */
  minTime = Number.POSITIVE_INFINITY;
  maxTime = Number.NEGATIVE_INFINITY;

  constructor(initialBytes = 1024) {
    this.buf = Buffer.allocUnsafe(Math.max(64, initialBytes));
    this.buf[0] = MAGIC;
    this.buf[1] = VERSION;
  }

  /** method, path and code of the entry before (a repeat is written as SAME) */
  private lastMethod = '';
  private lastPath = '';
  private lastCode: string | undefined = undefined;

  push(e: RequestLogEntry): void {
    // worst case: 3 UTF-8 bytes per UTF-16 unit, each string capped
    const strings = Math.min(e.method.length, MAX_STRING) + Math.min(e.path.length, MAX_STRING) + Math.min(e.requestId.length, MAX_STRING) + Math.min(e.code?.length ?? 0, MAX_STRING);
    this.ensure(18 + 8 + 3 * strings);
    const b = this.buf;
    b.writeDoubleLE(e.time, this.len);
    b.writeDoubleLE(e.ms, this.len + 8);
    b.writeUInt16LE(e.status, this.len + 16);
    this.len += 18;
    if (e.method === this.lastMethod) this.same();
    else this.str((this.lastMethod = e.method));
    if (e.path === this.lastPath) this.same();
    else this.str((this.lastPath = e.path));
    this.str(e.requestId);
    const code = e.code;
    if (code === this.lastCode) this.same();
    else if (code === undefined) this.len = b.writeUInt16LE(ABSENT, this.len);
    else this.str(code);
    this.lastCode = code;
    this.count++;
    this.lastTime = e.time;
    if (e.time < this.minTime) this.minTime = e.time;
    if (e.time > this.maxTime) this.maxTime = e.time;
  }

  /** the encoded slab (a view: the slab is not written after it is taken) */
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }

  private str(s: string): void {
    const n = this.buf.write(s, this.len + 2, Math.min(MAX_STRING, this.buf.length - this.len - 2), 'utf8');
    this.buf.writeUInt16LE(n, this.len);
    this.len += 2 + n;
  }

  private same(): void {
    this.len = this.buf.writeUInt16LE(SAME, this.len);
  }

  private ensure(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + extra));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  static isSlab(v: Uint8Array): boolean {
    return v.length >= 2 && v[0] === MAGIC && (v[1] === VERSION || v[1] === 1);
  }

  /** The entries of a slab, oldest first. */
  static decode(v: Uint8Array): RequestLogEntry[] {
    return Array.from(EntrySlab.entries(v));
  }

  /** The entries of a slab one at a time, oldest first (a flush writes each out before the next is made). */
  static *entries(v: Uint8Array): Generator<RequestLogEntry, void, undefined> {
    const b = Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    let at = 2;
    // a field's value, or the entry before's (SAME: version 2)
    const str = (before: string | undefined): string | undefined => {
      const n = b.readUInt16LE(at);
      at += 2;
      if (n === ABSENT) return undefined;
      if (n === SAME) return before;
      const s = b.toString('utf8', at, at + n);
      at += n;
      return s;
    };
    let method = '';
    let path = '';
    let code: string | undefined;
    while (at < b.length) {
      const time = b.readDoubleLE(at);
      const ms = b.readDoubleLE(at + 8);
      const status = b.readUInt16LE(at + 16);
      at += 18;
      method = str(method)!;
      path = str(path)!;
      const requestId = str(undefined)!;
      code = str(code);
      yield code === undefined ? { time, method, path, status, ms, requestId } : { time, method, path, status, ms, requestId, code };
    }
  }
}
