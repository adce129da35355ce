// A streaming route's answer (server-sent events): the headers at once, then the route's writes through a
// StreamHandle until it ends or the client goes away. The request holds its in-flight slot until then (app.ts).
import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { StreamHandle } from './types.js';
import type { ReqState } from './request-bookkeeping.js';

/** A handle on an open stream; `open` is the server's set of them (ended at close), the handle leaves it on close. */
export function streamHandle(res: HttpResponse, state: ReqState, open: Set<StreamHandle>): StreamHandle {
  let closed = false;
  const handle: StreamHandle = {
    res,
    write: (chunk) => {
      if (closed || state.aborted) return false;
      let ok = true;
      res.cork(() => (ok = res.write(chunk)));
      return ok;
    },
    end: () => {
      if (closed) return;
      closed = true;
      open.delete(handle);
      if (!state.aborted) res.cork(() => res.end());
      for (const f of state.closeHandlers) f();
      state.closeHandlers.length = 0;
    },
    onClose: (fn) => state.closeHandlers.push(fn),
    closed: () => closed || state.aborted,
  };
  state.closeHandlers.push(() => {
    closed = true;
    open.delete(handle);
  });
  open.add(handle);
  return handle;
}

/** The event stream's status and headers (the request's own first: request id, rate limit). */
export function writeStreamHead(res: HttpResponse, outHeaders: Record<string, string>): void {
  res.cork(() => {
    res.writeStatus('200 OK');
    for (const [k, v] of Object.entries(outHeaders)) res.writeHeader(k, v);
    res.writeHeader('content-type', 'text/event-stream');
    res.writeHeader('cache-control', 'no-cache, no-transform');
    res.writeHeader('x-accel-buffering', 'no');
  });
}
