// One full V8 collection on the main thread, a second after a flood of request bodies has drained (issue 12: memory
// back to its baseline after load). The bodies are garbage once answered, but an idle server does not collect, so
// hundreds of MB of freed-to-be Buffers stay resident until the next allocation-driven GC. Node exposes gc() only
// with --expose-gc; the flag is set at run time here (the documented v8.setFlagsFromString) so that `node bin/…`
// needs no extra argument.
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;
let pending: NodeJS.Timeout | undefined;

export function collectSoon(delayMs = 1000): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = undefined;
    if (!gc) {
      v8.setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
    gc();
  }, delayMs);
  pending.unref();
}
