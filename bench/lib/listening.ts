// The port a `sejong serve` child reports in its "listening" log line (pino JSON on stdout), for benches that start
// the real server command; rejects when the child exits first or after `ms`.
import type { ChildProcess } from 'node:child_process';

export function listeningPort(child: ChildProcess, ms = 60_000): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /"msg":"listening","port":(\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
      // the log keeps coming after the line: keep only a tail to search
      if (buf.length > 1e6) buf = buf.slice(-1e4);
    });
    child.once('exit', (c) => reject(new Error(`server exited (${c}) before listening`)));
    setTimeout(() => reject(new Error(`no listening line in ${ms / 1000} s`)), ms).unref();
  });
}
