// Positioned reads and writes that loop until the whole buffer is done. fs.readSync / fs.writeSync may move fewer
// bytes than asked (a signal, a file cut short, a full disk, a network file system), and Node has no pread/pwrite
// "all or nothing" of its own: the law's side files (store-file.ts, search/long-values.ts) read and write through
// these two instead of each keeping its own loop.
import fs from 'node:fs';

/** the positioned read: fs.readSync's shape (a test hands in one that returns fewer bytes per call) */
export type PositionedRead = (fd: number, buf: Uint8Array, offset: number, length: number, position: number) => number;
export type PositionedWrite = (fd: number, buf: Uint8Array, offset: number, length: number, position: number) => number;

/**
 * Read buf.length bytes of fd from position pos into buf, looping over short reads. Answers the bytes read: fewer
 * than buf.length only when the file ends first (a read of 0 bytes).
 */
export function readFully(fd: number, buf: Uint8Array, pos: number, read: PositionedRead = fs.readSync): number {
  let done = 0;
  while (done < buf.length) {
    const n = read(fd, buf, done, buf.length - done, pos + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** Write all of buf to fd at position pos, looping over short writes. */
export function writeFully(fd: number, buf: Uint8Array, pos: number, write: PositionedWrite = fs.writeSync): void {
  for (let done = 0; done < buf.length;) done += write(fd, buf, done, buf.length - done, pos + done);
}
