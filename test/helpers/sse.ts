// Server-sent events of a fetch Response, one at a time: comments (": keep-alive") skipped, `data:` lines joined.
export interface SseEvent { event: string; data: string }

/** next() answers the next event, or null once the stream has ended. */
export function sseEvents(res: Response): { next: () => Promise<SseEvent | null> } {
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const next = async (): Promise<SseEvent | null> => {
    for (;;) {
      const i = buf.indexOf('\n\n');
      if (i >= 0) {
        const raw = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (raw.startsWith(':')) continue;
        return { event: /^event: (.*)$/m.exec(raw)?.[1] ?? 'message', data: raw.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n') };
      }
      const { value, done } = await reader.read();
      if (done) return null;
      buf += dec.decode(value, { stream: true });
    }
  };
  return { next };
}
